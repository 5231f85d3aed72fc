package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
)

// git runs git in dir and returns its trimmed standard output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return strings.TrimSpace(out.String()), nil
}

// gitRevExists reports whether rev names a commit.
func gitRevExists(dir, rev string) bool {
	_, err := git(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	return err == nil
}

// sparseCheckout reports whether dir is a git sparse checkout, whose files
// outside the checked-out cone are absent from the working tree.
func sparseCheckout(dir string) bool {
	v, err := git(dir, "config", "--type=bool", "--get", "core.sparseCheckout")
	return err == nil && v == "true"
}

// shortSHA abbreviates a commit id for messages.
func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// describeBase says what a change is compared with: the base and, when it
// is not HEAD, the merge base of the base and HEAD.
func describeBase(dir, base string, staged bool) string {
	if base == "" || base == "HEAD" {
		sha, _ := git(dir, "rev-parse", "--verify", "--quiet", "HEAD")
		what := "the working tree"
		if staged {
			what = "the index"
		}
		return fmt.Sprintf("HEAD (%s), %s", shortSHA(sha), what)
	}
	mb, err := git(dir, "merge-base", "--end-of-options", base, "HEAD")
	if err != nil {
		return base
	}
	return fmt.Sprintf("%s (merge base %s)", base, shortSHA(mb))
}

package main

// What the command line says about the change it checks.

import (
	"fmt"

	"github.com/tilegym/tilegym-lint/git"
)

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
		sha, _ := git.Output(dir, "rev-parse", "--verify", "--quiet", "HEAD")
		what := "the working tree"
		if staged {
			what = "the index"
		}
		return fmt.Sprintf("HEAD (%s), %s", shortSHA(sha), what)
	}
	mb, err := git.Output(dir, "merge-base", "--end-of-options", base, "HEAD")
	if err != nil {
		return base
	}
	return fmt.Sprintf("%s (merge base %s)", base, shortSHA(mb))
}

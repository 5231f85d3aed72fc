package git

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// CheckRevision refuses a revision that git could read as an option
// ("--output=ops.py" would make git diff write that file) or that is empty.
// Every revision given to git is also passed after --end-of-options.
func CheckRevision(rev string) error {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n") {
		return fmt.Errorf("invalid revision %q: a revision names a commit (origin/main, HEAD~1, a hash) and cannot be empty or start with '-'", rev)
	}
	return nil
}

// Only this package builds git's arguments: the other packages call the
// named functions (Head, TopLevel, MergeBase, ...), so that every
// revision or path from the command line or the repository is checked and
// placed after --end-of-options or "--" here.

// command is the one runner: git with args, run in dir ("-C dir": dir is
// a path, never an option).
func command(dir string, args ...string) *exec.Cmd {
	return exec.Command("git", append([]string{"-C", dir}, args...)...)
}

// output runs a git command in dir and returns its standard output
// trimmed of surrounding white space (one line: a commit id, a path, a
// ref).
func output(dir string, args ...string) (string, error) {
	out, err := runBytes(dir, args...)
	return strings.TrimSpace(string(out)), err
}

// runBytes runs a git command in dir and returns its standard output.
func runBytes(dir string, args ...string) ([]byte, error) {
	cmd := command(dir, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, runError(args, err, &stderr)
	}
	return out, nil
}

// ErrNotFound: git is not installed, or not in PATH.
var ErrNotFound = errors.New("git was not found: change mode (--diff, --staged) runs git; install git or add it to PATH")

// runError is the error of a git command that failed: ErrNotFound when
// git could not be started for want of it. stderr (nil: none) is what
// the command wrote there.
func runError(args []string, err error, stderr *bytes.Buffer) error {
	if errors.Is(err, exec.ErrNotFound) {
		return ErrNotFound
	}
	if stderr != nil && strings.TrimSpace(stderr.String()) != "" {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
}

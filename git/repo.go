package git

// The repository around a checked directory: its git directory, its
// untracked files and the revisions change mode compares.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tilegym/tilegym-lint/source/regfile"
)

// errGitDirUnknown: how the repository is set up (a GIT_* variable, a
// .git file not naming a directory) is not one findGitDir follows; git
// finds the repository itself.
var errGitDirUnknown = errors.New("git directory not found here")

// gitEnvVars change where git finds the repository, its index or its
// work tree; with any of them set, findGitDir leaves it to git.
var gitEnvVars = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_OBJECT_DIRECTORY"}

// findGitDir returns the git directory of the repository holding dir and
// dir's path in its work tree ("" at the top, else "a/b/"), as git finds
// them: the nearest .git directory, or .git file naming one ("gitdir: ...",
// a linked work tree or a submodule), above dir.
func findGitDir(dir string) (gitDir, prefix string, err error) {
	for _, v := range gitEnvVars {
		if _, ok := os.LookupEnv(v); ok {
			return "", "", errGitDirUnknown
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	var rel []string
	for d := abs; ; {
		g := filepath.Join(d, ".git")
		if fi, err := os.Stat(g); err == nil {
			if fi.IsDir() {
				gitDir = g
			} else if data, err := regfile.Read(g); err == nil {
				line := strings.TrimSpace(string(data))
				target, ok := strings.CutPrefix(line, "gitdir: ")
				if !ok {
					return "", "", errGitDirUnknown
				}
				if !filepath.IsAbs(target) {
					target = filepath.Join(d, target)
				}
				gitDir = target
			} else {
				return "", "", errGitDirUnknown
			}
			for i, j := 0, len(rel)-1; i < j; i, j = i+1, j-1 {
				rel[i], rel[j] = rel[j], rel[i]
			}
			if len(rel) > 0 {
				prefix = strings.Join(rel, "/") + "/"
			}
			return gitDir, prefix, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", errGitDirUnknown
		}
		rel = append(rel, filepath.Base(d))
		d = parent
	}
}

// CheckIndexFile refuses an index that is not a regular file, before git
// runs: git would block opening a FIFO.
func CheckIndexFile(root string) error {
	gitDir, _, err := findGitDir(root)
	if err != nil {
		return nil // git finds the repository itself
	}
	name := filepath.Join(gitDir, "index")
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("git index %s is not a regular file; remove it (git rebuilds it with git reset) or fix the repository", name)
	}
	return nil
}

// Untracked returns, of the files listed (slash paths relative to
// root), those git counts as untracked: not in the index, not ignored
// (git ls-files --others).
func Untracked(root string, listed []string) ([]string, error) {
	out, err := runBytes(root, "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
	if err != nil {
		return nil, err
	}
	isListed := make(map[string]bool, len(listed))
	for _, p := range listed {
		isListed[p] = true
	}
	var untracked []string
	for _, p := range splitNUL(out) {
		if isListed[p] {
			untracked = append(untracked, p)
		}
	}
	return untracked, nil
}

// splitNUL splits NUL-terminated records.
func splitNUL(out []byte) []string {
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, filepath.ToSlash(p))
		}
	}
	return paths
}

// Revs returns the git top level of root, root's prefix in it
// and the merge base of base and HEAD, or an error that says
// which of them git could not find.
func Revs(root, base string) (top, prefix, mb string, err error) {
	var topErr, prefixErr, mbErr error
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); top, topErr = TopLevel(root) }()
	go func() { defer wg.Done(); prefix, prefixErr = showPrefix(root) }()
	go func() { defer wg.Done(); mb, mbErr = MergeBase(root, base) }()
	wg.Wait()
	if errors.Is(topErr, ErrNotFound) {
		return "", "", "", topErr
	}
	if topErr != nil {
		return "", "", "", fmt.Errorf("%s is not in a git repository: %w", root, topErr)
	}
	if prefixErr != nil {
		return "", "", "", prefixErr
	}
	if mbErr != nil {
		return "", "", "", fmt.Errorf("no merge base of %s and HEAD: %w", base, mbErr)
	}
	return top, prefix, mb, nil
}

// TopLevel returns the top-level directory of the git repository that
// holds dir.
func TopLevel(dir string) (string, error) {
	return output(dir, "rev-parse", "--show-toplevel")
}

// showPrefix returns dir's path in its work tree ("" at the top, else
// "a/b/").
func showPrefix(dir string) (string, error) {
	return output(dir, "rev-parse", "--show-prefix")
}

// InRepository reports whether dir is in a git repository (one without a
// commit yet too).
func InRepository(dir string) bool {
	_, err := output(dir, "rev-parse", "--git-dir")
	return err == nil
}

// Head returns the commit id HEAD names, or an error when there is none
// (a repository without a commit yet).
func Head(dir string) (string, error) {
	return output(dir, "rev-parse", "--verify", "--quiet", "HEAD")
}

// MergeBase returns the merge base of base and HEAD.
func MergeBase(dir, base string) (string, error) {
	return output(dir, "merge-base", "--end-of-options", base, "HEAD")
}

// Branch returns the short name of the branch HEAD is on, or an error on
// a detached HEAD.
func Branch(dir string) (string, error) {
	return output(dir, "symbolic-ref", "--quiet", "--short", "HEAD")
}

// OriginHead returns the remote branch origin/HEAD points to, as
// "origin/NAME" (the default branch of the clone's origin).
func OriginHead(dir string) (string, error) {
	ref, err := output(dir, "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD")
	return strings.TrimPrefix(ref, "refs/remotes/"), err
}

// OriginURL returns the URL of the remote origin.
func OriginURL(dir string) (string, error) {
	return output(dir, "remote", "get-url", "origin")
}

// StagedNames returns the paths, relative to the top level, of the files
// the index changes against HEAD (git diff --cached --name-only).
func StagedNames(dir string) ([]string, error) {
	out, err := runBytes(dir, "diff", "--cached", "--name-only", "--no-renames", "-z", "HEAD", "--")
	if err != nil {
		return nil, err
	}
	return splitNUL(out), nil
}

// RevExists reports whether rev names a commit.
func RevExists(dir, rev string) bool {
	_, err := output(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	return err == nil
}

// SparseCheckout reports whether dir is a git sparse checkout, whose files
// outside the checked-out cone are absent from the working tree.
func SparseCheckout(dir string) bool {
	v, err := output(dir, "config", "--type=bool", "--get", "core.sparseCheckout")
	return err == nil && v == "true"
}

// Index is the index of the repository dir is in, as a snapshot of the
// files under dir.
func Index(dir string) (*Source, error) {
	top, err := TopLevel(dir)
	if err != nil {
		return nil, err
	}
	prefix, err := showPrefix(dir)
	if err != nil {
		return nil, err
	}
	return &Source{Dir: top, Rev: IndexRev, Prefix: strings.TrimSuffix(prefix, "/")}, nil
}

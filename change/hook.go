package change

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tilegym/tilegym-lint/git"
)

// The pre-commit hook (--pre-commit) decides what to compare by itself, so
// that the hook definition needs no arguments:
//
//   - At `git commit` (git gives its hooks GIT_INDEX_FILE, the index being
//     committed) the hook checks the staged change against HEAD (--staged):
//     the commit being made. The hook definition has pass_filenames: false
//     and always_run: true, so a commit that only deletes files runs it too;
//     were files passed (a configuration that overrides pass_filenames),
//     all of them staged also means a commit.
//   - Otherwise (`pre-commit run`, `run -a`, `run --files`), it checks the branch:
//     the working tree against its merge base with the default branch.
//     pre-commit has stashed the unstaged changes, so the working tree is
//     the index plus untracked files. The default branch is --base, else
//     $PRE_COMMIT_FROM_REF (pre-push, `run --from-ref`), else the branch
//     origin/HEAD points to, else origin/main.
//   - With none of these, or no merge base with it, it checks the working
//     tree against HEAD: the uncommitted changes (nothing after a commit).
//   - Before the repository's first commit (no HEAD) it checks the index
//     whole: every op of the first commit is new.
//
// Ops the change does not touch are never reported, so their pre-existing
// findings never fail the hook.

// HookPlan is what the pre-commit hook compares.
type HookPlan struct {
	Base   string // the base of the change (CheckGit's base); "" for HEAD
	Staged bool   // the index, not the working tree
	// Initial: no commit yet; the index is checked whole (git.Index).
	Initial bool
	Note    string // what was compared, for the user
}

// PlanHook chooses what the pre-commit hook (--pre-commit) compares in the
// repository at root, given the files pre-commit passed (relative to the
// current directory) and the default branch --base names ("" for none).
func PlanHook(root string, files []string, base string) (*HookPlan, error) {
	committing := atCommit() // first: it makes GIT_INDEX_FILE absolute
	if _, err := git.Head(root); err != nil {
		if !git.InRepository(root) {
			return nil, fmt.Errorf("--pre-commit: %s is not in a git repository", root)
		}
		// The repository's first commit: there is no base, every op
		// staged is new.
		return &HookPlan{Initial: true, Note: "the first commit: every op staged (no HEAD to compare with)"}, nil
	}
	if committing || len(files) > 0 && allStaged(root, files) {
		head, _ := git.Head(root)
		return &HookPlan{Staged: true, Note: fmt.Sprintf("the staged change against HEAD (%s)", shortSHA(head))}, nil
	}
	var tried []string
	candidates := []string{base}
	if base == "" {
		candidates = []string{os.Getenv("PRE_COMMIT_FROM_REF")}
		if ref, err := git.OriginHead(root); err == nil {
			candidates = append(candidates, ref)
		}
		candidates = append(candidates, "origin/main")
	}
	for _, c := range candidates {
		if c == "" {
			continue
		}
		tried = append(tried, c)
		if !git.RevExists(root, c) {
			continue
		}
		if _, err := git.MergeBase(root, c); err != nil {
			continue
		}
		return &HookPlan{Base: c, Note: "the branch's change against " + DescribeBase(root, c, false)}, nil
	}
	if base != "" {
		return nil, fmt.Errorf("--base %s: no such revision, or no merge base with HEAD", base)
	}
	head, _ := git.Head(root)
	return &HookPlan{Base: "HEAD", Note: fmt.Sprintf("the uncommitted changes against HEAD (%s): no merge base with %s; pass --base BRANCH to compare a branch",
		shortSHA(head), strings.Join(tried, " or "))}, nil
}

// atCommit reports whether git is running its pre-commit hook: git sets
// GIT_INDEX_FILE for it (to the index being committed: a temporary one for
// `git commit -a` or `git commit PATH`). A relative GIT_INDEX_FILE is made
// absolute, so that git run in the checked root (maybe below the top level)
// still finds it.
func atCommit() bool {
	idx := os.Getenv("GIT_INDEX_FILE")
	if idx == "" {
		return false
	}
	if !filepath.IsAbs(idx) {
		if abs, err := filepath.Abs(idx); err == nil {
			os.Setenv("GIT_INDEX_FILE", abs)
		}
	}
	return true
}

// allStaged reports whether every file (relative to the current
// directory) is in the index's change against HEAD.
func allStaged(root string, files []string) bool {
	names, err := git.StagedNames(root)
	if err != nil || len(names) == 0 {
		return false
	}
	top, err := git.TopLevel(root)
	if err != nil {
		return false
	}
	staged := map[string]bool{}
	for _, p := range names {
		staged[filepath.Join(top, filepath.FromSlash(p))] = true
	}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return false
		}
		if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			abs = filepath.Join(real, filepath.Base(abs))
		}
		if !staged[abs] {
			return false
		}
	}
	return true
}

// shortSHA abbreviates a commit id for messages.
func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// DescribeBase says what a change is compared with: the base and, when it
// is not HEAD, the merge base of the base and HEAD.
func DescribeBase(dir, base string, staged bool) string {
	if base == "" || base == "HEAD" {
		sha, _ := git.Head(dir)
		what := "the working tree"
		if staged {
			what = "the index"
		}
		return fmt.Sprintf("HEAD (%s), %s", shortSHA(sha), what)
	}
	mb, err := git.MergeBase(dir, base)
	if err != nil {
		return base
	}
	return fmt.Sprintf("%s (merge base %s)", base, shortSHA(mb))
}

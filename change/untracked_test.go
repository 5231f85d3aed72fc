package change

import (
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/source"
)

// indexRepo makes a repository with tracked files (some with names git
// quotes), an intent-to-add file (an extended flag), ignored and untracked
// files, in a subdirectory of the work tree as well.
func indexRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	testrepo.GitRun(t, dir, "init", "-q")
	for _, p := range []string{"a.py", "sub/b.py", "sub/deep/c.py", "sub/x y.py", "sub/café.py", "sub/deep/d.py"} {
		testrepo.WriteFile(t, dir, p, "x = 1\n")
	}
	testrepo.WriteFile(t, dir, ".gitignore", "*.gen.py\nbuild/\n")
	testrepo.GitRun(t, dir, "add", ".")
	testrepo.GitRun(t, dir, "commit", "-qm", "base")
	testrepo.WriteFile(t, dir, "sub/added.py", "y = 2\n")
	testrepo.GitRun(t, dir, "add", "-N", "sub/added.py")
	testrepo.WriteFile(t, dir, "sub/new.py", "z = 3\n")
	testrepo.WriteFile(t, dir, "sub/deep/new 2.py", "z = 3\n")
	testrepo.WriteFile(t, dir, "sub/skip.gen.py", "z = 3\n")
	testrepo.WriteFile(t, dir, "build/out.py", "z = 3\n")
	return dir
}

// TestUntrackedFiles: untrackedFiles gives what git ls-files --others
// --exclude-standard gives of the files listed, from the top of the work
// tree, from a subdirectory, from a linked work tree, with a split index,
// and with nothing untracked.
func TestUntrackedFiles(t *testing.T) {
	dir := indexRepo(t)
	check := func(name, root string) {
		t.Helper()
		if _, _, err := findGitDir(root); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		listed, err := (&source.DiskSource{Dir: root}).List()
		if err != nil {
			t.Fatal(err)
		}
		got, err := untrackedFiles(root, listed)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var want []string
		if out := testrepo.GitRun(t, root, "ls-files", "--others", "--exclude-standard", "-z"); out != "" {
			want = strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
		}
		slices.Sort(got)
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-git +got):\n%s", name, diff)
		}
		if len(want) == 0 {
			t.Errorf("%s: no untracked file: the case tests little", name)
		}
	}
	if _, prefix, err := findGitDir(filepath.Join(dir, "sub", "deep")); err != nil || prefix != "sub/deep/" {
		t.Errorf("findGitDir(sub/deep): prefix %q, %v", prefix, err)
	}
	check("top", dir)
	check("subdirectory", filepath.Join(dir, "sub"))
	wt := filepath.Join(t.TempDir(), "wt")
	testrepo.GitRun(t, dir, "worktree", "add", "-q", "--detach", wt)
	testrepo.WriteFile(t, wt, "sub/wt_new.py", "w = 1\n")
	testrepo.WriteFile(t, wt, "sub/wt.gen.py", "w = 1\n")
	check("linked work tree", wt)
	testrepo.GitRun(t, dir, "update-index", "--split-index")
	check("split index", dir)

	// Only files the check lists are candidates: git's others beyond them
	// (a hidden directory, node_modules) are not the change's.
	if got, err := untrackedFiles(dir, []string{"a.py", "sub/new.py"}); err != nil || !slices.Equal(got, []string{"sub/new.py"}) {
		t.Errorf("listed a.py, sub/new.py: %v, %v; want [sub/new.py]", got, err)
	}

	// Nothing untracked.
	clean := t.TempDir()
	testrepo.GitRun(t, clean, "init", "-q")
	testrepo.WriteFile(t, clean, "a.py", "x = 1\n")
	testrepo.GitRun(t, clean, "add", ".")
	if got, err := untrackedFiles(clean, []string{"a.py"}); err != nil || len(got) != 0 {
		t.Errorf("clean: %v, %v; want none", got, err)
	}
}

// TestGitNotFound: with no git in PATH, change mode says so (not "not in
// a git repository").
func TestGitNotFound(t *testing.T) {
	dir := indexRepo(t)
	t.Setenv("PATH", t.TempDir())
	for _, staged := range []bool{false, true} {
		_, err := FromGit(dir, "HEAD", staged)
		if !errors.Is(err, source.ErrGitNotFound) || strings.Contains(err.Error(), "not in a git repository") {
			t.Errorf("staged=%v: err = %v, want ErrGitNotFound", staged, err)
		}
	}
	if _, _, _, err := gitRevsSeparately(dir, "HEAD"); !errors.Is(err, source.ErrGitNotFound) {
		t.Errorf("gitRevsSeparately: err = %v, want ErrGitNotFound", err)
	}
	g := &source.GitSource{Dir: dir, Rev: "HEAD"}
	if _, err := g.List(); !errors.Is(err, source.ErrGitNotFound) {
		t.Errorf("GitSource: err = %v, want ErrGitNotFound", err)
	}
}

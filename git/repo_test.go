package git

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/source"
)

// TestUntrackedFiles: Untracked gives what git ls-files --others
// --exclude-standard gives of the files listed, from the top of the work
// tree, from a subdirectory, from a linked work tree, with a split index,
// and with nothing untracked.
func TestUntrackedFiles(t *testing.T) {
	dir := testrepo.IndexRepo(t)
	check := func(name, root string) {
		t.Helper()
		if _, _, err := findGitDir(root); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		listed, err := (&source.DiskSource{Dir: root}).List()
		if err != nil {
			t.Fatal(err)
		}
		got, err := Untracked(root, listed)
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
	if got, err := Untracked(dir, []string{"a.py", "sub/new.py"}); err != nil || !slices.Equal(got, []string{"sub/new.py"}) {
		t.Errorf("listed a.py, sub/new.py: %v, %v; want [sub/new.py]", got, err)
	}

	// Nothing untracked.
	clean := t.TempDir()
	testrepo.GitRun(t, clean, "init", "-q")
	testrepo.WriteFile(t, clean, "a.py", "x = 1\n")
	testrepo.GitRun(t, clean, "add", ".")
	if got, err := Untracked(clean, []string{"a.py"}); err != nil || len(got) != 0 {
		t.Errorf("clean: %v, %v; want none", got, err)
	}
}

// TestGitNotFound: with no git in PATH, every git use says so (not "not in
// a git repository").
func TestGitNotFound(t *testing.T) {
	dir := testrepo.IndexRepo(t)
	t.Setenv("PATH", t.TempDir())
	if _, _, _, err := Revs(dir, "HEAD"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Revs: err = %v, want ErrNotFound", err)
	}
	g := &Source{Dir: dir, Rev: "HEAD"}
	if _, err := g.List(); !errors.Is(err, ErrNotFound) {
		t.Errorf("Source: err = %v, want ErrNotFound", err)
	}
	if _, err := g.ReadFile("a.py"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Source.ReadFile (git cat-file): err = %v, want ErrNotFound", err)
	}
	if _, err := Untracked(dir, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("Untracked: err = %v, want ErrNotFound", err)
	}
}

// TestEnvLeavesDiscoveryToGit: with a GIT_* variable that moves the
// repository, its index or its work tree, findGitDir does not guess (and
// CheckIndexFile leaves the index to git) instead of looking at a .git
// that is not the one git uses.
func TestEnvLeavesDiscoveryToGit(t *testing.T) {
	dir := testrepo.IndexRepo(t)
	if _, _, err := findGitDir(dir); err != nil {
		t.Fatalf("no variable: %v", err)
	}
	for _, v := range gitEnvVars {
		t.Run(v, func(t *testing.T) {
			t.Setenv(v, filepath.Join(t.TempDir(), "elsewhere"))
			if _, _, err := findGitDir(dir); !errors.Is(err, errGitDirUnknown) {
				t.Errorf("%s set: err = %v, want errGitDirUnknown", v, err)
			}
			if err := CheckIndexFile(dir); err != nil {
				t.Errorf("%s set: CheckIndexFile: %v, want nil (git decides)", v, err)
			}
		})
	}
}

// TestRevisionsAfterEndOfOptions: a base that looks like an option reaches
// git after --end-of-options (Revs, RevExists) or is refused
// (CheckRevision, Source): git reads it as a revision, fails, and writes
// nothing.
func TestRevisionsAfterEndOfOptions(t *testing.T) {
	dir := testrepo.IndexRepo(t)
	out := filepath.Join(dir, "written.txt")
	for _, rev := range []string{"--output=" + out, "-ooops", "--exec-path=" + out} {
		if _, _, _, err := Revs(dir, rev); err == nil || !strings.Contains(err.Error(), "no merge base") {
			t.Errorf("Revs(%q): err %v, want no merge base", rev, err)
		}
		if RevExists(dir, rev) {
			t.Errorf("RevExists(%q) = true", rev)
		}
		if err := CheckRevision(rev); err == nil {
			t.Errorf("CheckRevision(%q): nil", rev)
		}
		if _, err := (&Source{Dir: dir, Rev: rev}).List(); err == nil || !strings.Contains(err.Error(), "invalid revision") {
			t.Errorf("Source{Rev: %q}.List: err %v, want an invalid revision", rev, err)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s exists (%v): a revision was read as an option", out, err)
	}
	if !RevExists(dir, "HEAD") {
		t.Error("RevExists(HEAD) = false")
	}
}

// TestRepositoryQueries: the named queries the other packages use (Head,
// InRepository, MergeBase, Branch, OriginHead, OriginURL, StagedNames)
// answer what git says, and MergeBase passes its base after
// --end-of-options.
func TestRepositoryQueries(t *testing.T) {
	dir := t.TempDir()
	testrepo.GitRun(t, dir, "init", "-q", "-b", "trunk")
	if !InRepository(dir) {
		t.Error("InRepository(new repository) = false")
	}
	// A plain directory is outside any repository unless TMPDIR is in one.
	plain := t.TempDir()
	if _, err := TopLevel(plain); InRepository(plain) != (err == nil) {
		t.Errorf("InRepository(plain directory) = %v, TopLevel's error %v", InRepository(plain), err)
	}
	if _, err := Head(dir); err == nil {
		t.Error("Head before the first commit: no error")
	}
	testrepo.WriteFile(t, dir, "a.py", "x = 1\n")
	testrepo.GitRun(t, dir, "add", ".")
	testrepo.GitRun(t, dir, "commit", "-q", "-m", "one")
	head := strings.TrimSpace(testrepo.GitRun(t, dir, "rev-parse", "HEAD"))
	if got, err := Head(dir); err != nil || got != head {
		t.Errorf("Head = %q, %v; want %q", got, err, head)
	}
	if got, err := MergeBase(dir, "HEAD"); err != nil || got != head {
		t.Errorf("MergeBase(HEAD) = %q, %v; want %q", got, err, head)
	}
	out := filepath.Join(dir, "written.txt")
	if _, err := MergeBase(dir, "--output="+out); err == nil {
		t.Error("MergeBase(--output=...): no error")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s exists (%v): a base was read as an option", out, err)
	}
	if got, err := Branch(dir); err != nil || got != "trunk" {
		t.Errorf("Branch = %q, %v; want trunk", got, err)
	}
	if _, err := OriginHead(dir); err == nil {
		t.Error("OriginHead without origin: no error")
	}
	testrepo.GitRun(t, dir, "remote", "add", "origin", "https://example.com/o/r.git")
	testrepo.GitRun(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
	testrepo.GitRun(t, dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	if got, err := OriginHead(dir); err != nil || got != "origin/main" {
		t.Errorf("OriginHead = %q, %v; want origin/main", got, err)
	}
	if got, err := OriginURL(dir); err != nil || got != "https://example.com/o/r.git" {
		t.Errorf("OriginURL = %q, %v", got, err)
	}
	if got, err := StagedNames(dir); err != nil || len(got) != 0 {
		t.Errorf("StagedNames, nothing staged = %q, %v; want none", got, err)
	}
	// A name with a leading space is a name like any other (NUL-separated).
	testrepo.WriteFile(t, dir, " lead.py", "y = 1\n")
	testrepo.WriteFile(t, dir, "sub/b.py", "y = 1\n")
	testrepo.AppendFile(t, dir, "a.py", "z = 2\n")
	testrepo.GitRun(t, dir, "add", ".")
	if got, err := StagedNames(filepath.Join(dir, "sub")); err != nil || !slices.Equal(got, []string{" lead.py", "a.py", "sub/b.py"}) {
		t.Errorf("StagedNames = %q, %v; want [\" lead.py\" a.py sub/b.py]", got, err)
	}
	testrepo.GitRun(t, dir, "checkout", "-q", "--detach")
	if _, err := Branch(dir); err == nil {
		t.Error("Branch on a detached HEAD: no error")
	}
}

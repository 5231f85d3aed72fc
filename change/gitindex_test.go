package change

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

// TestReadIndexPaths: the paths read from the index are git ls-files',
// for index versions 2, 3 (extended flags) and 4 (compressed paths).
func TestReadIndexPaths(t *testing.T) {
	dir := indexRepo(t)
	want := strings.Split(strings.TrimSuffix(testrepo.GitRun(t, dir, "ls-files", "-z"), "\x00"), "\x00")
	for _, version := range []string{"2", "3", "4"} {
		testrepo.GitRun(t, dir, "update-index", "--index-version", version)
		got, err := readIndexPaths(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatalf("version %s: %v", version, err)
		}
		var paths []string
		for p := range got {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		if diff := cmp.Diff(want, paths); diff != "" {
			t.Errorf("version %s (-git +read):\n%s", version, diff)
		}
	}
	// A split index keeps entries in another file: not read here.
	testrepo.GitRun(t, dir, "update-index", "--split-index")
	if _, err := readIndexPaths(filepath.Join(dir, ".git", "index")); !errors.Is(err, errIndexUnsupported) {
		t.Errorf("split index: err = %v, want errIndexUnsupported", err)
	}
}

// TestUntrackedFiles: untrackedFiles gives what git ls-files --others
// --exclude-standard gives of the files listed, from the top of the work
// tree, from a subdirectory, from a linked work tree, and with an index it
// does not read (split), and with no candidate at all.
func TestUntrackedFiles(t *testing.T) {
	dir := indexRepo(t)
	check := func(name, root string) {
		t.Helper()
		if gitDir, _, err := findGitDir(root); err != nil {
			t.Errorf("%s: %v", name, err)
		} else if _, err := readIndexPaths(filepath.Join(gitDir, "index")); (err == nil) != (name != "split index") {
			t.Errorf("%s: reading the index: %v", name, err)
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

	// Nothing untracked, nothing to ask git: the index settles it.
	clean := t.TempDir()
	testrepo.GitRun(t, clean, "init", "-q")
	testrepo.WriteFile(t, clean, "a.py", "x = 1\n")
	testrepo.GitRun(t, clean, "add", ".")
	if got, err := untrackedFiles(clean, []string{"a.py"}); err != nil || len(got) != 0 {
		t.Errorf("clean: %v, %v; want none", got, err)
	}
}

// TestReadIndexPathsCorrupt: counts and sizes the index states beyond
// what the file holds are refused before anything is sized by them (a
// 72-byte index claiming 2^32-1 entries once asked for a map of that
// size), and an index that is not a regular file is never opened.
func TestReadIndexPathsCorrupt(t *testing.T) {
	dir := t.TempDir()
	index := func(count uint32, rest []byte) string {
		t.Helper()
		data := []byte("DIRC\x00\x00\x00\x02")
		data = binary.BigEndian.AppendUint32(data, count)
		data = append(data, rest...)
		data = append(data, make([]byte, 20)...) // the checksum
		p := filepath.Join(dir, fmt.Sprintf("index%d", count))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for name, p := range map[string]string{
		"huge count":     index(1<<21, make([]byte, 40)), // 0xFFFFFFFF once asked for 24 GB
		"count too high": index(2, make([]byte, 63)),
		// No entry, then an extension claiming 4 GB.
		"extension size": index(0, []byte("TREE\xff\xff\xff\xf0abcd")),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := readIndexPaths(p)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, errIndexUnsupported) {
			t.Errorf("%s: err = %v, want errIndexUnsupported", name, err)
		}
		if grown := after.TotalAlloc - before.TotalAlloc; grown > 1<<20 {
			t.Errorf("%s: allocated %d bytes reading a tiny index", name, grown)
		}
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

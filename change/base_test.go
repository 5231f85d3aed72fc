package change

import (
	"fmt"
	"maps"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/source"
)

// TestRebuildOld: for many random edits of files (lines added, removed,
// changed; with and without a last line end; lines that look like diff
// headers), the old version rebuilt from the new one and git diff's
// removed lines is git's blob, byte for byte (RebuildOld checks the blob
// id), and the base source gives it.
func TestRebuildOld(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	testrepo.GitRun(t, dir, "init", "-q")
	rng := rand.New(rand.NewSource(1))
	pool := []string{"x = 1", "--- a/x.py", "+++ b/x.py", "@@ -1 +1 @@", "diff --git a/x b/x",
		"\\ No newline at end of file", "", "    pass", "def f():", "-", "+", " ", "y\r"}
	randomText := func() string {
		var b strings.Builder
		n := rng.Intn(12)
		for i := 0; i < n; i++ {
			b.WriteString(pool[rng.Intn(len(pool))])
			if i < n-1 || rng.Intn(3) > 0 {
				b.WriteByte('\n')
			}
		}
		return b.String()
	}
	edit := func(s string) string {
		lines := strings.SplitAfter(s, "\n")
		for k := rng.Intn(4); k >= 0; k-- {
			i := rng.Intn(len(lines) + 1)
			switch rng.Intn(3) {
			case 0: // insert
				lines = append(lines[:i], append([]string{pool[rng.Intn(len(pool))] + "\n"}, lines[i:]...)...)
			case 1: // delete
				if i < len(lines) {
					lines = append(lines[:i], lines[i+1:]...)
				}
			case 2: // the last line end
				if len(lines) > 0 {
					last := lines[len(lines)-1]
					if strings.HasSuffix(last, "\n") {
						lines[len(lines)-1] = strings.TrimSuffix(last, "\n")
					} else {
						lines[len(lines)-1] = last + "\n"
					}
				}
			}
		}
		return strings.Join(lines, "")
	}
	const files = 60
	old := map[string]string{}
	for i := 0; i < files; i++ {
		p := fmt.Sprintf("tests/ops/test_f%02d.py", i)
		switch i % 7 { // names git quotes, or ends with a tab
		case 3:
			p = fmt.Sprintf("tests/ops/test_f %02d.py", i)
		case 4:
			p = fmt.Sprintf("tests/ops/test_café%02d.py", i)
		}
		old[p] = randomText()
		testrepo.WriteFile(t, dir, p, old[p])
	}
	testrepo.GitRun(t, dir, "add", ".")
	testrepo.GitRun(t, dir, "commit", "-qm", "base")
	deleted := map[string]bool{}
	for i, p := range slices.Sorted(maps.Keys(old)) {
		if i%10 == 9 {
			if err := os.Remove(filepath.Join(dir, p)); err != nil {
				t.Fatal(err)
			}
			deleted[p] = true
			continue
		}
		testrepo.WriteFile(t, dir, p, edit(old[p]))
	}
	testrepo.WriteFile(t, dir, "tests/ops/test_new.py", "z = 3\n")
	ch, hl := workingChange(t, dir)
	base := newBaseSource(dir, hl, ch)
	paths, _ := base.List()
	if diff := cmp.Diff(slices.Sorted(maps.Keys(old)), paths); diff != "" {
		t.Errorf("base listing (-want +got):\n%s", diff)
	}
	rebuilt := 0
	for p, text := range old {
		d := ch.diffs[p]
		if d != nil {
			var newData []byte
			if !d.Deleted {
				newData, _ = hl.Content(p)
			}
			if _, ok := d.RebuildOld(newData); !ok {
				t.Errorf("%s: not rebuilt from the diff", p)
			}
			rebuilt++
		}
		got, err := base.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != text {
			t.Errorf("%s: base content %q, want %q", p, got, text)
		}
		if deleted[p] != ch.Deleted[p] {
			t.Errorf("%s: deleted = %v, want %v", p, ch.Deleted[p], deleted[p])
		}
	}
	if rebuilt < files/2 {
		t.Errorf("only %d files changed: the test tests little", rebuilt)
	}
	if !ch.Whole["tests/ops/test_new.py"] {
		t.Error("test_new.py: not a new file of the change")
	}
}

// TestBaseSourceFallsBackToGit: a file git converts (CRLF in the working
// tree, LF in the blob under core.autocrlf) is not rebuilt from the diff,
// whose lines are converted; the base source reads its blob from git.
func TestBaseSourceFallsBackToGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	testrepo.GitRun(t, dir, "init", "-q")
	testrepo.GitRun(t, dir, "config", "core.autocrlf", "true")
	testrepo.WriteFile(t, dir, "tests/ops/test_a.py", "x = 1\r\ny = 2\r\n")
	testrepo.GitRun(t, dir, "add", ".")
	testrepo.GitRun(t, dir, "commit", "-qm", "base")
	testrepo.WriteFile(t, dir, "tests/ops/test_a.py", "x = 1\r\ny = 3\r\n")
	ch, hl := workingChange(t, dir)
	d := ch.diffs["tests/ops/test_a.py"]
	if d == nil {
		t.Fatal("test_a.py: not in the change")
	}
	newData, _ := hl.Content("tests/ops/test_a.py")
	if _, ok := d.RebuildOld(newData); ok {
		t.Error("rebuilt from converted lines: the blob id check let it through")
	}
	got, err := newBaseSource(dir, hl, ch).ReadFile("tests/ops/test_a.py")
	if err != nil {
		t.Fatal(err)
	}
	if want := "x = 1\ny = 2\n"; string(got) != want {
		t.Errorf("base content %q, want the blob's %q", got, want)
	}
}

// workingChange returns the change of dir's working tree against HEAD and
// the working tree's files, read.
func workingChange(t *testing.T, dir string) (*Change, *load.Loader) {
	t.Helper()
	ch, err := FromGit(dir, "HEAD", false)
	if err != nil {
		t.Fatal(err)
	}
	cat := testrepo.Catalog(t)
	hl, err := load.NewLoader(&source.DiskSource{Dir: dir}, config.NewSetup(cat, nil))
	if err != nil {
		t.Fatal(err)
	}
	return ch, hl
}

// TestRevisionCannotBeAnOption: a --diff value or a git.Source revision that
// git would read as an option ("--output=FILE" truncates FILE) is refused,
// and the file it names is left as it was.
func TestRevisionCannotBeAnOption(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	testrepo.GitRun(t, dir, "init", "-q")
	testrepo.WriteFile(t, dir, "src/tilegym/ops/ops.py", "x = 1\n")
	testrepo.GitRun(t, dir, "add", ".")
	testrepo.GitRun(t, dir, "commit", "-qm", "base")
	for _, rev := range []string{"--output=src/tilegym/ops/ops.py", "-ooops", "--output=" + filepath.Join(dir, "src/tilegym/ops/ops.py")} {
		if _, err := FromGit(dir, rev, false); err == nil || !strings.Contains(err.Error(), "invalid revision") {
			t.Errorf("FromGit(%q): err %v, want an invalid revision", rev, err)
		}
		if _, err := FromGit(dir, rev, true); err == nil {
			t.Errorf("FromGit(%q, staged): no error", rev)
		}
		if _, err := (&git.Source{Dir: dir, Rev: rev}).List(); err == nil || !strings.Contains(err.Error(), "invalid revision") {
			t.Errorf("git.Source{Rev: %q}.List: err %v, want an invalid revision", rev, err)
		}
	}
	if got, err := os.ReadFile(filepath.Join(dir, "src/tilegym/ops/ops.py")); err != nil || string(got) != "x = 1\n" {
		t.Errorf("ops.py now %q (%v), want it untouched", got, err)
	}
	if _, err := FromGit(dir, "HEAD", false); err != nil {
		t.Errorf("FromGit(HEAD): %v", err)
	}
}

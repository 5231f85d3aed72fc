package checker

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// changeScenario edits a repository (committed at its base) into a change.
type changeScenario struct {
	name   string
	edit   func(t *testing.T, dir string)
	staged bool
	byOps  bool // the ops of the change are checked alone (else the whole snapshots)
}

func appendFile(t testing.TB, dir, rel, text string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, rel, string(data)+text)
}

func replaceInFile(t testing.TB, dir, rel, old, new string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), old, new, 1)
	if s == string(data) {
		t.Fatalf("%s: %q not found", rel, old)
	}
	writeFile(t, dir, rel, s)
}

// runChangeScenarios checks, for each scenario, that the change mode's
// report when only the ops of the change are checked equals its report
// when the whole snapshots are.
func runChangeScenarios(t *testing.T, src string, scenarios []changeScenario) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	copyDir(t, src, dir)
	gitRun(t, dir, "init", "-q")
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-qm", "base")
	cat := catalog(t)
	layout := BuildLayout(cat.Layout, nil)
	for _, sc := range scenarios {
		gitRun(t, dir, "reset", "-q", "--hard", "HEAD")
		gitRun(t, dir, "clean", "-qfd")
		sc.edit(t, dir)
		ch, err := GitChange(dir, "HEAD", sc.staged)
		if err != nil {
			t.Fatal(err)
		}
		whole, _, err := checkChange(ch, cat, nil, layout, Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		got, byOps, err := checkChange(ch, cat, nil, layout, Options{}, true)
		if err != nil {
			t.Fatal(err)
		}
		if byOps != sc.byOps {
			t.Errorf("%s: checked the ops of the change alone = %v, want %v", sc.name, byOps, sc.byOps)
		}
		var wb, gb bytes.Buffer
		if err := WriteJSON(&wb, whole, true); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&gb, got, true); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(wb.Bytes(), gb.Bytes()) {
			t.Errorf("%s: the report differs from whole checks':\n got: %s\nwant: %s", sc.name, gb.String(), wb.String())
		}
		// The command's path: git runs while the working tree is read.
		viaGit, err := CheckGitChange(dir, "HEAD", sc.staged, cat, nil, layout, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var vb bytes.Buffer
		if err := WriteJSON(&vb, viaGit, true); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(wb.Bytes(), vb.Bytes()) {
			t.Errorf("%s: CheckGitChange's report differs from whole checks':\n got: %s\nwant: %s", sc.name, vb.String(), wb.String())
		}
		if len(whole.Ops) == 0 && sc.byOps && sc.name != "readme" && sc.name != "drop registration" {
			t.Errorf("%s: no op touched; the scenario tests nothing", sc.name)
		}
	}
}

// TestChangeByOps: change mode on fixtures/good.
func TestChangeByOps(t *testing.T) {
	const softmax = "src/tilegym/ops/cutile/softmax.py"
	runChangeScenarios(t, "../fixtures/good", []changeScenario{
		{name: "edit module", byOps: true, edit: func(t *testing.T, dir string) { appendFile(t, dir, softmax, "\n# edit\n") }},
		{name: "drop registration", byOps: true, edit: func(t *testing.T, dir string) {
			replaceInFile(t, dir, softmax, `@register_impl("softmax", backend="cutile")`, "")
		}},
		{name: "edit test", byOps: true, edit: func(t *testing.T, dir string) { appendFile(t, dir, "tests/ops/test_softmax.py", "\n# edit\n") }},
		{name: "delete benchmark", byOps: true, edit: func(t *testing.T, dir string) { gitRun(t, dir, "rm", "-q", "tests/benchmark/bench_relu.py") }},
		{name: "new test", byOps: true, edit: func(t *testing.T, dir string) {
			writeFile(t, dir, "tests/ops/test_more_softmax.py", "from tilegym.ops import softmax\n\n\ndef test_x():\n    softmax(1)\n")
		}},
		{name: "rename module", byOps: true, edit: func(t *testing.T, dir string) {
			gitRun(t, dir, "mv", softmax, "src/tilegym/ops/cutile/softmax2.py")
		}},
		{name: "staged", staged: true, byOps: true, edit: func(t *testing.T, dir string) {
			appendFile(t, dir, "tests/ops/test_silu_and_mul.py", "\n# edit\n")
			gitRun(t, dir, "add", "tests/ops/test_silu_and_mul.py")
			appendFile(t, dir, softmax, "\n# unstaged\n")
		}},
		{name: "readme", byOps: true, edit: func(t *testing.T, dir string) { writeFile(t, dir, "README.md", "# changed\n") }},
		{name: "broken test", byOps: false, edit: func(t *testing.T, dir string) { writeFile(t, dir, "tests/ops/test_softmax.py", "def (:\n") }},
		{name: "dispatch file", byOps: false, edit: func(t *testing.T, dir string) { appendFile(t, dir, "src/tilegym/ops/ops.py", "\n# edit\n") }},
		{name: "cutile init", byOps: false, edit: func(t *testing.T, dir string) { appendFile(t, dir, "src/tilegym/ops/cutile/__init__.py", "\n# edit\n") }},
	})
}

// TestChangeByOpsTileGym: change mode on a copy of the TileGym tree, when
// present ($TILEGYM_LINT_BENCH_TREE, default /work/tilegym).
func TestChangeByOpsTileGym(t *testing.T) {
	tree := os.Getenv("TILEGYM_LINT_BENCH_TREE")
	if tree == "" {
		tree = "/work/tilegym"
	}
	if fi, err := os.Stat(tree); err != nil || !fi.IsDir() {
		t.Skipf("no TileGym tree at %s", tree)
	}
	if testing.Short() || raceEnabled {
		t.Skip("short, or under the race detector (the fixtures exercise the same concurrency)")
	}
	runChangeScenarios(t, tree, []changeScenario{
		{name: "edit module and test", byOps: true, edit: func(t *testing.T, dir string) {
			appendFile(t, dir, "src/tilegym/ops/cutile/softmax.py", "\n# edit\n")
			appendFile(t, dir, "tests/ops/test_softmax.py", "\n# edit\n")
		}},
		{name: "drop registration", byOps: true, edit: func(t *testing.T, dir string) {
			replaceInFile(t, dir, "src/tilegym/ops/cutile/rms_norm.py", "@register_impl(", "@_no_register(")
		}},
		{name: "delete benchmark", byOps: true, edit: func(t *testing.T, dir string) { gitRun(t, dir, "rm", "-q", "tests/benchmark/bench_softmax.py") }},
		{name: "edit suite test", byOps: true, edit: func(t *testing.T, dir string) { appendFile(t, dir, "tests/suites/liger/test_softmax.py", "\n# edit\n") }},
		{name: "dispatch and init", byOps: false, edit: func(t *testing.T, dir string) {
			appendFile(t, dir, "src/tilegym/ops/ops.py", "\n# edit\n")
			appendFile(t, dir, "src/tilegym/ops/cutile/__init__.py", "\n# edit\n")
		}},
	})
}

func TestGitBlobID(t *testing.T) {
	// git hash-object of "hello\n", in SHA-1 and SHA-256 repositories.
	if got := gitBlobID([]byte("hello\n"), 40); got != "ce013625030ba8dba906f756967f9e9ca394464a" {
		t.Errorf("SHA-1 blob id = %s", got)
	}
	if got := gitBlobID([]byte("hello\n"), 64); got != "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4" {
		t.Errorf("SHA-256 blob id = %s", got)
	}
}

package fix

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/source"
)

func builtinSetup(t *testing.T) *config.Setup {
	t.Helper()
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	return config.NewSetup(cat, nil)
}

// Preview copies the Python files the check reads, not the whole tree
// (443 s on a large tree of data files), and writes nothing to the tree.
func TestPreviewCopiesPythonOnly(t *testing.T) {
	dir := fixtureset.Materialize(t, "tg104-stub-kwargs")
	if err := os.WriteFile(filepath.Join(dir, "weights.bin"), make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	// A Python file no scope of the layout reads.
	if err := os.MkdirAll(filepath.Join(dir, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tools", "gen.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := fixtureset.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var copied []string
	previewCopied = func(p string) { copied = append(copied, p) }
	defer func() { previewCopied = func(string) {} }()
	var diff bytes.Buffer
	o, err := Preview(dir, builtinSetup(t), checker.Options{}, &diff)
	if err != nil {
		t.Fatal(err)
	}
	if o.Total() == 0 || !strings.Contains(diff.String(), "+    **kwargs: Any,") {
		t.Errorf("Preview fixed %d findings, diff:\n%s", o.Total(), diff.String())
	}
	if len(copied) == 0 {
		t.Fatal("nothing copied")
	}
	for _, p := range copied {
		if !strings.HasSuffix(p, ".py") || p == "tools/gen.py" {
			t.Errorf("copied %s, which the check does not read", p)
		}
	}
	after, err := fixtureset.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for p, data := range before {
		if !bytes.Equal(after[p], data) {
			t.Errorf("Preview changed %s", p)
		}
	}
}

// Run fixes, then a second Run finds nothing to fix; the summary says so.
func TestRunTwice(t *testing.T) {
	dir := fixtureset.Materialize(t, "tg104-stub-kwargs")
	s := builtinSetup(t)
	o, err := Run(dir, s, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	o.WriteSummary(&b, false)
	if o.Total() == 0 || !strings.Contains(b.String(), "tilegym-lint --fix: fixed ") || !strings.Contains(b.String(), "TG104") {
		t.Errorf("first Run: %s", b.String())
	}
	o, err = Run(dir, s, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	o.WriteSummary(&b, false)
	if o.Total() != 0 || b.String() != "tilegym-lint --fix: nothing to fix\n" {
		t.Errorf("second Run: %d fixed: %s", o.Total(), b.String())
	}
}

// A file changed between the check's read and the fix's (an editor saving
// it, another process) is not edited at the positions the check computed:
// its fixes are not applied, and the summary says why.
func TestRunRefusesFileChangedSinceCheck(t *testing.T) {
	dir := fixtureset.Materialize(t, "tg104-stub-kwargs")
	const file = "src/tilegym/ops/ops.py"
	orig, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	// Two lines more at the top: every position below moves.
	changed := "# edited meanwhile\n# by someone else\n" + string(orig)
	calls := 0
	checked = func(root string) {
		calls++
		if calls == 1 {
			if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(file)), []byte(changed), 0o644); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() { checked = func(string) {} }()
	o, err := Run(dir, builtinSetup(t), checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	o.WriteSummary(&b, false)
	if !strings.Contains(b.String(), "not applied: "+file) || !strings.Contains(b.String(), "changed since the check read it") {
		t.Errorf("the summary does not say the file changed:\n%s", b.String())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file))); string(got) != changed {
		t.Errorf("%s was edited at stale positions:\n%s", file, UnifiedDiff(file, []byte(changed), got))
	}
}

// Once the copy's directory is removed (by a signal, while the copy goes
// on in another goroutine), the copy fails rather than create it again and
// leave it behind.
func TestPreviewCopyNeverRecreatesItsDirectory(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "removed")
	err := copyForPreview(&source.DiskSource{Dir: "../fixtures/good"}, []string{"src/tilegym/ops/ops.py"}, gone)
	if err == nil {
		t.Error("the copy into a removed directory succeeded")
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("the removed directory is back: %v", err)
	}
}

// Process with dryRun ends the run with the diff then the summary on out,
// status 1 while there is something to fix, 0 once nothing is; without,
// it fixes, says so on notes and lets the check go on.
func TestProcess(t *testing.T) {
	dir := fixtureset.Materialize(t, "tg104-stub-kwargs")
	s := builtinSetup(t)
	var out, notes bytes.Buffer
	code, done, err := Process(dir, s, checker.Options{}, true, &out, &notes)
	if err != nil {
		t.Fatal(err)
	}
	diff, summary, _ := strings.Cut(out.String(), "tilegym-lint --fix: would fix 1 finding")
	if code != 1 || !done || notes.Len() != 0 || !strings.Contains(diff, "+    **kwargs: Any,") || !strings.Contains(summary, "TG104") {
		t.Errorf("dry run: code %d, done %v, out:\n%s\nnotes:\n%s", code, done, out.String(), notes.String())
	}
	out.Reset()
	code, done, err = Process(dir, s, checker.Options{}, false, &out, &notes)
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || done || out.Len() != 0 || !strings.HasPrefix(notes.String(), "tilegym-lint --fix: fixed 1 finding") {
		t.Errorf("fix: code %d, done %v, out:\n%s\nnotes:\n%s", code, done, out.String(), notes.String())
	}
	out.Reset()
	code, done, err = Process(dir, s, checker.Options{}, true, &out, &notes)
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || !done || out.String() != "tilegym-lint --fix: nothing to fix\n" {
		t.Errorf("dry run after the fix: code %d, done %v, out:\n%s", code, done, out.String())
	}
}

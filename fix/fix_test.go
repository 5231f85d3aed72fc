package fix

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/python/ast"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func read(t *testing.T, root, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func pos(line, col int) ast.Pos { return ast.Pos{Line: line, Col: col} }

func edit(file string, l1, c1, l2, c2 int, text string) analysis.TextEdit {
	return analysis.TextEdit{File: file, Start: pos(l1, c1), End: pos(l2, c2), NewText: text}
}

func one(e ...analysis.TextEdit) analysis.SuggestedFix {
	return analysis.SuggestedFix{Message: "m", Edits: e}
}

func mustApply(t *testing.T, root string, fixes []analysis.SuggestedFix, opt Options) Result {
	t.Helper()
	res, err := Apply(root, fixes, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestApplyReplaceInsertDelete(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "x = 1\ny = 2\nz = 3\n"})
	res := mustApply(t, root, []analysis.SuggestedFix{
		one(edit("a.py", 1, 4, 1, 5, "10")),      // replace
		one(edit("a.py", 2, 0, 2, 0, "w = 0\n")), // insert
		one(edit("a.py", 3, 0, 4, 0, "")),        // delete a whole line
	}, Options{})
	if got, want := read(t, root, "a.py"), "x = 10\nw = 0\ny = 2\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if len(res.Applied) != 3 || len(res.Deferred)+len(res.Refused) != 0 {
		t.Fatalf("applied %d deferred %v refused %v", len(res.Applied), res.Deferred, res.Refused)
	}
	if len(res.Files) != 1 || !res.Files[0].Written || !strings.Contains(res.Files[0].Diff, "+w = 0\n") {
		t.Fatalf("files: %+v", res.Files)
	}
}

func TestPreviewWritesNothing(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "x = 1\n"})
	before, _ := os.Stat(filepath.Join(root, "a.py"))
	res := mustApply(t, root, []analysis.SuggestedFix{one(edit("a.py", 1, 4, 1, 5, "2"))}, Options{Preview: true})
	if got := read(t, root, "a.py"); got != "x = 1\n" {
		t.Fatalf("preview wrote: %q", got)
	}
	after, _ := os.Stat(filepath.Join(root, "a.py"))
	if !after.ModTime().Equal(before.ModTime()) {
		t.Fatal("preview touched the file")
	}
	want := "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
	if len(res.Files) != 1 || res.Files[0].Diff != want || res.Files[0].Written {
		t.Fatalf("files: %+v", res.Files)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Fatalf("preview left files: %v", entries)
	}
}

func TestModeKeptAndNoTempLeft(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "x = 1\n"})
	p := filepath.Join(root, "a.py")
	if err := os.Chmod(p, 0o751); err != nil {
		t.Fatal(err)
	}
	mustApply(t, root, []analysis.SuggestedFix{one(edit("a.py", 1, 0, 1, 0, "# c\n"))}, Options{})
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o751 {
		t.Fatalf("mode %v, want 0751", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

func TestCRLFAndBOM(t *testing.T) {
	src := "\xef\xbb\xbfx = 1\r\ny = 2\r\n"
	root := writeFiles(t, map[string]string{"a.py": src})
	// Line 1 col 0 is after the BOM; col 5 of line 1 is the end of its text
	// (before "\r\n"); the inserted "\n" becomes "\r\n".
	mustApply(t, root, []analysis.SuggestedFix{
		one(edit("a.py", 1, 0, 1, 1, "xx")),
		one(edit("a.py", 1, 5, 1, 5, "  # one\nz = 0")),
	}, Options{})
	want := "\xef\xbb\xbfxx = 1  # one\r\nz = 0\r\ny = 2\r\n"
	if got := read(t, root, "a.py"); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestCRIsNotAColumn(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "x = 1\r\n"})
	res := mustApply(t, root, []analysis.SuggestedFix{one(edit("a.py", 1, 6, 1, 6, "0"))}, Options{})
	if len(res.Refused) != 1 || !strings.Contains(res.Refused[0].Reason, "column 6 is outside line 1 (5 bytes)") {
		t.Fatalf("a column on the CR must be refused: %+v", res.Refused)
	}
	if got := read(t, root, "a.py"); got != "x = 1\r\n" {
		t.Fatalf("written: %q", got)
	}
}

func TestColumnsAreBytes(t *testing.T) {
	// "é" is two bytes, a tab one.
	root := writeFiles(t, map[string]string{"a.py": "s = 'é'\tz = 1\n"})
	// 'é' spans columns 4..8 ("'", 2 bytes, "'"); replace z (column 9).
	mustApply(t, root, []analysis.SuggestedFix{one(edit("a.py", 1, 9, 1, 10, "w"))}, Options{})
	if got := read(t, root, "a.py"); got != "s = 'é'\tw = 1\n" {
		t.Fatalf("got %q", got)
	}
	// A column inside "é" is refused.
	res := mustApply(t, root, []analysis.SuggestedFix{one(edit("a.py", 1, 6, 1, 6, "x"))}, Options{})
	if len(res.Refused) != 1 || !strings.Contains(res.Refused[0].Reason, "inside a UTF-8 character") {
		t.Fatalf("refused: %+v", res.Refused)
	}
}

func TestEndOfFileWithoutNewline(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "x = 1"})
	mustApply(t, root, []analysis.SuggestedFix{one(edit("a.py", 1, 5, 1, 5, "\ny = 2"))}, Options{})
	if got := read(t, root, "a.py"); got != "x = 1\ny = 2" {
		t.Fatalf("got %q", got)
	}
	res := mustApply(t, root, []analysis.SuggestedFix{one(edit("a.py", 3, 0, 3, 0, "z"))}, Options{})
	if len(res.Refused) != 1 || !strings.Contains(res.Refused[0].Reason, "line 3 is outside the file") {
		t.Fatalf("refused: %+v", res.Refused)
	}
}

func TestRefusesBrokenParse(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "def f():\n    return 1\n"})
	res := mustApply(t, root, []analysis.SuggestedFix{
		one(edit("a.py", 1, 7, 1, 8, "")),    // drops the ':'
		one(edit("a.py", 2, 11, 2, 12, "2")), // fine
	}, Options{})
	if len(res.Refused) != 1 || res.Refused[0].Index != 0 || !strings.Contains(res.Refused[0].Reason, "does not parse") {
		t.Fatalf("refused: %+v", res.Refused)
	}
	if got := read(t, root, "a.py"); got != "def f():\n    return 2\n" {
		t.Fatalf("got %q", got)
	}
}

func TestOverlapDeferredDuplicateOnce(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "a = 1\nb = 2\n"})
	dup := edit("a.py", 2, 0, 2, 0, "import os\n")
	res := mustApply(t, root, []analysis.SuggestedFix{
		one(edit("a.py", 1, 0, 1, 5, "a = 10")),
		one(edit("a.py", 1, 4, 1, 5, "11")), // overlaps fix 0
		one(dup),
		one(dup), // identical: applied once
		one(edit("a.py", 2, 0, 2, 0, "import sys\n")), // same insertion point, other text
	}, Options{})
	if got, want := read(t, root, "a.py"), "a = 10\nimport os\nb = 2\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	var deferred []int
	for _, s := range res.Deferred {
		deferred = append(deferred, s.Index)
	}
	if len(deferred) != 2 || deferred[0] != 1 || deferred[1] != 4 {
		t.Fatalf("deferred %v, want [1 4]", deferred)
	}
	if len(res.Applied) != 3 {
		t.Fatalf("applied %+v", res.Applied)
	}
}

func TestFixIsAllOrNothing(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "a = 1\n", "b.py": "b = 1\n"})
	res := mustApply(t, root, []analysis.SuggestedFix{one(
		edit("a.py", 1, 4, 1, 5, "2"),
		edit("b.py", 9, 0, 9, 0, "x"), // invalid position
	)}, Options{})
	if len(res.Refused) != 1 || len(res.Files) != 0 {
		t.Fatalf("res %+v", res)
	}
	if got := read(t, root, "a.py"); got != "a = 1\n" {
		t.Fatalf("half a fix applied: %q", got)
	}
}

func TestOutsideRootNeverTouched(t *testing.T) {
	outer := t.TempDir()
	root := filepath.Join(outer, "root")
	if err := os.MkdirAll(filepath.Join(root, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(outer, "secret.py")
	os.WriteFile(secret, []byte("s = 1\n"), 0o644)
	os.WriteFile(filepath.Join(root, "in.py"), []byte("i = 1\n"), 0o644)
	if err := os.Symlink(secret, filepath.Join(root, "escape.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outer, filepath.Join(root, "up")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in.py", filepath.Join(root, "alias.py")); err != nil {
		t.Fatal(err)
	}
	bad := []string{"../secret.py", "d/../../secret.py", secret, "escape.py", "up/secret.py", "d", "missing.py", `d\..\..\secret.py`, ""}
	if mkfifo(filepath.Join(root, "fifo.py")) == nil {
		bad = append(bad, "fifo.py")
	}
	var fixes []analysis.SuggestedFix
	for _, name := range bad {
		fixes = append(fixes, one(edit(name, 1, 0, 1, 0, "# x\n")))
	}
	res := mustApply(t, root, fixes, Options{})
	if len(res.Refused) != len(bad) {
		t.Fatalf("refused %d of %d: %+v", len(res.Refused), len(bad), res)
	}
	for _, s := range res.Refused {
		t.Logf("%q: %s", s.Fix.Edits[0].File, s.Reason)
	}
	if b, _ := os.ReadFile(secret); string(b) != "s = 1\n" {
		t.Fatalf("the file outside the root changed: %q", b)
	}
	// A symlink inside the root to a file inside it: the target is edited
	// and the link stays a link.
	mustApply(t, root, []analysis.SuggestedFix{one(edit("alias.py", 1, 4, 1, 5, "2"))}, Options{})
	if got := read(t, root, "in.py"); got != "i = 2\n" {
		t.Fatalf("in.py: %q", got)
	}
	if fi, err := os.Lstat(filepath.Join(root, "alias.py")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("alias.py is no longer a symlink: %v %v", fi, err)
	}
}

func TestHardLinkRefused(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "a = 1\n"})
	if err := os.Link(filepath.Join(root, "a.py"), filepath.Join(root, "b.py")); err != nil {
		t.Skip(err)
	}
	res := mustApply(t, root, []analysis.SuggestedFix{one(edit("a.py", 1, 4, 1, 5, "2"))}, Options{})
	if len(res.Refused) != 1 || !strings.Contains(res.Refused[0].Reason, "hard links") {
		t.Fatalf("res %+v", res)
	}
}

func TestOtherEncodingRefused(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"latin.py": "# -*- coding: latin-1 -*-\ns = '\xe9'\n",
		"ascii.py": "# -*- coding: latin-1 -*-\ns = 1\n",
	})
	res := mustApply(t, root, []analysis.SuggestedFix{
		one(edit("latin.py", 2, 0, 2, 0, "t = 1\n")),
		one(edit("ascii.py", 2, 4, 2, 5, "2")),
	}, Options{})
	if len(res.Refused) != 1 || res.Refused[0].Index != 0 || !strings.Contains(res.Refused[0].Reason, "iso-8859-1") && !strings.Contains(res.Refused[0].Reason, "latin-1") {
		t.Fatalf("res %+v", res)
	}
	if got := read(t, root, "ascii.py"); got != "# -*- coding: latin-1 -*-\ns = 2\n" {
		t.Fatalf("got %q", got)
	}
}

// A file changed between the read and the write is not written: its fixes
// are refused, and a fix of another file still applies.
func TestChangedSinceReadNotWritten(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "a = 1\n", "b.py": "b = 1\n"})
	beforeCommit = func(name string) {
		if name == "a.py" {
			os.WriteFile(filepath.Join(root, "a.py"), []byte("a = 100  # someone else\n"), 0o644)
		}
	}
	defer func() { beforeCommit = nil }()
	res := mustApply(t, root, []analysis.SuggestedFix{
		one(edit("a.py", 1, 4, 1, 5, "2")),
		one(edit("b.py", 1, 4, 1, 5, "2")),
		one(edit("a.py", 1, 0, 1, 0, "# x\n"), edit("b.py", 1, 0, 1, 0, "# y\n")), // spans both: refused whole
	}, Options{})
	if got := read(t, root, "a.py"); got != "a = 100  # someone else\n" {
		t.Fatalf("the concurrent change was overwritten: %q", got)
	}
	if got := read(t, root, "b.py"); got != "b = 2\n" {
		t.Fatalf("b.py: %q", got)
	}
	if len(res.Refused) != 2 || !strings.Contains(res.Refused[0].Reason, "changed since it was read") {
		t.Fatalf("refused %+v", res.Refused)
	}
	if len(res.Files) != 1 || res.Files[0].File != "b.py" {
		t.Fatalf("files %+v", res.Files)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 2 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

// compute stands for the checker: each "x" on its own line wants to become
// "x = 0", and each fix also inserts a header line at the top -- so the
// fixes overlap and need several passes.
func TestApplyUntilStable(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "x\nx\n"})
	compute := func() ([]analysis.SuggestedFix, error) {
		lines := strings.Split(read(t, root, "a.py"), "\n")
		var fixes []analysis.SuggestedFix
		for i, l := range lines {
			if l == "x" {
				fixes = append(fixes, one(edit("a.py", 1, 0, 1, 0, fmt.Sprintf("# fixed %d\n", i)), edit("a.py", i+1, 1, i+1, 1, " = 0")))
			}
		}
		return fixes, nil
	}
	results, stable, err := ApplyUntilStable(root, compute, Options{}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !stable {
		t.Fatal("not stable")
	}
	if got, want := read(t, root, "a.py"), "# fixed 2\n# fixed 0\nx = 0\nx = 0\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if len(results) != 2 || len(results[0].Deferred) != 1 || len(results[1].Applied) != 1 {
		t.Fatalf("passes: %+v", results)
	}
	// Another run changes nothing.
	results, stable, _ = ApplyUntilStable(root, compute, Options{}, 5)
	if !stable || len(results) != 0 {
		t.Fatalf("second run: %+v %v", results, stable)
	}
	// Bounded: a compute that always finds something stops after maxPasses.
	n := 0
	endless := func() ([]analysis.SuggestedFix, error) {
		n++
		return []analysis.SuggestedFix{one(edit("a.py", 1, 0, 1, 0, fmt.Sprintf("# again %d\n", n)))}, nil
	}
	results, stable, _ = ApplyUntilStable(root, endless, Options{}, 3)
	if stable || n != 3 || len(results) != 3 {
		t.Fatalf("endless: %d passes, stable %v", n, stable)
	}
}

// A file that did not parse when read is edited without the parse check
// (the check only refuses a fix that breaks a parsing file).
func TestBrokenFileStillEditable(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "def f(:\nx = 1\n"})
	res := mustApply(t, root, []analysis.SuggestedFix{one(edit("a.py", 2, 4, 2, 5, "2"))}, Options{})
	if len(res.Applied) != 1 || read(t, root, "a.py") != "def f(:\nx = 2\n" {
		t.Fatalf("res %+v, file %q", res, read(t, root, "a.py"))
	}
}

// A fix whose finding survives its edit -- it inserts the same text again
// each pass, as a module named "softmax;import evil.py" would have had
// `from . import softmax;import evil` added -- is applied once and then
// refused as not converging, not repeated until the bound.
func TestApplyUntilStableRefusesRepeatedInsertion(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "x = 1\n"})
	n := 0
	compute := func() ([]analysis.SuggestedFix, error) {
		n++
		return []analysis.SuggestedFix{{Message: "add y", Edits: []analysis.TextEdit{edit("a.py", 2, 0, 2, 0, "y = 2\n")}}}, nil
	}
	results, _, err := ApplyUntilStable(root, compute, Options{}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, root, "a.py"); got != "x = 1\ny = 2\n" {
		t.Fatalf("a.py = %q, want the line added once", got)
	}
	if n != 2 || len(results) != 2 || len(results[1].Refused) != 1 || !strings.Contains(results[1].Refused[0].Reason, "does not converge") {
		t.Fatalf("%d passes, results %+v", n, results)
	}
}

// A read-only file is not rewritten: its fixes are refused with a reason
// (the rename that replaces a file would otherwise succeed anyway).
func TestReadOnlyFileRefused(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "x = 1\n"})
	p := filepath.Join(root, "a.py")
	if err := os.Chmod(p, 0o444); err != nil {
		t.Fatal(err)
	}
	res := mustApply(t, root, []analysis.SuggestedFix{one(edit("a.py", 1, 4, 1, 5, "2"))}, Options{})
	if len(res.Applied) != 0 || len(res.Refused) != 1 || !strings.Contains(res.Refused[0].Reason, "read-only") {
		t.Fatalf("res %+v", res)
	}
	if got := read(t, root, "a.py"); got != "x = 1\n" {
		t.Errorf("a.py = %q", got)
	}
}

// An edit computed from a content the file no longer has (it changed
// between the check's read and Apply's) is refused, not applied at stale
// positions; an edit whose Base is the file's content is applied.
func TestStaleBaseRefused(t *testing.T) {
	// The check read a.py with a line more at the top: its edit of x's
	// value, at 2:4, would now change y's.
	root := writeFiles(t, map[string]string{"a.py": "x = 1\ny = 1\n", "b.py": "y = 1\n"})
	var reads Reads
	reads.Record("a.py", []byte("# moved down\nx = 1\ny = 1\n"))
	reads.Record("b.py", []byte("y = 1\n"))
	stale := edit("a.py", 2, 4, 2, 5, "2")
	fresh := edit("b.py", 1, 4, 1, 5, "2")
	res := mustApply(t, root, []analysis.SuggestedFix{one(stale), one(fresh)}, Options{Base: reads.Base})
	if got := read(t, root, "a.py"); got != "x = 1\ny = 1\n" {
		t.Errorf("a.py = %q: a stale edit was applied", got)
	}
	if got := read(t, root, "b.py"); got != "y = 2\n" {
		t.Errorf("b.py = %q, want the edit applied", got)
	}
	if len(res.Refused) != 1 || res.Refused[0].Index != 0 || !strings.Contains(res.Refused[0].Reason, "changed since the check read it") {
		t.Fatalf("refused %+v", res.Refused)
	}
}

// Reads: a file read twice with different contents during one check has a
// Base no content matches.
func TestReadsChangedWhileRead(t *testing.T) {
	var r Reads
	r.Record("a.py", []byte("x\n"))
	r.Record("a.py", []byte("x\n"))
	if r.Base("a.py") != Sum([]byte("x\n")) {
		t.Fatalf("Base = %q", r.Base("a.py"))
	}
	r.Record("a.py", []byte("y\n"))
	if b := r.Base("a.py"); b == Sum([]byte("x\n")) || b == Sum([]byte("y\n")) {
		t.Fatalf("Base after two contents = %q", b)
	}
	if r.Base("b.py") != "" {
		t.Fatal("a file not read has a Base")
	}
}

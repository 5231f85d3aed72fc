package checks

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/source"
)

// A fix is built per finding; a dispatch file with thousands of stubs that
// lack **kwargs must not be split into lines once per stub (which made the
// whole check quadratic in the file's size): the fixes of all its stubs
// allocate a bounded multiple of the file's size.
func TestFixesLinearInFileSize(t *testing.T) {
	var b strings.Builder
	b.WriteString("from typing import Any\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "\n\n@dispatch(\"op_%d\")\ndef op_%d(x, y: int = 0):\n    raise NotImplementedError\n", i, i)
	}
	f := source.ParseFile("src/tilegym/ops/ops.py", []byte(b.String()))
	if f.AST == nil {
		t.Fatal(f.Err)
	}
	var defs []*ast.FunctionDef
	for _, s := range f.AST.Module.Body {
		if fd, ok := s.(*ast.FunctionDef); ok {
			defs = append(defs, fd)
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for _, fd := range defs {
		if len(kwargsEdits(f, fd, "kwargs")) > 0 {
			n++
		}
	}
	runtime.ReadMemStats(&after)
	if n != len(defs) {
		t.Fatalf("%d fixes for %d stubs without **kwargs", n, len(defs))
	}
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(20*len(f.Src)); got > limit {
		t.Errorf("the fixes of %d stubs allocated %d bytes, more than 20 times the file's %d", n, got, len(f.Src))
	}
}

// A file's lines are kept with the file once a fix has needed them: they
// are substrings of its source, not of a copy, in a list with no room to
// spare; the line ends and the BOM are split as before.
func TestFileLinesShareSource(t *testing.T) {
	src := "\xef\xbb\xbfimport a\r\nx = 1\ry = 2\n\nz = a.b(x)\n"
	f := source.ParseFile("src/tilegym/ops/m.py", []byte(src))
	lines := fileLines.Of(f)
	want := []string{"import a", "x = 1", "y = 2", "", "z = a.b(x)", ""}
	if fmt.Sprintf("%q", lines) != fmt.Sprintf("%q", want) {
		t.Fatalf("lines %q, want %q", lines, want)
	}
	if cap(lines) != len(lines) {
		t.Errorf("%d lines, room for %d", len(lines), cap(lines))
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(f.Src)))
	for i, l := range lines {
		if l == "" {
			continue
		}
		if p := uintptr(unsafe.Pointer(unsafe.StringData(l))); p < start || p >= start+uintptr(len(f.Src)) {
			t.Errorf("line %d (%q) is a copy, not the file's source", i+1, l)
		}
	}
}

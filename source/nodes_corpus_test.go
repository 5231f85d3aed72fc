package source_test

import (
	"testing"

	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// TestCallsOfDef checks that the calls of each function taken from the
// per-file node list are Calls(fd), and that the node list is in
// InspectFile's order, on the fixtures and the TileGym tree when present.
func TestCallsOfDef(t *testing.T) {
	n := 0
	for _, f := range testrepo.CorpusFiles(t) {
		p := f.Path
		var want []ast.Node
		astutil.InspectFile(f.AST, func(x ast.Node) bool {
			switch x.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Call, *ast.Import, *ast.ImportFrom:
				want = append(want, x)
			}
			return true
		})
		got := f.Nodes()
		if len(got) != len(want) {
			t.Fatalf("%s: %d nodes, want %d", p, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: node %d differs", p, i)
			}
		}
		for _, x := range got {
			fd, ok := x.(*ast.FunctionDef)
			if !ok {
				continue
			}
			n++
			calls, ok := f.CallsOfDef(fd)
			if !ok {
				t.Fatalf("%s: no span for %s", p, fd.Name)
			}
			want := astutil.Calls(fd)
			if len(calls) != len(want) {
				t.Fatalf("%s: %s: %d calls, want %d", p, fd.Name, len(calls), len(want))
			}
			for i := range calls {
				if calls[i] != want[i] {
					t.Fatalf("%s: %s: call %d differs", p, fd.Name, i)
				}
			}
		}
	}
	t.Logf("%d functions", n)
}

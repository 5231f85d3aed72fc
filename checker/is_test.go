package checker

import (
	"testing"

	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// slowIs is Imports.Is as first written: resolve, then compare.
func slowIs(im *astutil.Imports, e ast.Expr, names []string) bool {
	q, _ := im.Resolve(e)
	if q == "" {
		return false
	}
	for _, n := range names {
		if q == n {
			return true
		}
	}
	return false
}

// TestIsFast checks Imports.Is (which matches without building the
// resolved name when it can) against resolving then comparing, for every
// name and attribute of the fixtures and of the TileGym tree when present,
// with names that match and names that nearly do.
func TestIsFast(t *testing.T) {
	n := 0
	for _, f := range testrepo.CorpusFiles(t) {
		p := f.Path
		im := f.Imports()
		astutil.InspectFile(f.AST, func(x ast.Node) bool {
			e, ok := x.(ast.Expr)
			if !ok {
				return true
			}
			q, _ := im.Resolve(e)
			d := astutil.DottedName(e)
			for _, names := range [][]string{
				{q}, {d}, {"x", q}, {q + "x"}, {"x" + q}, {q + ".x"}, {"." + q}, {d + "."}, {"tilegym.backend.register_impl"}, {""},
			} {
				n++
				if got, want := im.Is(e, names), slowIs(im, e, names); got != want {
					t.Errorf("%s:%d: Is(%s, %q) = %v, want %v", p, e.Pos().Line, d, names, got, want)
				}
			}
			return true
		})
	}
	// Chains the parser does not produce.
	im := &astutil.Imports{Local: map[string]string{"a": "", "b": "x.y", "": "z"}}
	for _, e := range []ast.Expr{
		&ast.Name{Id: ""},
		&ast.Name{Id: "a"},
		&ast.Attribute{Value: &ast.Name{Id: "a"}, Attr: "f"},
		&ast.Attribute{Value: &ast.Name{Id: "b"}, Attr: ""},
		&ast.Attribute{Value: &ast.Name{Id: ""}, Attr: "f"},
		&ast.Attribute{Value: &ast.Name{Id: "b.c"}, Attr: "f"},
		&ast.Attribute{Value: &ast.Call{Func: &ast.Name{Id: "b"}}, Attr: "f"},
		(*ast.Name)(nil),
	} {
		for _, names := range [][]string{{"f"}, {"x.y"}, {"x.y."}, {"b.c.f"}, {"a"}, {""}, {"z"}, {".f"}} {
			if got, want := im.Is(e, names), slowIs(im, e, names); got != want {
				t.Errorf("Is(%#v, %q) = %v, want %v", e, names, got, want)
			}
		}
	}
	t.Logf("%d comparisons", n)
}

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

// oldDottedName is DottedName as first written.
func oldDottedName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Name:
		if e == nil {
			return ""
		}
		return e.Id
	case *ast.Attribute:
		if e == nil {
			return ""
		}
		head := oldDottedName(e.Value)
		if head == "" {
			return ""
		}
		return head + "." + e.Attr
	}
	return ""
}

// TestDottedName checks DottedName against its first, recursive form on
// every expression of the fixtures (and of EXTRA_PY_TREE), and on chains
// the parser does not produce.
func TestDottedName(t *testing.T) {
	for _, f := range testrepo.CorpusFiles(t) {
		p := f.Path
		astutil.InspectFile(f.AST, func(x ast.Node) bool {
			if e, ok := x.(ast.Expr); ok {
				if got, want := astutil.DottedName(e), oldDottedName(e); got != want {
					t.Errorf("%s:%d: DottedName = %q, want %q", p, e.Pos().Line, got, want)
				}
			}
			return true
		})
	}
	for _, e := range []ast.Expr{
		nil, (*ast.Name)(nil), (*ast.Attribute)(nil), &ast.Name{Id: ""},
		&ast.Attribute{Value: &ast.Name{Id: ""}, Attr: "f"},
		&ast.Attribute{Value: &ast.Name{Id: "a"}, Attr: ""},
		&ast.Attribute{Value: (*ast.Name)(nil), Attr: "f"},
		&ast.Attribute{Value: &ast.Attribute{Value: &ast.Name{Id: "a"}, Attr: "b"}, Attr: "c"},
		&ast.Attribute{Value: &ast.Call{Func: &ast.Name{Id: "a"}}, Attr: "c"},
	} {
		if got, want := astutil.DottedName(e), oldDottedName(e); got != want {
			t.Errorf("DottedName(%#v) = %q, want %q", e, got, want)
		}
	}
}

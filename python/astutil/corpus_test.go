package astutil_test

// The helpers of astutil compared with their first forms on every Python
// file of the corpus (testrepo.CorpusFiles).

import (
	"reflect"
	"strings"
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

// oldNewImports is NewImports as first written: an ast.Inspect walk; it
// also gives what each name of an import statement imports (ResolveAlias).
func oldNewImports(file string, f *ast.File) (*astutil.Imports, map[*ast.Alias]string) {
	im := &astutil.Imports{Local: map[string]string{}}
	aliases := map[*ast.Alias]string{}
	if f == nil || f.Module == nil {
		return im, aliases
	}
	pkg := astutil.PackagePath(file)
	astutil.InspectFile(f, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.Import:
			for _, a := range s.Names {
				if a == nil {
					continue
				}
				aliases[a] = a.Name
				if a.Asname != nil {
					im.Local[*a.Asname] = a.Name
				} else {
					head, _, _ := strings.Cut(a.Name, ".")
					im.Local[head] = head
				}
			}
		case *ast.ImportFrom:
			base := astutil.ImportFromModule(pkg, s)
			for _, a := range s.Names {
				if a == nil {
					continue
				}
				if a.Name == "*" {
					aliases[a] = ""
					continue
				}
				local := a.Name
				if a.Asname != nil {
					local = *a.Asname
				}
				im.Local[local] = astutil.JoinDotted(base, a.Name)
				aliases[a] = im.Local[local]
			}
		}
		return true
	})
	return im, aliases
}

// TestNewImportsStatements checks NewImports (a walk of the statements
// only) against a walk of the whole tree, on the fixtures, TileGym when
// present, and this module's parser testdata.
func TestNewImportsStatements(t *testing.T) {
	n := 0
	for _, f := range testrepo.CorpusFiles(t, "../parser/testdata") {
		p := f.Path
		n++
		got := astutil.NewImports(p, f.AST)
		want, aliases := oldNewImports(p, f.AST)
		if !reflect.DeepEqual(got.Local, want.Local) {
			t.Errorf("%s: imports %v, want %v", p, got.Local, want.Local)
		}
		for a, q := range aliases {
			if r := got.ResolveAlias(a); r != q {
				t.Errorf("%s:%d: import of %s resolves to %q, want %q", p, a.Lineno, a.Name, r, q)
			}
		}
	}
	t.Logf("%d files", n)
}

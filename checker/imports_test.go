package checker

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

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
	for _, f := range testrepo.CorpusFiles(t, "../python/parser/testdata") {
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

// oldUsedNames is BuildUsedNames as first written: an InspectFile walk that
// stops at attributes, into a set (now a sorted list).
func oldUsedNames(f *source.File) []string {
	im := f.Imports()
	out := map[string]bool{}
	addAll := func(q string) {
		for {
			out[q] = true
			i := strings.LastIndexByte(q, '.')
			if i < 0 {
				return
			}
			q = q[:i]
		}
	}
	for _, q := range im.Local {
		addAll(q)
	}
	astutil.InspectFile(f.AST, func(n ast.Node) bool {
		if at, ok := n.(*ast.Attribute); ok {
			if q, imported := im.Resolve(at); imported {
				addAll(q)
			}
			return false
		}
		return true
	})
	list := make([]string, 0, len(out))
	for q := range out {
		list = append(list, q)
	}
	sort.Strings(list)
	return list
}

// TestUsedNamesFromNodes checks BuildUsedNames (from the attributes
// recorded by the node walk) against the walk that stops at attributes.
func TestUsedNamesFromNodes(t *testing.T) {
	for _, f := range testrepo.CorpusFiles(t) {
		p := f.Path
		if got, want := optable.BuildUsedNames(f), oldUsedNames(f); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: used names differ", p)
		}
	}
}

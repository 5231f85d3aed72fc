package optable_test

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

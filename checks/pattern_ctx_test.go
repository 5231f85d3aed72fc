package checks

import (
	"reflect"
	"testing"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/source"
)

// A rule whose contexts ask only about the enclosing defs looks at them
// before it matches: a call outside a kernel is not matched (its callee
// not bound nor checked) by K20's `$F(...)` inside kernel; one inside is.
// A rule with a dearer context (cache-miss) matches first.
func TestContextsBeforeMatch(t *testing.T) {
	src := "import cuda.tile as ct\n\n@ct.kernel\ndef k(x):\n    h(x)\n\ndef run(x):\n    h(x)\n"
	f := source.ParseFile("src/tilegym/m.py", []byte(src))
	if f.AST == nil {
		t.Fatal(f.Err)
	}
	var calls [][]ast.Node
	fileNodesOf(f).walk(func(path []ast.Node) {
		if c, ok := path[len(path)-1].(*ast.Call); ok && nodeLine(f, c) == "h(x)" {
			calls = append(calls, append([]ast.Node(nil), path...))
		}
	})
	if len(calls) != 2 {
		t.Fatalf("%d calls of h", len(calls))
	}
	for _, tc := range []struct {
		inside []string
		want   [2]int // the callee's checks at the call in the kernel, in run
	}{
		{[]string{"kernel"}, [2]int{1, 0}},
		{[]string{"function", "@cuda.tile.kernel"}, [2]int{1, 0}},
		{[]string{"cache-miss"}, [2]int{1, 1}},
	} {
		p := &PatternParams{Pattern: "$F(...)", Inside: tc.inside, Where: map[string]*Where{"F": {Regex: "h"}}}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		fm := newFileMatcher(f)
		for i, path := range calls {
			n := 0
			check := func(name string, x ast.Node) bool { n++; return true }
			p.match(fm, path, "Call", check, p.pats)
			if n != tc.want[i] {
				t.Errorf("inside %q, call %d: the callee checked %d times, want %d", tc.inside, i, n, tc.want[i])
			}
		}
	}
}

// The index offers a pattern with an anchor (a dotted name, a call of
// one) no node without one: a local variable's name is never offered
// `triton.jit` (36,455 names of upstream's cuTile modules were, for the
// relation kind's TR01 check), a name imported as triton.jit is.
func TestNoAnchorNoAnchoredPattern(t *testing.T) {
	p := &PatternParams{Pattern: "triton.jit"}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	f := source.ParseFile("src/tilegym/m.py", []byte("from triton import jit\nx = 1\njit\nx\n"))
	if f.AST == nil {
		t.Fatal(f.Err)
	}
	ix := newPatternIndex([]*PatternParams{p})
	fm := newFileMatcher(f)
	offered := map[string]bool{}
	fileNodesOf(f).walk(func(path []ast.Node) {
		n := path[len(path)-1]
		name, ok := n.(*ast.Name)
		if !ok {
			return
		}
		tc := ix.typeOf(n, reflect.TypeOf(n))
		anchor, qual := nodeNames(fm.resolve, n)
		c := ix.of(tc, nameKey{ix.nameOf(anchor), ix.nameOf(qual)})
		offered[name.Id] = offered[name.Id] || len(c.rules) > 0
	})
	if !offered["jit"] || offered["x"] {
		t.Errorf("offered the pattern: %v; want jit, not x", offered)
	}
}

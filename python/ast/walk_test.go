package ast

import (
	"fmt"
	"strings"
	"testing"
)

func name(id string, col int32) *Name {
	return &Name{Attrs: Attrs{1, col, 1, col + int32(len(id))}, Id: id}
}

func TestInspectOrderAndSkip(t *testing.T) {
	// def f(a, b=d, *, c=e): return a
	fn := &FunctionDef{
		Attrs:         Attrs{2, 0, 2, 30},
		Name:          "f",
		DecoratorList: []Expr{name("deco", 1)},
		Args: &Arguments{
			Args:       []*Arg{{Attrs: Attrs{2, 6, 2, 7}, Arg: "a"}, {Attrs: Attrs{2, 9, 2, 10}, Arg: "b"}},
			Defaults:   []Expr{name("d", 11)},
			KwOnlyArgs: []*Arg{{Attrs: Attrs{2, 17, 2, 18}, Arg: "c"}},
			KwDefaults: []Expr{name("e", 19)},
		},
		Body: []Stmt{&Return{Attrs: Attrs{2, 23, 2, 31}, Value: name("a", 30)}},
	}
	var got []string
	Inspect(fn, func(n Node) bool {
		switch n := n.(type) {
		case *Name:
			got = append(got, n.Id)
		case *Arg:
			got = append(got, "arg:"+n.Arg)
		default:
			got = append(got, fmt.Sprintf("%T", n))
		}
		return true
	})
	want := "*ast.FunctionDef deco arg:a arg:b d arg:c e *ast.Return a"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}

	got = nil
	Inspect(fn, func(n Node) bool {
		got = append(got, fmt.Sprintf("%T", n))
		_, isRet := n.(*Return)
		return !isRet
	})
	if s := strings.Join(got, " "); strings.Count(s, "*ast.Name") != 3 {
		t.Errorf("skip failed: %s", s)
	}
}

func TestInspectHelpers(t *testing.T) {
	// [x for x in y if z]; with a as b: pass; match s: case _ if g: pass
	comp := &ListComp{Elt: name("x", 1), Generators: []*Comprehension{{Target: name("x", 7), Iter: name("y", 12), Ifs: []Expr{name("z", 17)}}}}
	w := &With{Items: []*WithItem{{ContextExpr: name("a", 5), OptionalVars: name("b", 10)}}, Body: []Stmt{&Pass{}}}
	m := &Match{Subject: name("s", 6), Cases: []*MatchCase{{Pattern: &MatchAs{}, Guard: name("g", 20), Body: []Stmt{&Pass{}}}}}
	mod := []Stmt{&ExprStmt{Value: comp}, w, m}
	var got []string
	for _, s := range mod {
		Inspect(s, func(n Node) bool {
			if nm, ok := n.(*Name); ok {
				got = append(got, nm.Id)
			} else {
				got = append(got, strings.TrimPrefix(fmt.Sprintf("%T", n), "*ast."))
			}
			return true
		})
	}
	want := "ExprStmt ListComp x x y z With a b Pass Match s MatchAs g Pass"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
	Inspect(nil, func(Node) bool { t.Fatal("called on nil"); return true })
}

// TestInspectDepthIsInspect holds InspectDepth to Inspect: the same nodes
// in the same order, each at the depth of its nesting in Inspect's calls.
func TestInspectDepthIsInspect(t *testing.T) {
	comp := &ListComp{Elt: name("x", 1), Generators: []*Comprehension{{Target: name("x", 7), Iter: name("y", 12), Ifs: []Expr{name("z", 17)}}}}
	call := &Call{Func: &Attribute{Value: name("ct", 0), Attr: "load"}, Args: []Expr{comp}, Keywords: []*Keyword{{Value: name("k", 30)}}}
	fn := &FunctionDef{
		Name:          "f",
		DecoratorList: []Expr{&Attribute{Value: name("ct", 1), Attr: "kernel"}},
		Args:          &Arguments{Args: []*Arg{{Arg: "a", Annotation: name("int", 4)}}, Defaults: []Expr{name("d", 11)}},
		Body: []Stmt{
			&If{Test: name("c", 3), Body: []Stmt{&Return{Value: call}}, Orelse: []Stmt{&Pass{}}},
			&With{Items: []*WithItem{{ContextExpr: name("a", 5), OptionalVars: name("b", 10)}}, Body: []Stmt{&ExprStmt{Value: &Tuple{Elts: []Expr{name("e", 2), nil}}}}},
		},
	}
	var want []string
	depth := 0
	var visit func(n Node) bool
	visit = func(n Node) bool {
		want = append(want, fmt.Sprintf("%d %T", depth, n))
		depth++
		first := true
		Inspect(n, func(c Node) bool {
			if first {
				first = false
				return true
			}
			return visit(c)
		})
		depth--
		return false
	}
	Inspect(fn, visit)
	var got []string
	InspectDepth(fn, func(n Node, d int) { got = append(got, fmt.Sprintf("%d %T", d, n)) })
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("InspectDepth:\n%s\nInspect:\n%s", g, w)
	}
	if len(got) < 15 || !strings.HasPrefix(got[len(got)-1], "4 ") {
		t.Errorf("walked %d nodes, the last %q: the tree has more, deeper", len(got), got[len(got)-1])
	}
	InspectDepth(nil, func(Node, int) { t.Error("a nil node is visited") })
}

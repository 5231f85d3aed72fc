package pattern

import (
	"testing"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/python/parser"
)

// matches returns the text of every node of src that the pattern matches.
func matches(t *testing.T, pat, src string) []string {
	t.Helper()
	p, err := Parse(pat)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile("x.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	im := astutil.NewImports("x.py", f)
	resolve := im.ResolveNode
	var out []string
	astutil.InspectFile(f, func(n ast.Node) bool {
		b := Bindings{}
		if p.Match(n, resolve, b) {
			s := ""
			if e, ok := n.(ast.Expr); ok {
				s = astutil.ExprString(e)
			} else if a, ok := n.(*ast.Alias); ok {
				s = "import " + a.Name + "@" + string(rune('0'+n.Pos().Line))
			} else {
				s = "stmt@" + string(rune('0'+n.Pos().Line))
			}
			switch x := b["X"].(type) {
			case *Ident:
				s += " X=" + x.Id
			case ast.Expr:
				s += " X=" + astutil.ExprString(x)
			}
			out = append(out, s)
		}
		return true
	})
	return out
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		pat, src string
		want     []string
	}{
		// Names resolve through imports, under any alias.
		{"cuda.tile.launch(...)", "import cuda.tile as ct\nct.launch(s, g, k, a)\nlaunch(1)\n", []string{"ct.launch(s, g, k, a)"}},
		{"cuda.tile.launch(...)", "from cuda.tile import launch as L\nL(1)\n", []string{"L(1)"}},
		{"cuda.tile.launch(...)", "import other as ct\nct.launch(1)\n", nil},
		// A metavariable attribute binds the name.
		{"cuda.tile.$X", "import cuda.tile as ct\nct.sigmoid(x)\n", []string{"ct.sigmoid X=sigmoid"}},
		// A dotted name matches a bare name or a shorter chain whose import
		// resolves to it, and the name of the import itself.
		{"triton.jit", "from triton import jit\n@jit\ndef k():\n    pass\n", []string{"import jit@1", "jit"}},
		{"triton.jit", "import triton as tr\n@tr.jit\ndef k():\n    pass\n", []string{"tr.jit"}},
		{"triton.jit", "from other import jit\n@jit\ndef k():\n    pass\n", nil},
		{"a.b.c.d", "import a.b as x\nfrom a.b import c\nx.c.d\nc.d\nx.c\n", []string{"x.c.d", "c.d"}},
		{"cuda.tile.$X", "from cuda.tile import sigmoid as sg, exp\ny = sg(x)\n", []string{"import sigmoid@1 X=sigmoid", "import exp@1 X=exp", "sg X=sigmoid"}},
		{"cuda.tile.$X", "from cuda import tile\nimport cuda.tile.tune\ntile.exp(x)\n", []string{"import cuda.tile.tune@2 X=tune", "tile.exp X=exp"}},
		{"cuda.tile.$X", "import cuda.tile as ct\nfrom numpy import sigmoid\nsigmoid(ct)\n", nil},
		// Positional arguments with ..., keywords in any order.
		{"f($X, ...)", "f(1, 2, k=3)\nf()\n", []string{"f(1, 2, k=3) X=1"}},
		{"f($X)", "f(1, k=3)\nf(2)\n", []string{"f(2) X=2"}},
		{"f(..., k=$X)", "f(1, j=2, k=3)\nf(1)\n", []string{"f(1, j=2, k=3) X=3"}},
		// A keyword tried and refused leaves no binding behind: $X is free
		// for the next ** keyword.
		{"f(..., **$X(1))", "f(**a(2), **b(1))\n", []string{"f(**a(2), **b(1)) X=b"}},
		// A metavariable used twice must bind the same text.
		{"$X + $X", "a + a\na + b\n", []string{"... X=a"}},
		// Statements, with ... as a run of statements.
		{"for $X in $Y:\n    ...", "for i in range(3):\n    pass\n", []string{"stmt@1 X=i"}},
		{"$K.replace_hints(...)", "k.replace_hints(occupancy=2)\nk.other()\n", []string{"k.replace_hints(occupancy=2)"}},
		{"(1, ...)", "x = (1, 2, 3)\ny = (2, 1)\n", []string{"(1, 2, 3)"}},
		// A def's name binds as an identifier.
		{"def $X():\n    ...", "def f():\n    pass\n", []string{"stmt@1 X=f"}},
		// A def's parameters with ...: a parameter written without a
		// default matches one without; with $P=$D, one with.
		{"def $F(...):\n    ...", "def f(a, b=1, *c, d, **e):\n    pass\ndef g():\n    pass\n", []string{"stmt@1", "stmt@3"}},
		{"def f(..., $X, ...):\n    ...", "def f(a=1, b=2):\n    pass\ndef f(a=1, *, b):\n    pass\n", []string{"stmt@3 X=b"}},
		{"def f(..., $X=None, ...):\n    ...", "def f(a, b=1, c=None):\n    pass\n", []string{"stmt@1 X=c"}},
		{"def f(..., $X: bool = $_, ...):\n    ...", "def f(a: int = 1, b: bool = True):\n    pass\n", []string{"stmt@1 X=b"}},
		{"def f(..., *$X, ...):\n    ...", "def f(a, *rest):\n    pass\ndef f(a, **kw):\n    pass\n", []string{"stmt@1 X=rest"}},
		{"def f(a, b):\n    ...", "def f(a, b):\n    pass\ndef f(a, b, c):\n    pass\n", []string{"stmt@1"}},
		// An import pattern names some of what a statement imports, in
		// its order; the module and the level are the pattern's.
		{"import cutile", "import os, cutile\nimport cutile as ct\nimport os\n", []string{"stmt@1"}},
		{"import cutile as $X", "import os, cutile as ct\n", []string{"stmt@1 X=ct"}},
		{"from cutile import $X", "from cutile import a, b\nfrom other import c\nfrom .cutile import d\n", []string{"stmt@1 X=a"}},
		{"from m import b, a", "from m import a, b\nfrom m import b, c, a\n", []string{"stmt@2"}},
		// Decorators the pattern gives must be there; others may be.
		{"@cuda.tile.kernel\ndef $X(...):\n    ...", "import cuda.tile as ct\n@ct.kernel\n@other\ndef k(a):\n    pass\n@other\ndef h(a):\n    pass\n", []string{"stmt@4 X=k"}},
	} {
		got := matches(t, tc.pat, tc.src)
		if len(got) != len(tc.want) {
			t.Errorf("%q on %q: got %q, want %q", tc.pat, tc.src, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q on %q: got %q, want %q", tc.pat, tc.src, got, tc.want)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{"f(", "a\nb", ""} {
		if _, err := Parse(src); err == nil {
			t.Errorf("Parse(%q): no error", src)
		}
	}
}

// MatchWhere backtracks over bindings the check refuses.
func TestMatchWhere(t *testing.T) {
	p, err := Parse("(..., $E, ...)")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := parser.ParseFile("x.py", []byte("(a, b.device, c)\n"))
	e := f.Module.Body[0].(*ast.ExprStmt).Value
	b := Bindings{}
	ok := p.MatchWhere(e, nil, b, func(name string, n ast.Node) bool {
		_, isAttr := n.(*ast.Attribute)
		return isAttr
	})
	if !ok || astutil.ExprString(b["E"].(ast.Expr)) != "b.device" {
		t.Errorf("MatchWhere: %v %v", ok, b)
	}
}

// Anchor and Qualifier say what a target's name must be: the last part
// and the rest of a qualified root or callee.
func TestAnchorQualifier(t *testing.T) {
	for _, tc := range []struct{ pat, anchor, qual string }{
		{"cuda.tile.$F", "", "cuda.tile"},
		{"math.$F(...)", "", "math"},
		{"cuda.tile.$F(..., order=\"F\")", "", "cuda.tile"},
		{"triton.jit", "jit", ""},
		{"cuda.tile.load(...)", "load", ""},
		{"setattr(...)", "setattr", ""},
		{"$X.$F", "", ""},
		{"$F(...)", "", ""},
		{"$F", "", ""},
		{"$K.replace_hints(...)", "replace_hints", ""},
	} {
		p, err := Parse(tc.pat)
		if err != nil {
			t.Fatal(err)
		}
		if p.Anchor() != tc.anchor || p.Qualifier() != tc.qual {
			t.Errorf("%q: anchor %q, qualifier %q; want %q, %q", tc.pat, p.Anchor(), p.Qualifier(), tc.anchor, tc.qual)
		}
	}
}

// An assignment whose value cannot match the pattern's is refused before
// its targets are bound and checked (A05's `$K = (..., $E, ...)` is
// offered every assignment).
func TestAssignValueBeforeTargets(t *testing.T) {
	p, err := Parse("$K = (..., $E, ...)")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := parser.ParseFile("x.py", []byte("key = f(x)\nkey = (a, b)\n"))
	var checked []string
	check := func(name string, n ast.Node) bool {
		checked = append(checked, name)
		return true
	}
	if p.MatchWhere(f.Module.Body[0], nil, Bindings{}, check) || len(checked) != 0 {
		t.Errorf("key = f(x): checked %v", checked)
	}
	if !p.MatchWhere(f.Module.Body[1], nil, Bindings{}, check) || len(checked) != 2 {
		t.Errorf("key = (a, b): checked %v", checked)
	}
}

package astutil

import (
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/parser"
)

func mustParse(t *testing.T, name, src string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(name, []byte(src))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return f
}

// exprOf parses a single expression statement.
func exprOf(t *testing.T, src string) ast.Expr {
	t.Helper()
	f := mustParse(t, "x.py", src+"\n")
	es, ok := f.Module.Body[0].(*ast.ExprStmt)
	if !ok {
		t.Fatalf("%q is not an expression statement", src)
	}
	return es.Value
}

func TestModulePath(t *testing.T) {
	for in, want := range map[string]string{
		"src/tilegym/ops/cutile/softmax.py":  "tilegym.ops.cutile.softmax",
		"src/tilegym/ops/cutile/__init__.py": "tilegym.ops.cutile",
		"tests/ops/test_softmax.py":          "tests.ops.test_softmax",
		"__init__.py":                        "",
	} {
		if got := ModulePath(in); got != want {
			t.Errorf("ModulePath(%q) = %q, want %q", in, got, want)
		}
	}
	if got := PackagePath("src/tilegym/ops/cutile/softmax.py"); got != "tilegym.ops.cutile" {
		t.Errorf("PackagePath = %q", got)
	}
	if got := PackagePath("src/tilegym/ops/cutile/__init__.py"); got != "tilegym.ops.cutile" {
		t.Errorf("PackagePath(__init__) = %q", got)
	}
}

func TestImportsResolve(t *testing.T) {
	src := `import tilegym as tg
import cuda.tile as ct
import tilegym.backend
from tilegym import ops
from tilegym.ops import softmax as sm
from . import utils
from ..triton import rope

def f():
    from tilegym.backend import register_impl
`
	f := mustParse(t, "src/tilegym/ops/cutile/x.py", src)
	im := NewImports("src/tilegym/ops/cutile/x.py", f)
	cases := []struct {
		expr     string
		want     string
		imported bool
	}{
		{"tg.ops.softmax", "tilegym.ops.softmax", true},
		{"ct.kernel", "cuda.tile.kernel", true},
		{"tilegym.backend.dispatch", "tilegym.backend.dispatch", true},
		{"ops.softmax", "tilegym.ops.softmax", true},
		{"sm", "tilegym.ops.softmax", true},
		{"utils.next_power_of_2", "tilegym.ops.cutile.utils.next_power_of_2", true},
		{"rope.apply", "tilegym.ops.triton.rope.apply", true},
		{"register_impl", "tilegym.backend.register_impl", true},
		{"unknown.name", "unknown.name", false},
		{"f()", "", false},
	}
	for _, c := range cases {
		got, imported := im.Resolve(exprOf(t, c.expr))
		if got != c.want || imported != c.imported {
			t.Errorf("Resolve(%s) = %q, %v; want %q, %v", c.expr, got, imported, c.want, c.imported)
		}
	}
	if !im.Is(exprOf(t, "ct.launch"), []string{"cuda.tile.launch"}) {
		t.Error("ct.launch is not cuda.tile.launch")
	}
	if im.Is(exprOf(t, "launch"), []string{"cuda.tile.launch"}) {
		t.Error("bare launch matched cuda.tile.launch")
	}
	if !im.Imported("cuda.tile") || im.Imported("triton") {
		t.Error("Imported")
	}
	if a := im.AliasesOf("cuda.tile"); len(a) != 1 || a[0] != "ct" {
		t.Errorf("AliasesOf(cuda.tile) = %v", a)
	}
}

func TestStringTemplate(t *testing.T) {
	cases := []struct {
		expr         string
		want         string
		exact, isStr bool
	}{
		{`"abc"`, "abc", true, true},
		{`f"layer-norm-M{m}-GBps"`, "layer-norm-M{}-GBps", false, true},
		{`f"plain"`, "plain", true, true},
		{`"a" + f"-{x}-TFLOPS"`, "a-{}-TFLOPS", false, true},
		{`name`, "", false, false},
		{`1`, "", false, false},
	}
	for _, c := range cases {
		s, exact, ok := StringTemplate(exprOf(t, c.expr))
		if s != c.want || exact != c.exact || ok != c.isStr {
			t.Errorf("StringTemplate(%s) = %q, %v, %v; want %q, %v, %v", c.expr, s, exact, ok, c.want, c.exact, c.isStr)
		}
	}
	if v, ok := StringValue(exprOf(t, `f"x{y}"`)); ok {
		t.Errorf("StringValue of an f-string with a field = %q", v)
	}
}

func TestDecoratorAndCallArg(t *testing.T) {
	src := `from tilegym.backend import dispatch as d
import tilegym.backend

@d(
    "softmax",
    fallback_backend="triton",
)
def softmax(x, **kwargs):
    raise NotImplementedError

@tilegym.backend.register_impl("relu", "cutile")
def relu(x):
    pass

@other
def g():
    pass
`
	f := mustParse(t, "src/tilegym/ops/ops.py", src)
	im := NewImports("src/tilegym/ops/ops.py", f)
	fns := TopLevelFuncs(f)
	c, _, ok := im.Decorator(fns["softmax"].DecoratorList, []string{"tilegym.backend.dispatch"})
	if !ok || c == nil {
		t.Fatal("dispatch decorator not found")
	}
	if s, _ := StringValue(CallArg(c, 0, "name")); s != "softmax" {
		t.Errorf("name arg = %q", s)
	}
	if s, _ := StringValue(CallArg(c, 1, "fallback_backend")); s != "triton" {
		t.Errorf("fallback_backend = %q", s)
	}
	c, _, ok = im.Decorator(fns["relu"].DecoratorList, []string{"tilegym.backend.register_impl"})
	if !ok {
		t.Fatal("register_impl decorator not found")
	}
	if s, _ := StringValue(CallArg(c, 1, "backend")); s != "cutile" {
		t.Errorf("positional backend = %q", s)
	}
	if _, _, ok := im.Decorator(fns["g"].DecoratorList, []string{"tilegym.backend.dispatch"}); ok {
		t.Error("@other matched dispatch")
	}
	if Docstring(fns["softmax"].Body) != nil {
		t.Error("a raise is not a docstring")
	}
}

func TestParamsAndExprString(t *testing.T) {
	f := mustParse(t, "x.py", "def f(a, /, b, c=1.0, *args, d=None, e=-1, **kw):\n    pass\n")
	ps := Params(TopLevelFuncs(f)["f"].Args)
	var got []string
	for _, p := range ps {
		s := p.Name
		if p.Default != nil {
			s += "=" + ExprString(p.Default)
		}
		got = append(got, s)
	}
	if strings.Join(got, ",") != "a,b,c=1.0,args,d=None,e=-1,kw" {
		t.Errorf("params = %v", got)
	}
	if ps[0].Kind != PosOnly || ps[2].Index != 2 || ps[3].Kind != VarPositional || ps[4].Kind != KeywordOnly || ps[6].Kind != VarKeyword {
		t.Errorf("kinds/indexes wrong: %+v", ps)
	}
	for src, want := range map[string]string{
		`"none"`:                 `"none"`,
		`Optional[torch.Tensor]`: "Optional[torch.Tensor]",
		`(1, 2)`:                 "(1, 2)",
		`torch.float16`:          "torch.float16",
		`1e-05`:                  "1e-05",
		`True`:                   "True",
	} {
		if got := ExprString(exprOf(t, src)); got != want {
			t.Errorf("ExprString(%s) = %q, want %q", src, got, want)
		}
	}
}

// An imported attribute chain resolves in one allocation, to what the
// dotted name with its head replaced (JoinDotted) gives: also for a head
// imported as "" and for chains with empty parts, which no parse makes.
func TestResolveChainOnePiece(t *testing.T) {
	im := &Imports{Local: map[string]string{"ct": "cuda.tile", "pkg": "", "tg": "tilegym"}}
	name := func(id string) ast.Expr { return &ast.Name{Id: id} }
	attr := func(v ast.Expr, a string) ast.Expr { return &ast.Attribute{Value: v, Attr: a} }
	exprs := []ast.Expr{
		attr(name("ct"), "kernel"), attr(attr(name("tg"), "ops"), "softmax"), attr(name("pkg"), "x"),
		attr(attr(name("pkg"), "x"), "y"), attr(name("ct"), ""), attr(attr(name("ct"), ""), "b"),
		attr(attr(name("pkg"), ""), "b"), attr(name("other"), "x"), attr(name(""), "x"), name("ct"),
		attr(&ast.Call{Func: name("ct")}, "x"), (*ast.Attribute)(nil), attr((*ast.Name)(nil), "x"),
	}
	for _, e := range exprs {
		want, wantOK := "", false
		if d := DottedName(e); d != "" {
			head, rest, _ := strings.Cut(d, ".")
			want = d
			if q, ok := im.Local[head]; ok {
				want, wantOK = JoinDotted(q, rest), true
			}
		}
		if got, ok := im.Resolve(e); got != want || ok != wantOK {
			t.Errorf("Resolve(%q) = %q, %v; want %q, %v", DottedName(e), got, ok, want, wantOK)
		}
	}
	e := attr(attr(name("tg"), "ops"), "softmax")
	if n := testing.AllocsPerRun(100, func() { im.Resolve(e) }); n != 1 {
		t.Errorf("Resolve of an imported chain allocates %.0f times, want once", n)
	}
}

// TestInspectScope: the walk of a function's body sees its own statements
// and expressions, and neither the defs, lambdas and classes nested in it
// nor what they hold.
func TestInspectScope(t *testing.T) {
	src := "def f():\n    a = 1\n    def g():\n        return b\n    class C:\n        c = 2\n    h = lambda: d\n    return e\n"
	file, err := parser.ParseFile("x.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fd := file.Module.Body[0].(*ast.FunctionDef)
	var names []string
	InspectScope(fd.Body, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok {
			names = append(names, nm.Id)
		}
		return true
	})
	if got, want := strings.Join(names, " "), "a h e"; got != want {
		t.Errorf("names seen: %q, want %q", got, want)
	}
}

package checks

import (
	"testing"

	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

func TestSignatureDrift(t *testing.T) {
	f := source.ParseFile("x.py", []byte(`def stub(x, dim=-1, out=None, **kwargs): pass
def same(x, dim=-1, out=None, **kwargs): pass
def renamed(inp, dim=-1, out=None, **kwargs): pass
def redefault(x, dim=1, out=None, **kwargs): pass
def nokw(x, dim=-1, out=None): pass
def swapped(x, out=None, dim=-1, **kwargs): pass
def missing(x, **kwargs): pass
`))
	fns := astutil.TopLevelFuncs(f.AST)
	cat, err := LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	rule := cat.Rule("TG205")
	for name, want := range map[string]string{
		"same":      "",
		"renamed":   `names parameter 1 "inp" where the dispatch stub has "x"`,
		"redefault": `defaults "dim" to 1 where the dispatch stub has -1`,
		"nokw":      "does not take **kwargs",
		"swapped":   `takes "dim" as parameter 3 where the dispatch stub has it as parameter 2; takes "out" as parameter 2 where the dispatch stub has it as parameter 3`,
		"missing":   `has no parameter "dim" (it would be swallowed by **kwargs and ignored); has no parameter "out" (it would be swallowed by **kwargs and ignored)`,
	} {
		drifts, _ := signatureDrift(fns["stub"], fns[name], true, false)
		if got := renderDrifts(rule, "op", drifts, map[string]string{}); got != want {
			t.Errorf("%s: %q\n want %q", name, got, want)
		}
	}
	if drifts, _ := signatureDrift(fns["stub"], fns["missing"], false, true); len(drifts) != 0 {
		t.Errorf("lenient: %v", drifts)
	}
}

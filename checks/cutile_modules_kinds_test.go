package checks_test

import (
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/checks/checkstest"
)

// runOnModule runs one kind over a repository of the op k: its stub and
// the cuTile module mod.
func runOnModule(t *testing.T, rule string, params any, mod string) []analysis.Diagnostic {
	t.Helper()
	return checkstest.Run(t, checkstest.LoadFiles(t, map[string]string{
		"src/tilegym/ops/ops.py":             "from tilegym.backend import dispatch\n\n@dispatch(\"k\")\ndef k(x, **kwargs):\n    raise NotImplementedError\n",
		"src/tilegym/ops/cutile/k.py":        mod,
		"src/tilegym/ops/cutile/__init__.py": "",
	}), checkstest.Rule(t, rule, params))
}

// TestModuleKinds runs impl-constant and impl-launch over one cuTile module.
func TestModuleKinds(t *testing.T) {
	constantParams := &checks.ImplConstantParams{Kernel: []string{"cuda.tile.kernel"}, TileModule: "cuda.tile",
		Constant: []string{"cuda.tile.Constant"}, ConstArgs: []string{"arange:*", "load:2,shape"}}
	launchParams := &checks.ImplLaunchParams{Launch: []string{"cuda.tile.launch"}, TileModule: "cuda.tile"}
	// constant wraps a kernel into a module that registers k launching it.
	constant := func(kernel string) moduleCase {
		return moduleCase{"TG207", constantParams, "import cuda.tile as ct\nfrom tilegym.backend import register_impl\n\nConstInt = ct.Constant[int]\n\n@ct.kernel\n" + kernel +
			"\n@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kwargs):\n    ct.launch(None, (1,), kern, (x,))\n"}
	}
	// launch puts a kernel kern before the code that registers k.
	launch := func(body string) moduleCase {
		return moduleCase{"TG204", launchParams, "import functools\nimport cuda.tile as ct\nfrom tilegym.backend import register_impl\n\n@ct.kernel\ndef kern(x):\n    pass\n\n" + body}
	}
	cases := []struct {
		name string
		moduleCase
		want int
	}{
		{"constant: arange two args", constant("def kern(x, BLOCK):\n    ct.arange(0, BLOCK)\n"), 1},
		{"constant: arange annotated", constant("def kern(x, BLOCK: ct.Constant[int]):\n    ct.arange(0, BLOCK)\n"), 0},
		{"constant: load positional", constant("def kern(x, TILE):\n    ct.load(x, (0,), (TILE,))\n"), 1},
		{"constant: load keyword", constant("def kern(x, TILE):\n    ct.load(x, index=(0,), shape=(TILE, 2))\n"), 1},
		{"constant: shape of a value", constant("def kern(x, y):\n    ct.load(x, index=(0,), shape=(y.shape[0],))\n"), 0},
		{"constant: unrelated use", constant("def kern(x, n):\n    ct.gather(x, n)\n"), 0},
		{"constant: alias", constant("def kern(x, B: ConstInt):\n    ct.arange(B)\n"), 0},
		{"constant: reported once", constant("def kern(x, B):\n    ct.arange(B)\n    ct.arange(0, B)\n"), 1},
		{"constant: string annotation", constant("def kern(x, B: \"ct.Constant[int]\"):\n    ct.arange(B)\n"), 0},
		{"constant: starred args ignored", constant("def kern(*args):\n    ct.arange(*args)\n"), 0},
		{"launch: direct", launch("@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    ct.launch(None, (1,), kern, ())\n"), 0},
		{"launch: helper", launch("def _go(x):\n    ct.launch(None, (1,), kern, ())\n\n@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    _go(x)\n"), 0},
		{"launch: method", launch("class R:\n    def run(self):\n        ct.launch(None, (1,), kern, ())\n\n@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    R().run()\n"), 0},
		{"launch: autograd alias", launch("class F:\n    @staticmethod\n    def forward(ctx, x):\n        ct.launch(None, (1,), kern, ())\n\nf = F.apply\n\n@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    return f(x)\n"), 0},
		{"launch: partial", launch("@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    go = functools.partial(ct.launch, None)\n    go((1,), kern, ())\n"), 0},
		{"launch: call form", launch("def k(x, **kw):\n    ct.launch(None, (1,), kern, ())\n\nregister_impl(\"k\", backend=\"cutile\")(k)\n"), 0},
		{"launch: torch only", launch("@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    return x * 2\n"), 1},
		{"launch: launch elsewhere", launch("def unused():\n    ct.launch(None, (1,), kern, ())\n\n@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    return x\n"), 1},
	}
	for _, c := range cases {
		if ds := runOnModule(t, c.rule, c.params, c.mod); len(ds) != c.want {
			t.Errorf("%s: %d findings, want %d: %v", c.name, len(ds), c.want, ds)
		}
	}
}

// moduleCase is a rule (of the kind tested), its params and the cuTile
// module it runs over.
type moduleCase struct {
	rule   string
	params any
	mod    string
}

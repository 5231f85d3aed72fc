package checker

import (
	"testing"
)

// runKindOnFiles runs one kind with one rule over an in-memory repository.
func runKindOnFiles(t *testing.T, files map[string]string, a *Analyzer, params any) []Diagnostic {
	t.Helper()
	repo, err := Load(&MapSource{Dir: "mem", Files: files}, testLayout(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return runKind(t, repo, a, params, "{op} {param}")
}

func TestConstantParams(t *testing.T) {
	stub := "from tilegym.backend import dispatch\n\n@dispatch(\"k\")\ndef k(x, **kwargs):\n    raise NotImplementedError\n"
	params := &implConstantParams{Kernel: []string{"cuda.tile.kernel"}, TileModule: "cuda.tile",
		Constant: []string{"cuda.tile.Constant"}, ConstArgs: []string{"arange:*", "load:2,shape"}}
	cases := map[string]struct {
		kernel string
		want   int
	}{
		"arange two args":      {"def kern(x, BLOCK):\n    ct.arange(0, BLOCK)\n", 1},
		"arange annotated":     {"def kern(x, BLOCK: ct.Constant[int]):\n    ct.arange(0, BLOCK)\n", 0},
		"load positional":      {"def kern(x, TILE):\n    ct.load(x, (0,), (TILE,))\n", 1},
		"load keyword":         {"def kern(x, TILE):\n    ct.load(x, index=(0,), shape=(TILE, 2))\n", 1},
		"shape of a value":     {"def kern(x, y):\n    ct.load(x, index=(0,), shape=(y.shape[0],))\n", 0},
		"unrelated use":        {"def kern(x, n):\n    ct.gather(x, n)\n", 0},
		"alias":                {"def kern(x, B: ConstInt):\n    ct.arange(B)\n", 0},
		"reported once":        {"def kern(x, B):\n    ct.arange(B)\n    ct.arange(0, B)\n", 1},
		"string annotation":    {"def kern(x, B: \"ct.Constant[int]\"):\n    ct.arange(B)\n", 0},
		"starred args ignored": {"def kern(*args):\n    ct.arange(*args)\n", 0},
	}
	for name, c := range cases {
		mod := "import cuda.tile as ct\nfrom tilegym.backend import register_impl\n\nConstInt = ct.Constant[int]\n\n@ct.kernel\n" + c.kernel +
			"\n@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kwargs):\n    ct.launch(None, (1,), kern, (x,))\n"
		ds := runKindOnFiles(t, map[string]string{
			"src/tilegym/ops/ops.py":             stub,
			"src/tilegym/ops/cutile/k.py":        mod,
			"src/tilegym/ops/cutile/__init__.py": "",
		}, ImplConstantAnalyzer, params)
		if len(ds) != c.want {
			t.Errorf("%s: %d findings, want %d: %v", name, len(ds), c.want, ds)
		}
	}
}

func TestLaunchReachability(t *testing.T) {
	stub := "from tilegym.backend import dispatch\n\n@dispatch(\"k\")\ndef k(x, **kwargs):\n    raise NotImplementedError\n"
	params := &implLaunchParams{Launch: []string{"cuda.tile.launch"}, TileModule: "cuda.tile"}
	head := "import functools\nimport cuda.tile as ct\nfrom tilegym.backend import register_impl\n\n"
	cases := map[string]struct {
		body string
		want int
	}{
		"direct":           {"@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    ct.launch(None, (1,), kern, ())\n", 0},
		"helper":           {"def _go(x):\n    ct.launch(None, (1,), kern, ())\n\n@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    _go(x)\n", 0},
		"method":           {"class R:\n    def run(self):\n        ct.launch(None, (1,), kern, ())\n\n@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    R().run()\n", 0},
		"autograd alias":   {"class F:\n    @staticmethod\n    def forward(ctx, x):\n        ct.launch(None, (1,), kern, ())\n\nf = F.apply\n\n@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    return f(x)\n", 0},
		"partial":          {"@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    go = functools.partial(ct.launch, None)\n    go((1,), kern, ())\n", 0},
		"call form":        {"def k(x, **kw):\n    ct.launch(None, (1,), kern, ())\n\nregister_impl(\"k\", backend=\"cutile\")(k)\n", 0},
		"torch only":       {"@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    return x * 2\n", 1},
		"launch elsewhere": {"def unused():\n    ct.launch(None, (1,), kern, ())\n\n@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kw):\n    return x\n", 1},
	}
	for name, c := range cases {
		ds := runKindOnFiles(t, map[string]string{
			"src/tilegym/ops/ops.py":             stub,
			"src/tilegym/ops/cutile/k.py":        head + "@ct.kernel\ndef kern(x):\n    pass\n\n" + c.body,
			"src/tilegym/ops/cutile/__init__.py": "",
		}, ImplLaunchAnalyzer, params)
		if len(ds) != c.want {
			t.Errorf("%s: %d findings, want %d", name, len(ds), c.want)
		}
	}
}

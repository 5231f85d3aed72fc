package checks_test

import (
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/checks/checkstest"
	"github.com/tilegym/tilegym-lint/optable"
)

// moduleRepo is a repository of the op k: its stub and the cuTile module
// mod.
func moduleRepo(t *testing.T, mod string) *optable.Repo {
	t.Helper()
	return checkstest.LoadFiles(t, map[string]string{
		"src/tilegym/ops/ops.py":             "from tilegym.backend import dispatch\n\n@dispatch(\"k\")\ndef k(x, **kwargs):\n    raise NotImplementedError\n",
		"src/tilegym/ops/cutile/k.py":        mod,
		"src/tilegym/ops/cutile/__init__.py": "",
	})
}

// TestImplConstant runs impl-constant over a cuTile module whose kernel
// kern (launched by the registered k) uses its parameters.
func TestImplConstant(t *testing.T) {
	rule := checkstest.Rule(t, "TG207", &checks.ImplConstantParams{Kernel: []string{"cuda.tile.kernel"}, TileModule: "cuda.tile",
		Constant: []string{"cuda.tile.Constant"}, ConstArgs: []string{"arange:*", "load:2,shape"}})
	for name, kernel := range map[string]string{
		"arange two args": `def kern(x, BLOCK):  # want: TG207 "parameter \"BLOCK\" in ct.arange"
    ct.arange(0, BLOCK)
`,
		"arange annotated": `def kern(x, BLOCK: ct.Constant[int]):
    ct.arange(0, BLOCK)
`,
		"load positional": `def kern(x, TILE):  # want: TG207 "parameter \"TILE\" in ct.load"
    ct.load(x, (0,), (TILE,))
`,
		"load keyword": `def kern(x, TILE):  # want: TG207 "parameter \"TILE\" in ct.load"
    ct.load(x, index=(0,), shape=(TILE, 2))
`,
		"shape of a value": `def kern(x, y):
    ct.load(x, index=(0,), shape=(y.shape[0],))
`,
		"unrelated use": `def kern(x, n):
    ct.gather(x, n)
`,
		"alias": `def kern(x, B: ConstInt):
    ct.arange(B)
`,
		"reported once": `def kern(x, B):  # want: TG207 "annotate it B: ct.Constant\[int\]"
    ct.arange(B)
    ct.arange(0, B)
`,
		"string annotation": `def kern(x, B: "ct.Constant[int]"):
    ct.arange(B)
`,
		"starred args ignored": `def kern(*args):
    ct.arange(*args)
`,
	} {
		t.Run(name, func(t *testing.T) {
			mod := "import cuda.tile as ct\nfrom tilegym.backend import register_impl\n\nConstInt = ct.Constant[int]\n\n@ct.kernel\n" + kernel +
				"\n@register_impl(\"k\", backend=\"cutile\")\ndef k(x, **kwargs):\n    ct.launch(None, (1,), kern, (x,))\n"
			checkstest.Check(t, moduleRepo(t, mod), rule)
		})
	}
}

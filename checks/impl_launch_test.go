package checks_test

import (
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/checks/checkstest"
)

// TestImplLaunch runs impl-launch over a cuTile module with a kernel kern
// and the code that registers k after it.
func TestImplLaunch(t *testing.T) {
	rule := checkstest.Rule(t, "TG204", &checks.ImplLaunchParams{Launch: []string{"cuda.tile.launch"}, TileModule: "cuda.tile"})
	for name, body := range map[string]string{
		"direct": `@register_impl("k", backend="cutile")
def k(x, **kw):
    ct.launch(None, (1,), kern, ())
`,
		"helper": `def _go(x):
    ct.launch(None, (1,), kern, ())

@register_impl("k", backend="cutile")
def k(x, **kw):
    _go(x)
`,
		"method": `class R:
    def run(self):
        ct.launch(None, (1,), kern, ())

@register_impl("k", backend="cutile")
def k(x, **kw):
    R().run()
`,
		"autograd alias": `class F:
    @staticmethod
    def forward(ctx, x):
        ct.launch(None, (1,), kern, ())

f = F.apply

@register_impl("k", backend="cutile")
def k(x, **kw):
    return f(x)
`,
		"partial": `@register_impl("k", backend="cutile")
def k(x, **kw):
    go = functools.partial(ct.launch, None)
    go((1,), kern, ())
`,
		"call form": `def k(x, **kw):
    ct.launch(None, (1,), kern, ())

register_impl("k", backend="cutile")(k)
`,
		"torch only": `@register_impl("k", backend="cutile")
def k(x, **kw):  # want: TG204 "k never launches a kernel"
    return x * 2
`,
		"launch elsewhere": `def unused():
    ct.launch(None, (1,), kern, ())

@register_impl("k", backend="cutile")
def k(x, **kw):  # want: TG204 "k never launches a kernel"
    return x
`,
	} {
		t.Run(name, func(t *testing.T) {
			mod := "import functools\nimport cuda.tile as ct\nfrom tilegym.backend import register_impl\n\n@ct.kernel\ndef kern(x):\n    pass\n\n" + body
			checkstest.Check(t, moduleRepo(t, mod), rule)
		})
	}
}

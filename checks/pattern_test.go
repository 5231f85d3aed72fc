package checks_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/internal/corpus"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/source"
)

// TestPatternSnippets runs every pattern rule's valid and invalid snippets
// of the built-in catalog: each invalid one has a finding, no valid one has.
func TestPatternSnippets(t *testing.T) {
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range cat.Rules {
		p, ok := r.Params.(*checks.PatternParams)
		if !ok {
			continue
		}
		if len(p.Invalid) == 0 || len(p.Valid) == 0 {
			t.Errorf("%s: a pattern rule needs valid and invalid snippets", r.ID)
		}
		for _, s := range p.Invalid {
			f := source.ParseFile("src/tilegym/snippet.py", []byte(s))
			if f.Err != nil {
				t.Errorf("%s: invalid snippet does not parse: %v\n%s", r.ID, f.Err, s)
				continue
			}
			if len(p.FindDeclaring(f, checks.SnippetRequires(s))) == 0 {
				t.Errorf("%s: no finding on the invalid snippet\n%s", r.ID, s)
			}
			n++
		}
		for _, s := range p.Valid {
			f := source.ParseFile("src/tilegym/snippet.py", []byte(s))
			if f.Err != nil {
				t.Errorf("%s: valid snippet does not parse: %v\n%s", r.ID, f.Err, s)
				continue
			}
			if got := p.FindDeclaring(f, checks.SnippetRequires(s)); len(got) > 0 {
				t.Errorf("%s: %d findings on the valid snippet (first at %v)\n%s", r.ID, len(got), got[0].At.Pos(), s)
			}
			n++
		}
	}
	t.Logf("%d snippets", n)
}

// findAll (each rule offered only the node types it can match, names
// resolved once, one visitor for the walk) finds what findAllPlain finds,
// every rule offered every node, on every file of the corpus: the
// catalog's pattern rules, and patterns with a require, a bare
// metavariable and bindings kept.
func TestPatternFastMatchesPlain(t *testing.T) {
	ps := fastPlainRules(t)
	n := 0
	for _, f := range testrepo.CorpusFiles(t) {
		diffs, k := checks.PatternFastMismatches(f, ps)
		n += k
		for _, d := range diffs {
			t.Error(d)
		}
	}
	t.Logf("compared %d paths and matches", n)
	if n < 1000 {
		t.Errorf("compared %d paths and matches; the corpus holds more", n)
	}
}

// The same on files that reach a name in every way an import allows, and
// on every snippet of the catalog's pattern rules (run with -short too).
func TestPatternFastMatchesPlainSnippets(t *testing.T) {
	ps := fastPlainRules(t)
	srcs := []string{
		"import cuda.tile as ct\nfrom cuda.tile import launch as L, full\nfrom cuda import tile\n" +
			"@ct.kernel\ndef k(x, T: ct.Constant[int]):\n    ct.full((3, 4), 0)\n    full(x.shape, 1)\n    tile.arange(5)\n" +
			"    y = x.to(ct.float16)\n    ct.sigmoid(y)\n    L(s, lambda: 1, k, ())\n    for i in x:\n        pass\n" +
			"def run(x):\n    k.replace_hints(occupancy=40)\n    ct.launch(s, (1,), k, (x,))\n    L(s, [1], k, ())\n",
		"from triton import jit\nimport triton.language as tl\nimport triton\n@jit\ndef a(x):\n    tl.pointer_type(tl.float32)\n" +
			"@triton.jit\ndef b(x):\n    import cuda.tile as ct\n    ct.load(x, (0,), (4,))\n",
		"from os import environ, getenv as ge\nimport os\nv = environ.get('DISABLE_AUTOTUNE', '0')\nw = ge('DISABLE_AUTOTUNE')\n" +
			"u = os.environ['DISABLE_AUTOTUNE']\nfrom math import exp\nimport math\nexp(1)\nmath.exp(2)\nsetattr(x, 'y', 1)\n",
		"from . import helpers as h\nfrom .sub import launch\nlaunch(1)\nh.full(1)\nf(**a(2), **b(1))\n" +
			"key = (x.device, y)\ncfg_key = (a, t.device)\nx[0].to(1)\n(lambda: 1)()\nf()()\n",
	}
	for _, r := range testrepo.Catalog(t).Rules {
		if p, ok := r.Params.(*checks.PatternParams); ok {
			srcs = append(srcs, p.Valid...)
			srcs = append(srcs, p.Invalid...)
		}
	}
	n := 0
	for i, src := range srcs {
		f := source.ParseFile(fmt.Sprintf("src/tilegym/snippet%d.py", i), []byte(src))
		if f.AST == nil || f.AST.Module == nil {
			continue
		}
		diffs, k := checks.PatternFastMismatches(f, ps)
		n += k
		for _, d := range diffs {
			t.Error(d)
		}
	}
	if n < 1000 {
		t.Errorf("compared %d paths and matches; the snippets hold more", n)
	}
}

// fastPlainRules returns the catalog's pattern rules and more patterns (a
// require, a bare metavariable, ...), each also with its bindings kept.
func fastPlainRules(t *testing.T) []*checks.PatternParams {
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	var ps []*checks.PatternParams
	for _, r := range cat.Rules {
		if p, ok := r.Params.(*checks.PatternParams); ok {
			ps = append(ps, p, checks.PatternBinds(p))
		}
	}
	for _, p := range []*checks.PatternParams{
		{Require: "cuda.tile.kernel"},
		{Pattern: "cuda.tile.launch(...)", Require: "import torch"},
		{Pattern: "$F", Inside: []string{"module"}},
		{Pattern: "$X.shape", Inside: []string{"kernel"}},
		{Pattern: "$F(...)", Inside: []string{"cache-miss"}},
		{Nodes: []string{"Lambda", "Try"}, Pattern: "torch.$F"},
		{Any: []string{"$F", "triton.jit", "cuda.tile.launch"}},
		{Pattern: "f(..., **$X(1))"},
		{Pattern: "environ.get(...)", Require: "os.getenv(...)"},
	} {
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p, checks.PatternBinds(p))
	}
	return ps
}

// BenchmarkPatternRules runs every pattern rule of the catalog on the
// Python files under src/ of a TileGym tree ($TILEGYM_LINT_TREE), each
// file walked once for all of them, as the pattern kind does.
func BenchmarkPatternRules(b *testing.B) {
	repo, _ := corpus.Load(b, realtree.Need(b))
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		b.Fatal(err)
	}
	var ps []*checks.PatternParams
	for _, r := range cat.Rules {
		if p, ok := r.Params.(*checks.PatternParams); ok {
			ps = append(ps, p)
		}
	}
	var files []*source.File
	for _, p := range repo.Paths {
		if f := repo.Files[p]; strings.HasPrefix(p, "src/") && f.AST != nil && f.AST.Module != nil {
			files = append(files, f)
		}
	}
	find := checks.PatternFinder(ps)
	b.ResetTimer()
	defer testrepo.ReportCPU(b)()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			find(f)
		}
	}
}

package checks_test

import (
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
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
	} {
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p, checks.PatternBinds(p))
	}
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

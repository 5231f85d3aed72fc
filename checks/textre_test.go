package checks_test

import (
	"reflect"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/internal/corpus"
)

// The literals a text regexp's matches all contain: adjacent literals
// joined, one of each alternative's, none under a case fold, an optional
// part or a class.
func TestRequiredLiterals(t *testing.T) {
	for _, c := range []struct {
		src  string
		want [][]string
	}{
		{`(?m)^[^#\n]*\bct\.bid\(0\)`, [][]string{{"ct.bid(0)"}}},
		{`(?m)^[^#\n]*\bct\.(?:float32|float16|int32|bfloat16)\b`, [][]string{{"ct."}, {"float", "int32", "bfloat16"}}}, // float(?:32|16), factored
		{`(?m)^\s*(?:import cuda\.tile\b|from cuda\.tile\b|from cuda import tile\b)`, [][]string{{"import cuda.tile", "from cuda"}}},
		{`MODEL_TYPE\s*(?::[^=]*)?=\s*\{[^}]*\bapply\b`, [][]string{{"MODEL_TYPE"}, {"="}, {"{"}, {"apply"}}},
		{`(ab)+c{2,}`, [][]string{{"ab"}, {"c"}, {"c"}}}, // cc+
		{`x?y*z`, [][]string{{"z"}}},
		{`(?i)include`, nil},
		{`a|b*`, nil},
		{`[ab]`, nil},
		{`(?i:x)yz`, [][]string{{"yz"}}},
	} {
		got, err := checks.RequiredLiterals(c.src)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.src, got, c.want)
		}
	}
}

// The relation kind's text checks with their literal prefilter (a file
// lacking a literal every match contains is not searched) find what the
// regexp alone finds: every text regexp the catalog's relation rules
// compile on a repository, on every file of it, for every repository of
// the corpus and every snippet of the catalog.
func TestTextPrefilterMatchesPlain(t *testing.T) {
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	matched, rejected := 0, 0
	check := func(where string, tree *checks.Tree) {
		diffs, m, r := tree.TextPrefilterMismatches()
		for _, d := range diffs {
			t.Errorf("%s: %s", where, d)
		}
		matched += m
		rejected += r
	}
	for _, r := range cat.Rules {
		p, ok := r.Params.(*checks.RelationParams)
		if !ok {
			continue
		}
		for _, s := range append(append([]string(nil), p.Valid...), p.Invalid...) {
			tree := snippetTree(t, s)
			p.Find(tree, r.Files)
			check(r.ID+" snippet", tree)
		}
	}
	if !testing.Short() {
		for _, dir := range corpus.Dirs(t) {
			repo, _ := corpus.Load(t, dir)
			tree := checks.NewTree(repo)
			for _, r := range cat.Rules {
				if p, ok := r.Params.(*checks.RelationParams); ok {
					p.Find(tree, r.Files)
				}
			}
			check(dir, tree)
		}
	}
	t.Logf("%d (regexp, file) pairs matched, %d turned away by the prefilter", matched, rejected)
	if matched < 20 || rejected < 100 {
		t.Errorf("%d pairs matched and %d were turned away: the comparison exercises too little", matched, rejected)
	}
}

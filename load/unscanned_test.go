package load

import (
	"maps"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/layout"
	"golang.org/x/text/unicode/norm"
)

// TestUnscanned: CloseOver looks for each name once; a round with new ones
// looks for those only.
func TestUnscanned(t *testing.T) {
	core, suites := &layout.Scope{Name: "core"}, &layout.Scope{Name: "suites"}
	softmax := useTarget{q: "tilegym.ops.softmax", last: "softmax"}
	fwd := useTarget{q: "tilegym.ops.softmax_fwd", last: "softmax_fwd"}
	norm := useTarget{q: "tilegym.ops.layer_norm", last: "layer_norm"}
	ligerSoftmax := useTarget{q: "tilegym.suites.liger.ops.softmax", last: "softmax"}
	l := &Loader{}
	first := l.unscanned(&needs{
		names: WordSet{"softmax": true},
		uses:  []scopeUses{{scope: core, targets: []useTarget{softmax, fwd}}},
	})
	if len(first.names) != 1 || len(first.uses) != 1 || len(first.uses[0].targets) != 2 {
		t.Fatalf("first round: %+v", first)
	}
	second := l.unscanned(&needs{
		names: WordSet{"softmax": true, "layer_norm": true},
		uses: []scopeUses{
			{scope: core, targets: []useTarget{softmax, norm}},
			{scope: suites, suite: "liger", targets: []useTarget{ligerSoftmax}}, // the same word, another scope
		},
	})
	if len(second.names) != 1 || !second.names["layer_norm"] {
		t.Errorf("second round names = %v, want layer_norm only", second.names)
	}
	if diff := cmp.Diff([]scopeUses{{scope: core, targets: []useTarget{norm}, words: WordSet{"layer_norm": true}}, {scope: suites, suite: "liger", targets: []useTarget{ligerSoftmax}, words: WordSet{"softmax": true}}}, second.uses,
		cmp.AllowUnexported(scopeUses{}, useTarget{}), cmp.Comparer(func(a, b *layout.Scope) bool { return a == b })); diff != "" {
		t.Errorf("second round words (-want +got):\n%s", diff)
	}
	if third := l.unscanned(&needs{names: WordSet{"softmax": true}}); len(third.names) != 0 {
		t.Errorf("third round names = %v, want none", third.names)
	}
}

// TestHasQuoted checks hasQuoted, one pass for any number of names, against
// its reference, containsAny of every name quoted both ways.
func TestHasQuoted(t *testing.T) {
	names := WordSet{"softmax": true, "liger.jsd": true, "rms_norm": true}
	nd := &needs{names: names}
	for _, src := range []string{
		``, `softmax`, `"softmax"`, `'softmax'`, `"softmax'`, `x = "a""softmax"`, `'''softmax'''`,
		`register_impl("liger.jsd", backend="cutile")`, `"rms_norm_fwd"`, `"rms_norm`, `'"softmax"'`,
		`"" 'rms_norm' ""`, `"a" softmax "b"`, `"` + "soft\nmax" + `"`, `"'softmax'"`,
	} {
		want := containsAny([]byte(src), nd.quotedNames())
		if got := hasQuoted([]byte(src), names, longestWord(names)); got != want {
			t.Errorf("hasQuoted(%q) = %v, want %v (containsAny)", src, got, want)
		}
	}
	if hasQuoted([]byte(`"softmax"`), nil, 0) {
		t.Error("hasQuoted with no names found one")
	}
}

// TestFindAndStepAgainstReference compares WordSet.Find and needs.step,
// which look a word up per run and per substring length, with plain scans
// over every word and target (findRef, stepRef), on random names, paths
// and texts with non-ASCII runs.
func TestFindAndStepAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 17))
	alphabet := []string{"a", "b", "_", "x", "1", "ｂ", "é", " ", ".", "\n", "(", "ﬀ"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	word := func() string {
		w := text(1 + rng.IntN(4))
		w = strings.Map(func(r rune) rune {
			if strings.ContainsRune(" .\n(", r) {
				return 'a'
			}
			return r
		}, w)
		return norm.NFKC.String(w)
	}
	core := &layout.Scope{Name: "core", Tests: []string{"tests/**"}, Benchmarks: []string{"bench/**"}}
	for i := range 3000 {
		ws := WordSet{}
		var targets []useTarget
		for range 1 + rng.IntN(6) {
			w := word()
			ws[w] = true
			targets = append(targets, useTarget{q: "tilegym.ops." + w, last: w, testsOnly: rng.IntN(3) == 0})
		}
		src := []byte(text(rng.IntN(40)))
		got := map[string]bool{}
		for _, w := range ws.Find(src) {
			if got[w] {
				t.Fatalf("Find(%q) returned %q twice", src, w)
			}
			got[w] = true
		}
		if want := findRef(ws, src); !maps.Equal(got, want) {
			t.Fatalf("case %d: Find(%q) over %v = %v, want %v", i, src, ws, got, want)
		}
		dir := []string{"tests/", "bench/"}[rng.IntN(2)]
		p := dir + strings.ReplaceAll(text(1+rng.IntN(6)), "\n", "n") + []string{"", ".py"}[rng.IntN(2)]
		nd := &needs{uses: []scopeUses{{scope: core, targets: targets, words: ws}}}
		nd.indexUses()
		if got, want := nd.step(p, src), nd.stepRef(p, src); got != want {
			t.Fatalf("case %d: step(%q, %q) over %v = %v, want %v", i, p, src, targets, got, want)
		}
	}
}

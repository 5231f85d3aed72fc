package load

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/layout"
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
		uses:  []scopeUses{{core, "", []useTarget{softmax, fwd}, nil}},
	})
	if len(first.names) != 1 || len(first.uses) != 1 || len(first.uses[0].targets) != 2 {
		t.Fatalf("first round: %+v", first)
	}
	second := l.unscanned(&needs{
		names: WordSet{"softmax": true, "layer_norm": true},
		uses: []scopeUses{
			{core, "", []useTarget{softmax, norm}, nil},
			{suites, "liger", []useTarget{ligerSoftmax}, nil}, // the same word, another scope
		},
	})
	if len(second.names) != 1 || !second.names["layer_norm"] {
		t.Errorf("second round names = %v, want layer_norm only", second.names)
	}
	if diff := cmp.Diff([]scopeUses{{core, "", []useTarget{norm}, WordSet{"layer_norm": true}}, {suites, "liger", []useTarget{ligerSoftmax}, WordSet{"softmax": true}}}, second.uses,
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
		if got := hasQuoted([]byte(src), names); got != want {
			t.Errorf("hasQuoted(%q) = %v, want %v (containsAny)", src, got, want)
		}
	}
	if hasQuoted([]byte(`"softmax"`), nil) {
		t.Error("hasQuoted with no names found one")
	}
}

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
		uses:  []scopeUses{{core, "", []useTarget{softmax, fwd}}},
	})
	if len(first.names) != 1 || len(first.uses) != 1 || len(first.uses[0].targets) != 2 {
		t.Fatalf("first round: %+v", first)
	}
	second := l.unscanned(&needs{
		names: WordSet{"softmax": true, "layer_norm": true},
		uses: []scopeUses{
			{core, "", []useTarget{softmax, norm}},
			{suites, "liger", []useTarget{ligerSoftmax}}, // the same word, another scope
		},
	})
	if len(second.names) != 1 || !second.names["layer_norm"] {
		t.Errorf("second round names = %v, want layer_norm only", second.names)
	}
	if diff := cmp.Diff([]scopeUses{{core, "", []useTarget{norm}}, {suites, "liger", []useTarget{ligerSoftmax}}}, second.uses,
		cmp.AllowUnexported(scopeUses{}, useTarget{}), cmp.Comparer(func(a, b *layout.Scope) bool { return a == b })); diff != "" {
		t.Errorf("second round words (-want +got):\n%s", diff)
	}
	if third := l.unscanned(&needs{names: WordSet{"softmax": true}}); len(third.names) != 0 {
		t.Errorf("third round names = %v, want none", third.names)
	}
}

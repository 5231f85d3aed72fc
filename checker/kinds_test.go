package checker

import (
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/rules"
)

// TestKindProperties: the driver and change mode treat a kind's findings
// apart by the kind's properties, not its name: each property is held by
// the one kind it describes, and a rule of no registered kind has none.
func TestKindProperties(t *testing.T) {
	for _, c := range []struct {
		prop string
		has  func(*checks.Analyzer) bool
		want string
	}{
		{"ParseErrors", func(a *checks.Analyzer) bool { return a.ParseErrors }, "parse-error"},
		{"Suppressions", func(a *checks.Analyzer) bool { return a.Suppressions }, "suppression"},
		{"Undeclared", func(a *checks.Analyzer) bool { return a.Undeclared }, "impl-orphan"},
	} {
		var got []string
		for _, a := range checks.Kinds() {
			if c.has(a) {
				got = append(got, a.Name)
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("kinds with %s: %v, want [%s]", c.prop, got, c.want)
		}
		if k := KindOf(analysis.Diagnostic{Rule: &rules.Rule{Kind: c.want}}); !c.has(k) {
			t.Errorf("KindOf(a finding of kind %s) lacks %s", c.want, c.prop)
		}
		if k := KindOf(analysis.Diagnostic{Rule: &rules.Rule{Kind: "no-such-kind"}}); c.has(k) {
			t.Errorf("KindOf(a finding of no registered kind) has %s", c.prop)
		}
	}
}

package main

import (
	"slices"
	"testing"

	"github.com/tilegym/tilegym-lint/rules"
)

// A family's prefix selects its rules only; another selector is a prefix
// of ids.
func TestMatchRulesFamily(t *testing.T) {
	cat := &rules.Catalog{
		Families: []*rules.Family{{Prefix: "TG", Steps: true}, {Prefix: "TR"}, {Prefix: "K"}},
		Rules:    []*rules.Rule{{ID: "TG301", Family: "TG"}, {ID: "TR01", Family: "TR"}, {ID: "K01", Family: "K"}, {ID: "K12", Family: "K"}},
	}
	for sel, want := range map[string][]string{
		"tr": {"TR01"}, "T": {"TG301", "TR01"}, "K": {"K01", "K12"}, "K1": {"K12"}, "TG3": {"TG301"},
	} {
		if got := matchRules(cat, sel); !slices.Equal(got, want) {
			t.Errorf("matchRules(%q) = %v, want %v", sel, got, want)
		}
	}
}

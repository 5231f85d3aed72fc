package config

import (
	"testing"

	"github.com/tilegym/tilegym-lint/rules"
)

// A configuration disables a whole family by its prefix.
func TestEnabledRulesFamily(t *testing.T) {
	cat := &rules.Catalog{Rules: []*rules.Rule{
		{ID: "TG301", Family: "TG"}, {ID: "K01", Family: "K"}, {ID: "K03", Family: "K"}, {ID: "A02", Family: "A"},
	}}
	var got []string
	for _, r := range (&Setup{Catalog: cat, Config: &Config{Disable: []string{"K", "TG301"}}}).EnabledRules() {
		got = append(got, r.ID)
	}
	if len(got) != 1 || got[0] != "A02" {
		t.Errorf("enabled = %v, want [A02]", got)
	}
	if n := len((&Setup{Catalog: cat}).EnabledRules()); n != 4 {
		t.Errorf("no configuration: %d rules enabled, want 4", n)
	}
}

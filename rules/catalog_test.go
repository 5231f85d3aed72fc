package rules_test

import (
	"reflect"
	"strings"
	"testing"

	tilegymlint "github.com/tilegym/tilegym-lint"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/rules"
)

// The built-in catalog is loaded against the registered check kinds, so
// that every rule's params are decoded strictly into its kind's struct.
func loadEmbedded(t *testing.T) *rules.Catalog {
	t.Helper()
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatalf("built-in catalog: %v", err)
	}
	return cat
}

// TestBuiltinEqualsParsed checks that the catalog loaded from its
// pre-decoded table is the one loaded by parsing rules.toml.
func TestBuiltinEqualsParsed(t *testing.T) {
	parsed, err := checks.LoadCatalog(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		t.Fatalf("rules.toml: %v", err)
	}
	if builtin := loadEmbedded(t); !reflect.DeepEqual(builtin, parsed) {
		t.Errorf("the built-in catalog differs from rules.toml parsed: run go generate ./...")
	}
}

// TestCatalogCoversRequirements is the completeness gate: every
// requirement of docs/requirements.md has a rule in the built-in
// rules.toml, and every rule cites a known requirement (Load checks that).
func TestCatalogCoversRequirements(t *testing.T) {
	cat := loadEmbedded(t)
	cited := map[string]bool{}
	for _, r := range cat.Rules {
		cited[r.Requirement] = true
	}
	var missing []string
	for _, req := range rules.Requirements() {
		if !cited[req] {
			missing = append(missing, req)
		}
	}
	if len(missing) > 0 {
		t.Errorf("requirements with no rule in rules.toml: %s", strings.Join(missing, " "))
	}
	if len(rules.Requirements()) < 30 {
		t.Errorf("only %d requirements read from docs/requirements.md", len(rules.Requirements()))
	}
}

func TestEmbeddedLayout(t *testing.T) {
	cat := loadEmbedded(t)
	names := map[string]bool{}
	for _, s := range cat.Layout.Scopes {
		names[s.Name] = true
	}
	if !names["core"] || !names["suites"] {
		t.Errorf("layout scopes = %v, want core and suites", names)
	}
	if cat.Rule("TG001") == nil || cat.Rule("TG001").Kind != "parse-error" {
		t.Errorf("TG001 missing or of the wrong kind")
	}
}

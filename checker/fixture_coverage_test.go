package checker

import (
	"os"
	"path/filepath"
	"testing"

	tilegymlint "github.com/tilegym/tilegym-lint"
)

// TestSteps123EachRuleHasFixture checks that every cross-step and Step 1-3
// rule of the catalog (but the driver's parse-error rule) is broken by some
// fixture whose only wanted findings are that rule's.
func TestSteps123EachRuleHasFixture(t *testing.T) {
	cat, err := LoadCatalog(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob("../fixtures/*")
	alone := map[string]bool{}
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		ids := map[string]bool{}
		for _, rs := range wantedFindings(t, &DiskSource{Dir: dir}) {
			for _, id := range rs {
				ids[id] = true
			}
		}
		if len(ids) == 1 {
			for id := range ids {
				alone[id] = true
			}
		}
	}
	n := 0
	for _, r := range cat.Rules {
		if r.Step > 3 || r.Kind == ParseErrorAnalyzer.Name {
			continue
		}
		n++
		if !alone[r.ID] {
			t.Errorf("%s: no fixture breaks this rule alone", r.ID)
		}
	}
	if n < 20 {
		t.Errorf("only %d cross-step and Step 1-3 rules in the catalog", n)
	}
}

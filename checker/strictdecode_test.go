package checker

import (
	"reflect"
	"testing"

	tilegymlint "github.com/tilegym/tilegym-lint"
	"github.com/tilegym/tilegym-lint/rules"
)

// TestStrictDecodeParams checks that rules.StrictDecode decodes the params
// of every rule of the built-in catalog into its kind's struct exactly as
// the re-encoding reference, rules.StrictDecodeSlow, does.
func TestStrictDecodeParams(t *testing.T) {
	m, _, err := rules.ParseTOML(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range m["rule"].([]map[string]any) {
		kind, _ := r["kind"].(string)
		newParams, ok := KindParams(kind)
		if !ok || newParams == nil {
			continue
		}
		pt, _ := r["params"].(map[string]any)
		if pt == nil {
			pt = map[string]any{}
		}
		fast, slow := newParams(), newParams()
		fu, fe := rules.StrictDecode(pt, fast)
		su, se := rules.StrictDecodeSlow(pt, slow)
		if fe != nil || se != nil || len(fu) != 0 || len(su) != 0 || !reflect.DeepEqual(fast, slow) {
			t.Errorf("rule %v (%s): fast %+v %v %v, slow %+v %v %v", r["id"], kind, fast, fu, fe, slow, su, se)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no params decoded")
	}
}

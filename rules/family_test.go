package rules

import (
	"slices"
	"strings"
	"testing"
)

const familyCatalog = `version = 1
[[family]]
prefix = "TG"
name = "adding a cuTile kernel"
skill = "skills/tilegym-adding-cutile-kernel"
steps = true

[[family]]
prefix = "K"
name = "cuTile kernel code"
skill = "skills/tilegym-cutile-python"
requirements = ["K1", "K3"]

[lists]
names = ["a", "b"]
`

func familyRule(id, extra string) string {
	return `
[[rule]]
id = "` + id + `"
` + extra + `
severity = "error"
title = "t"
message = "m"
kind = "plain"
[rule.docs]
what = "w"
why = "y"
fix = "f"
`
}

func TestFamilies(t *testing.T) {
	cat, err := Load([]byte(familyCatalog+familyRule("K01", `requirement = "K1"`)+goodRule), "c.toml", testKinds)
	if err != nil {
		t.Fatal(err)
	}
	if got := cat.Rule("K01").Family; got != "K" {
		t.Errorf("K01 family %q, want K", got)
	}
	if got := cat.Rule("TG301").Family; got != "TG" {
		t.Errorf("TG301 family %q, want TG", got)
	}
	if f := cat.Family("K"); f == nil || f.Steps || f.Skill != "skills/tilegym-cutile-python" {
		t.Errorf("family K = %+v", f)
	}
	if got := cat.Lists["names"].Values(); len(got) != 2 {
		t.Errorf("lists.names = %v", got)
	}
}

func TestFamilyErrors(t *testing.T) {
	for _, tc := range []struct{ rule, want string }{
		{familyRule("K01", `requirement = "K2"`), `unknown requirement "K2"`},
		{familyRule("K01", "requirement = \"K1\"\nstep = 2"), "family K has no steps"},
		{familyRule("K001", `requirement = "K1"`), "want K and two digits"},
		{familyRule("Q01", `requirement = "K1"`), "starts with no family's prefix"},
	} {
		_, err := Load([]byte(familyCatalog+tc.rule), "c.toml", testKinds)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.rule, err, tc.want)
		}
	}
	// A prefix that starts another one would make ids ambiguous.
	bad := familyCatalog + "[[family]]\nprefix = \"KX\"\nname = \"n\"\nskill = \"s\"\nrequirements = [\"KX1\"]\n"
	if _, err := Load([]byte(bad), "c.toml", testKinds); err == nil || !strings.Contains(err.Error(), "starts with the prefix of family K") {
		t.Errorf("KX after K: %v", err)
	}
	// A catalog without [[family]] has TG alone.
	cat, err := Load([]byte("version = 1\n"+goodRule), "c.toml", testKinds)
	if err != nil || len(cat.Families) != 1 || cat.Families[0].Prefix != TG {
		t.Errorf("default families: %v %v", cat, err)
	}
}

// A family's prefix selects its rules only; another selector is a prefix
// of ids.
func TestMatchFamily(t *testing.T) {
	cat := &Catalog{
		Families: []*Family{{Prefix: "TG", Steps: true}, {Prefix: "TR"}, {Prefix: "K"}},
		Rules:    []*Rule{{ID: "TG301", Family: "TG"}, {ID: "TR01", Family: "TR"}, {ID: "K01", Family: "K"}, {ID: "K12", Family: "K"}},
	}
	for sel, want := range map[string][]string{
		"tr": {"TR01"}, "T": {"TG301", "TR01"}, "K": {"K01", "K12"}, "K1": {"K12"}, "TG3": {"TG301"},
	} {
		if got := cat.Match(sel); !slices.Equal(got, want) {
			t.Errorf("Match(%q) = %v, want %v", sel, got, want)
		}
	}
}

package rules

import (
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/python/requires"
)

const gatedLists = `
[lists]
names = [
  "exp",
  { when = "cuda-tile >= 1.1", value = "abs" },
  { when = "cuda_tile >=1.3, <2", values = ["tune", "compilation"] },
]
[lists.deprecated]
when = "cuda-tile >= 1.3"
values = ["old", { when = "numpy >= 2", value = "both" }]
`

// noLists is familyCatalog without its [lists].
var noLists = strings.Replace(familyCatalog, "[lists]\nnames = [\"a\", \"b\"]\n", "", 1)

func admittedBy(t *testing.T, spec string) func(string) requires.Range {
	r, err := requires.ParseSpecifiers(spec)
	if err != nil {
		t.Fatal(err)
	}
	return func(dep string) requires.Range {
		if dep == "cuda-tile" {
			return r
		}
		return requires.All
	}
}

func TestGatedLists(t *testing.T) {
	cat, err := Load([]byte(noLists+gatedLists+familyRule("K01", `requirement = "K1"`)+goodRule), "c.toml", testKinds)
	if err != nil {
		t.Fatal(err)
	}
	names, dep := cat.Lists["names"], cat.Lists["deprecated"]
	if got := strings.Join(names.Values(), " "); got != "exp abs tune compilation" {
		t.Errorf("names = %s", got)
	}
	for _, c := range []struct {
		list        *List
		value, spec string
		want        Membership
	}{
		{names, "exp", "", Member},
		{names, "exp", "==1.0", Member},
		{names, "sigmoid", ">=1.3", NotMember},
		{names, "abs", "", MaybeMember}, // no version declared
		{names, "abs", ">=1.1", Member},
		{names, "abs", ">=1.0", MaybeMember},
		{names, "abs", "==1.0.1", NotMember},
		{names, "tune", ">=1.3.0", MaybeMember}, // 2.0 may come
		{names, "tune", "~=1.4", Member},
		{names, "tune", "<1.3", NotMember},
		{names, "tune", ">=2", NotMember},
		{dep, "old", ">=1.3.0", Member},
		{dep, "old", "<1.3", NotMember},
		{dep, "old", "", MaybeMember},
		{dep, "both", ">=1.3", MaybeMember}, // numpy undeclared
		{dep, "both", "<1.3", NotMember},    // one gate fails: out
		{nil, "x", "", NotMember},
	} {
		if got := c.list.Member(c.value, admittedBy(t, c.spec)); got != c.want {
			t.Errorf("%s in %v with cuda-tile %q: %v, want %v", c.value, c.list.Values(), c.spec, got, c.want)
		}
	}
}

func TestGatedListErrors(t *testing.T) {
	for _, c := range []struct{ lists, want string }{
		{`x = [{ when = "cuda-tile", value = "a" }]`, `gate "cuda-tile" names no version`},
		{`x = [{ when = "cuda-tile >= one", value = "a" }]`, `invalid version`},
		{`x = [{ when = "cuda-tile >= 1.3", vale = "a" }]`, `unknown key "vale"`},
		{`x = [{ when = "cuda-tile >= 1.3" }]`, `no value or values`},
		{`x = [{ value = "a" }]`, `want when =`},
		{`x = [{ when = "cuda-tile[x] >= 1.3", value = "a" }]`, `no extras, URL or marker`},
		{`x = [{ when = "cuda-tile >= 2, < 1", value = "a" }]`, `no version is in the range`},
		{`x = [{ when = "cuda-tile >= 1.3", value = "a", values = ["b"] }]`, `give one of value and values`},
		{`x = [1]`, `item 1: want a string or a table`},
		{`x = "a"`, `want a list of strings`},
	} {
		_, err := Load([]byte(noLists+"\n[lists]\n"+c.lists+"\n"+goodRule), "c.toml", testKinds)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.lists, err, c.want)
		}
	}
}

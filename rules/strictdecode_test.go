package rules

import (
	"reflect"
	"testing"

	tilegymlint "github.com/tilegym/tilegym-lint"
)

type sdInner struct {
	A string   `toml:"a"`
	B []string `toml:"b"`
}

type sdAll struct {
	S     string              `toml:"s"`
	L     []string            `toml:"l"`
	I     int                 `toml:"i"`
	P     *int                `toml:"p"`
	B     bool                `toml:"b"`
	Is    []int               `toml:"is"`
	M     map[string]string   `toml:"m"`
	ML    map[string][]string `toml:"ml"`
	T     []sdInner           `toml:"t"`
	Ptr   *sdInner            `toml:"ptr"`
	In    sdInner             `toml:"in"`
	F     float64             `toml:"f"`
	Any   any                 `toml:"any"`
	Skip  string              `toml:"-"`
	NoTag string
}

// TestStrictDecodeFast checks StrictDecode against StrictDecodeSlow (the
// re-encoding reference) on documents of every shape the catalog and the
// configuration use, and on unknown keys and type mismatches, starting from
// zero values and from defaults.
func TestStrictDecodeFast(t *testing.T) {
	docs := []string{
		``,
		`s = "x"`,
		`s = "x"
l = ["a", "b"]
i = 3
p = 4
b = true
is = [1, 2]
m = { a = "1", b = "2" }
ml = { a = ["1"], b = [] }
t = [{ a = "x", b = ["y"] }, { a = "z" }]
ptr = { a = "q" }
in = { b = [] }`,
		`l = []`,
		`is = []`,
		`NoTag = "n"`,
		`notag = "n"`,
		`S = "case"`,
		`unknown = 1`,
		`in = { a = "x", nope = 2 }`,
		`s = 1`,
		`l = "x"`,
		`l = [1]`,
		`i = "x"`,
		`f = 1.5`,
		`any = [1, "a"]`,
		`m = { a = 1 }`,
		`t = [{ a = 1 }]`,
		`ptr = "x"`,
		`Skip = "x"`,
	}
	defaults := func() *sdAll {
		p := 9
		return &sdAll{S: "d", L: []string{"d1", "d2", "d3"}, I: 7, P: &p, M: map[string]string{"k": "v"}, T: []sdInner{{A: "d"}}}
	}
	for _, doc := range docs {
		m, _, err := ParseTOML([]byte(doc), "t.toml")
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		for _, start := range []func() *sdAll{func() *sdAll { return &sdAll{} }, defaults} {
			fast, slow := start(), start()
			fu, fe := StrictDecode(m, fast)
			su, se := StrictDecodeSlow(m, slow)
			if (fe == nil) != (se == nil) || fe != nil && fe.Error() != se.Error() {
				t.Errorf("%q: error %v, want %v", doc, fe, se)
			}
			if !reflect.DeepEqual(fu, su) {
				t.Errorf("%q: unknown %q, want %q", doc, fu, su)
			}
			if se == nil && !reflect.DeepEqual(fast, slow) {
				t.Errorf("%q: decoded %+v, want %+v", doc, fast, slow)
			}
		}
	}
}

type sdBase struct {
	Name string   `toml:"name"`
	Dec  []string `toml:"decorator"`
}

// sdEmbed embeds a struct, as the benchmark kinds' params do: its fields
// are promoted.
type sdEmbed struct {
	sdBase
	Timers []string `toml:"timers"`
}

// sdEmbedClash has a promoted key that is also its own: left to the slow path.
type sdEmbedClash struct {
	sdBase
	Name string `toml:"name"`
}

type sdEmbedPtr struct {
	*sdBase
	Timers []string `toml:"timers"`
}

// TestStrictDecodeEmbedded checks StrictDecode against StrictDecodeSlow on
// structs with an embedded struct.
func TestStrictDecodeEmbedded(t *testing.T) {
	docs := []string{
		``,
		`name = "bench_{func}"`,
		`name = "x"
decorator = ["a", "b"]
timers = ["t"]`,
		`timers = []`,
		`unknown = 1`,
		`name = 1`,
		`sdBase = { name = "x" }`,
		`Name = "x"`,
	}
	for _, doc := range docs {
		m, _, err := ParseTOML([]byte(doc), "t.toml")
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		for _, mk := range []func() any{
			func() any { return &sdEmbed{} },
			func() any {
				return &sdEmbed{sdBase: sdBase{Name: "d", Dec: []string{"d"}}, Timers: []string{"t0", "t1"}}
			},
			func() any { return &sdEmbedClash{} },
		} {
			fast, slow := mk(), mk()
			fu, fe := StrictDecode(m, fast)
			su, se := StrictDecodeSlow(m, slow)
			if (fe == nil) != (se == nil) || fe != nil && fe.Error() != se.Error() {
				t.Errorf("%q %T: error %v, want %v", doc, fast, fe, se)
			}
			if !reflect.DeepEqual(fu, su) {
				t.Errorf("%q %T: unknown %q, want %q", doc, fast, fu, su)
			}
			if se == nil && !reflect.DeepEqual(fast, slow) {
				t.Errorf("%q %T: decoded %+v, want %+v", doc, fast, fast, slow)
			}
		}
	}
	if _, ok := fastFields(reflect.TypeFor[sdEmbed]()); !ok {
		t.Error("sdEmbed: not on the fast path")
	}
	if _, ok := fastFields(reflect.TypeFor[sdEmbedPtr]()); ok {
		t.Error("sdEmbedPtr (an embedded pointer): on the fast path")
	}
}

// TestStrictDecodeCatalog checks StrictDecode against StrictDecodeSlow on
// every table of the built-in catalog that Load decodes (rules without
// their params, the layout and its scopes).
func TestStrictDecodeCatalog(t *testing.T) {
	m, _, err := ParseTOML(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	rulesList, _ := m["rule"].([]map[string]any)
	if len(rulesList) == 0 {
		t.Fatal("no rules")
	}
	for i, r := range rulesList {
		rest := map[string]any{}
		for k, v := range r {
			if k != "params" {
				rest[k] = v
			}
		}
		var fast, slow rawRule
		fu, fe := StrictDecode(rest, &fast)
		su, se := StrictDecodeSlow(rest, &slow)
		if fe != nil || se != nil || len(fu) != 0 || len(su) != 0 || !reflect.DeepEqual(fast, slow) {
			t.Errorf("rule %d: fast %+v %v %v, slow %+v %v %v", i, fast, fu, fe, slow, su, se)
		}
	}
	layout, _ := m["layout"].(map[string]any)
	for _, sc := range layout["scope"].([]map[string]any) {
		var fast, slow ScopeSpec
		StrictDecode(sc, &fast)
		StrictDecodeSlow(sc, &slow)
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("scope: fast %+v, slow %+v", fast, slow)
		}
	}
}

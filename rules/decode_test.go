package rules

import (
	"reflect"
	"strings"
	"testing"
)

type dInner struct {
	A string   `toml:"a"`
	B []string `toml:"b"`
}

type dAll struct {
	S     string              `toml:"s"`
	L     []string            `toml:"l"`
	I     int                 `toml:"i"`
	P     *int                `toml:"p"`
	B     bool                `toml:"b"`
	Is    []int               `toml:"is"`
	M     map[string]string   `toml:"m"`
	ML    map[string][]string `toml:"ml"`
	T     []dInner            `toml:"t"`
	Ptr   *dInner             `toml:"ptr"`
	In    dInner              `toml:"in"`
	F     float64             `toml:"f"`
	Any   any                 `toml:"any"`
	Sev   Severity            `toml:"sev"`
	Skip  string              `toml:"-"`
	NoTag string
}

type dBase struct {
	Name string   `toml:"name"`
	Dec  []string `toml:"decorator"`
}

// dEmbed embeds a struct, as the benchmark kinds' params do.
type dEmbed struct {
	dBase
	Timers []string `toml:"timers"`
}

// dShadow has a key of its own that its embedded struct also has.
type dShadow struct {
	dBase
	Name int `toml:"name"`
}

func decodeDoc(t *testing.T, doc string, v any) ([][]string, []*typeError) {
	t.Helper()
	m, _, err := ParseTOML([]byte(doc), "t.toml")
	if err != nil {
		t.Fatalf("%q: %v", doc, err)
	}
	unknown, _, errs := strictDecode(m, v)
	return unknown, errs
}

func TestStrictDecodeValues(t *testing.T) {
	var got dAll
	unknown, err := decodeDoc(t, `s = "x"
l = ["a", "b"]
i = 3
p = 4
b = true
is = [1, 2]
m = { a = "1", b = "2" }
ml = { a = ["1"], b = [] }
t = [{ a = "x", b = ["y"] }, { a = "z" }]
ptr = { a = "q" }
in = { b = [] }
f = 1
any = [1, "a"]
sev = "warning"
NoTag = "n"`, &got)
	if unknown != nil || err != nil {
		t.Fatalf("unknown %q, error %v", unknown, err)
	}
	four := 4
	want := dAll{
		S: "x", L: []string{"a", "b"}, I: 3, P: &four, B: true, Is: []int{1, 2},
		M: map[string]string{"a": "1", "b": "2"}, ML: map[string][]string{"a": {"1"}, "b": {}},
		T: []dInner{{A: "x", B: []string{"y"}}, {A: "z"}}, Ptr: &dInner{A: "q"}, In: dInner{B: []string{}},
		F: 1, Any: []any{int64(1), "a"}, Sev: Warning, NoTag: "n",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
	}
}

// TestStrictDecodeDefaults checks that an array replaces a default slice
// (without writing into its backing array) and a table adds to a default map.
func TestStrictDecodeDefaults(t *testing.T) {
	def := []string{"d1", "d2", "d3"}
	got := dAll{S: "d", L: def, M: map[string]string{"k": "v"}}
	if unknown, err := decodeDoc(t, "l = [\"a\"]\nm = { a = \"1\" }", &got); unknown != nil || err != nil {
		t.Fatalf("unknown %q, error %v", unknown, err)
	}
	if got.S != "d" || !reflect.DeepEqual(got.L, []string{"a"}) || !reflect.DeepEqual(got.M, map[string]string{"k": "v", "a": "1"}) {
		t.Errorf("decoded %+v", got)
	}
	if def[0] != "d1" {
		t.Errorf("the default slice was written to: %q", def)
	}
}

func TestStrictDecodeUnknown(t *testing.T) {
	for doc, want := range map[string][][]string{
		`unknown = 1`:                      {{"unknown"}},
		`in = { a = "x", nope = 2 }`:       {{"in", "nope"}},
		`t = [{ a = "x" }, { c = 1 }]`:     {{"t", "1", "c"}},
		`S = "case"`:                       {{"S"}}, // keys are case-sensitive
		`notag = "n"`:                      {{"notag"}},
		`Skip = "x"`:                       {{"Skip"}},
		"z = { deep = { er = 1 } }\ny = 2": {{"y"}, {"z"}}, // the outermost key only, in order
	} {
		var v dAll
		unknown, err := decodeDoc(t, doc, &v)
		if err != nil || !reflect.DeepEqual(unknown, want) {
			t.Errorf("%q: unknown %q, error %v; want unknown %q", doc, unknown, err, want)
		}
	}
}

func TestStrictDecodeTypeErrors(t *testing.T) {
	for doc, want := range map[string]string{
		`s = 1`:           "s: want a string, got an integer",
		`l = "x"`:         "l: want an array, got a string",
		`l = [1]`:         "l.0: want a string, got an integer",
		`i = "x"`:         "i: want an integer, got a string",
		`i = 1.5`:         "i: want an integer, got a float",
		`b = 1`:           "b: want a boolean, got an integer",
		`m = { a = 1 }`:   "m.a: want a string, got an integer",
		`t = [{ a = 1 }]`: "t.0.a: want a string, got an integer",
		`ptr = "x"`:       "ptr: want a table, got a string",
		`in = []`:         "in: want a table, got an array",
		// every one, in key order; the other keys are decoded
		"a0 = 1\ni = \"x\"\ns = 2\nl = [\"a\", 2]\nb = true": "a0 unknown; i: want an integer, got a string; l.1: want a string, got an integer; s: want a string, got an integer",
	} {
		var v dAll
		unknown, errs := decodeDoc(t, doc, &v)
		var got []string
		for _, k := range unknown {
			got = append(got, strings.Join(k, ".")+" unknown")
		}
		for _, e := range errs {
			got = append(got, strings.Join(e.key, ".")+": "+e.msg)
		}
		if g := strings.Join(got, "; "); g != want {
			t.Errorf("%q: errors %q, want %q", doc, g, want)
		}
		if strings.HasPrefix(doc, "a0") && (!v.B || v.L != nil) {
			t.Errorf("%q: decoded %+v, want b set and l left nil", doc, v)
		}
	}
}

func TestStrictDecodeEmbedded(t *testing.T) {
	var e dEmbed
	unknown, err := decodeDoc(t, "name = \"bench_{func}\"\ndecorator = [\"a\"]\ntimers = [\"t\"]\ndBase = 1", &e)
	if err != nil || !reflect.DeepEqual(unknown, [][]string{{"dBase"}}) {
		t.Fatalf("unknown %q, error %v", unknown, err)
	}
	if want := (dEmbed{dBase{"bench_{func}", []string{"a"}}, []string{"t"}}); !reflect.DeepEqual(e, want) {
		t.Errorf("decoded %+v, want %+v", e, want)
	}
	var s dShadow
	if unknown, err := decodeDoc(t, "name = 3\ndecorator = []", &s); unknown != nil || err != nil || s.Name != 3 || s.dBase.Name != "" {
		t.Errorf("shadowed: %+v, unknown %q, error %v", s, unknown, err)
	}
}

// TestDecodeTableMessages checks the messages and lines DecodeTable gives.
func TestDecodeTableMessages(t *testing.T) {
	src := "[t]\ns = \"x\"\nl = [\n  1,\n]\nbogus = { a = 1 }\n"
	m, kl, err := ParseTOML([]byte(src), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	var errs ErrorList
	var v dAll
	if DecodeTable(m["t"].(map[string]any), &v, []string{"t"}, kl, "c.toml", &errs) {
		t.Error("DecodeTable succeeded")
	}
	errs.Sort()
	if got, want := errs.Error(), "c.toml:3: t.l.0: want a string, got an integer\n"+`c.toml:6: unknown key "t.bogus"`; got != want {
		t.Errorf("errors:\n%s\nwant:\n%s", got, want)
	}
}

package analysis

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	tests := []struct {
		tmpl, op string
		vars     map[string]string
		want     string
	}{
		{"plain", "x", nil, "plain"},
		{"{op}: add {name}", "softmax", map[string]string{"name": `"softmax"`}, `softmax: add "softmax"`},
		{"{op} {unknown} {", "a", nil, "a {unknown} {"},
		{"{file}", "a", map[string]string{"file": "x.py", "op": "override"}, "x.py"},
		{"{op}{op}", "ab", nil, "abab"},
	}
	for _, tt := range tests {
		if got := Render(tt.tmpl, tt.op, tt.vars); got != tt.want {
			t.Errorf("Render(%q) = %q, want %q", tt.tmpl, got, tt.want)
		}
	}
}

func TestValidate(t *testing.T) {
	run := func(*Pass[int]) (any, error) { return nil, nil }
	a := &Analyzer[int]{Name: "a", Doc: "a.", Run: run}
	b := &Analyzer[int]{Name: "b", Doc: "b.", Run: run, Requires: []*Analyzer[int]{a}}
	if err := Validate([]*Analyzer[int]{a, b}); err != nil {
		t.Errorf("valid graph: %v", err)
	}
	c1 := &Analyzer[int]{Name: "c1", Doc: "c.", Run: run}
	c2 := &Analyzer[int]{Name: "c2", Doc: "c.", Run: run, Requires: []*Analyzer[int]{c1}}
	c1.Requires = []*Analyzer[int]{c2}
	for name, graph := range map[string][]*Analyzer[int]{
		"cycle":      {c1},
		"no doc":     {{Name: "x", Run: run}},
		"no run":     {{Name: "x", Doc: "x."}},
		"no name":    {{Doc: "x.", Run: run}},
		"duplicated": {{Name: "a", Doc: "x.", Run: run}, a},
	} {
		if err := Validate(graph); err == nil {
			t.Errorf("%s: Validate succeeded", name)
		}
	}
}

// renderReplacer is Render with a strings.Replacer, the reference its scan
// is held to.
func renderReplacer(tmpl, op string, vars map[string]string) string {
	oldnew := make([]string, 0, 2*len(vars)+2)
	for k, v := range vars {
		oldnew = append(oldnew, "{"+k+"}", v)
	}
	oldnew = append(oldnew, "{op}", op)
	return strings.NewReplacer(oldnew...).Replace(tmpl)
}

// Render's scan agrees with the strings.Replacer it replaced on templates
// with nested, unclosed and unknown placeholders (keys hold no "}").
func TestRenderAgreesWithReplacer(t *testing.T) {
	vars := []map[string]string{nil, {"name": "{op}", "file": "f.py"}, {"op": "o", "{op": "X", "": "E"}}
	tmpls := []string{"{op}", "{{op}}", "{{op}", "{}", "{name}{file}", "{na{me}", "}{op}{", "x {op} y {name", "{a}b}", "{", "a{b}c{op}d"}
	for _, v := range vars {
		for _, tmpl := range tmpls {
			if got, want := Render(tmpl, "softmax", v), renderReplacer(tmpl, "softmax", v); got != want {
				t.Errorf("Render(%q, %v) = %q, the replacer %q", tmpl, v, got, want)
			}
		}
	}
}

// Expand is strings.NewReplacer(pairs...).Replace for olds that start with
// "{": the first old in argument order wins at a position, replaced text is
// not scanned again, and anything else is kept as it is.
func TestExpandAsReplacer(t *testing.T) {
	pairs := [][]string{
		{"{func}", "softmax", "{module}", "m.{func}", "{suite}", "", "{parent}", "a_b"},
		{"{op}", "liger.jsd", "{func}", "jsd"},
		{"{f}", "1", "{fu}", "2", "{func}", "3", "{", "brace"},
		{"{x}", "}{x}"},
	}
	tmpls := []string{"", "plain", "{func}", "{func}.py", "tests/{suite}/test_{func}.py", "{{func}}", "{func", "func}",
		"{unknown}/{module}", "{parent}{parent}", "x{fu}y{f}z{func}{", "{x}{x}}", "{{x}", "}{", "{op}-{func}-{op}"}
	for _, p := range pairs {
		for _, tmpl := range tmpls {
			if got, want := Expand(tmpl, p...), strings.NewReplacer(p...).Replace(tmpl); got != want {
				t.Errorf("Expand(%q, %q) = %q, want %q", tmpl, p, got, want)
			}
		}
	}
}

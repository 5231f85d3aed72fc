package analysis

import "testing"

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

// Render's scan agrees with the strings.Replacer it replaced on templates
// with nested, unclosed and unknown placeholders.
func TestRenderAgreesWithReplacer(t *testing.T) {
	vars := []map[string]string{nil, {"name": "{op}", "file": "f.py"}, {"op": "o", "{op": "X", "": "E"}, {"a}b": "Y"}}
	tmpls := []string{"{op}", "{{op}}", "{{op}", "{}", "{name}{file}", "{na{me}", "}{op}{", "x {op} y {name", "{a}b}", "{", "a{b}c{op}d"}
	for _, v := range vars {
		for _, tmpl := range tmpls {
			if got, want := Render(tmpl, "softmax", v), renderReplacer(tmpl, "softmax", v); got != want {
				t.Errorf("Render(%q, %v) = %q, the replacer %q", tmpl, v, got, want)
			}
		}
	}
}

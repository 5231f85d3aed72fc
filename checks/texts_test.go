package checks

import (
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
)

// TestRuleTextsAsBuiltBefore: the texts that moved from Go to rules.toml
// ([rule.texts]) render, byte for byte, what the kind used to build,
// including the cases no fixture reaches (TG102 outside the namespace).
func TestRuleTextsAsBuiltBefore(t *testing.T) {
	cat, err := LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	ns, fn, last := "liger", "jsd_fwd", "jsd"
	for _, tc := range []struct {
		rule, text string
		vars       map[string]string
		was        string
	}{
		{"TG102", "namespace", map[string]string{"namespace": ns, "func": fn, "last": last},
			"the dispatch name must start with the namespace \"" + ns + ".\""},
		{"TG102", "misnamed", map[string]string{"namespace": ns, "func": fn, "last": last},
			"the function is named \"" + fn + "\" but the dispatch name ends in \"" + last + "\""},
		{"TG502", "no-keyword", map[string]string{"keyword": "backend", "value": ""}, "passes no " + "backend"},
		{"TG502", "literal", map[string]string{"keyword": "backend", "value": `"cutile"`}, "hard-codes " + "backend" + "=" + `"cutile"`},
		{"TG002", "no-step", map[string]string{"step": "0", "steps": "2, 3, 4, 5, 6"},
			"the skip directive names no step; write skip-step=N with N one of " + "2, 3, 4, 5, 6"},
		{"TG002", "not-skippable", map[string]string{"step": "7", "steps": "2, 3, 4, 5, 6"},
			"step " + "7" + " is not a step that can be skipped (" + "2, 3, 4, 5, 6" + ")"},
		{"TG105", "no-default", map[string]string{"default": "None", "got": ""}, "has no default " + "None"},
		{"TG208", "no-allocation", nil, "does not allocate it when it is None"},
		{"TG208", "no-return", nil, "does not return it"},
		{"TG406", "no-assert", nil, "asserts nothing"},
		{"TG511", "no-keyword", map[string]string{"receiver": "bench_softmax", "method": "run", "keyword": "print_data"},
			"bench_softmax" + "." + "run" + "(...) under the guard " + "omits " + "print_data" + ", so the results are not printed"},
		{"TG206", "undeclared", map[string]string{"name": "softmax_v2", "nearest": "", "backend": "cutile"},
			"declare it with @dispatch(\"" + "softmax_v2" + "\") in the dispatch file, or register it under the dispatched name"},
		// The related positions' notes, as the kinds wrote them (TG206's
		// never reaches a report: the driver drops a finding related to a
		// file that does not parse, and reports the parse error).
		{"TG101", "related-first", nil, "first stub"},
		{"TG205", "related-stub", nil, "the dispatch stub"},
		{"TG206", "related-unparsed", map[string]string{"name": "softmax_v2", "nearest": "", "backend": "cutile"}, "does not parse; it may declare the op"},
		{"TG207", "related-use", nil, "used here as a compile-time value"},
		{"TG401", "related-expected", nil, "expected here"},
		{"TG501", "related-expected", nil, "expected here"},
		// The fix titles, as the fix builders wrote them.
		{"TG104", "fix", map[string]string{"func": "softmax", "kwarg": "**kw"}, "add " + "**kw: Any" + " to def " + "softmax"},
		{"TG207", "fix", map[string]string{"param": "BLOCK", "annotation": "ct.Constant[int]"}, "annotate " + "BLOCK" + ": " + "ct.Constant[int]"},
		{"TG301", "fix", map[string]string{"import": "from . import softmax"}, "add " + "from . import softmax"},
		{"TG302", "fix", nil, "sort the module imports"},
		{"TG303", "fix", map[string]string{"import": "from .softmax import softmax"}, "add " + "from .softmax import softmax"},
		{"TG304", "fix", map[string]string{"func": "softmax"}, "add \"" + "softmax" + "\" to __all__"},
		{"TG403", "fix", map[string]string{"assignment": `_backends = ["cutile"]`, "class": "Test_Softmax"}, "add " + `_backends = ["cutile"]` + " to class " + "Test_Softmax"},
		{"TG511", "fix-append", map[string]string{"run_call": "bench_softmax.run(print_data=True)"}, "run " + "bench_softmax.run(print_data=True)" + " under if __name__ == \"__main__\""},
		{"TG511", "fix-wrap", nil, "put the run call under if __name__ == \"__main__\""},
	} {
		r := cat.Rule(tc.rule)
		if r == nil {
			t.Fatalf("no rule %s", tc.rule)
		}
		if got := analysis.RenderText(r, tc.text, "liger.jsd", tc.vars); got != tc.was {
			t.Errorf("%s texts.%s = %q, was %q", tc.rule, tc.text, got, tc.was)
		}
	}
}

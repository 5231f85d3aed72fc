package checker

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	tilegymlint "github.com/tilegym/tilegym-lint"
	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// TestPlaceholders: every kind declares the placeholders it fills,
// {op} and {file} among them; every built-in rule uses only declared
// ones; each declared one is filled by some finding of the fixtures (a
// catalog whose messages use every declared placeholder leaves none of
// them as written somewhere); each text of a rule ([rule.texts]) is
// rendered by some finding of the fixtures, into its message, a related
// position or a fix title (but unreachedTexts); and no finding of the
// fixtures under the built-in catalog shows a placeholder as written.
func TestPlaceholders(t *testing.T) {
	for _, a := range checks.Kinds() {
		if a.Name == "optable" {
			continue // reports nothing: the op table's analyzer
		}
		if !slices.Contains(a.Placeholders, "op") || !slices.Contains(a.Placeholders, "file") {
			t.Errorf("kind %s: Placeholders %v, want {op} and {file} among them", a.Name, a.Placeholders)
		}
	}
	cat := testrepo.Catalog(t)
	for _, r := range cat.Rules {
		names, prob := analysis.MessagePlaceholders(r.Message)
		if prob != "" {
			t.Errorf("%s: %s", r.ID, prob)
		}
		for _, n := range names {
			if !slices.Contains(checks.Kind(r.Kind).Placeholders, n) {
				t.Errorf("%s: {%s} not declared by kind %s", r.ID, n, r.Kind)
			}
		}
	}
	// The probe catalog: each message is every declared placeholder, as
	// "[name={name}]".
	probe, err := checks.LoadCatalog(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range probe.Rules {
		for k := range r.Texts {
			r.Texts[k] = "<text " + k + ">"
		}
		var b strings.Builder
		for _, n := range checks.Kind(r.Kind).Placeholders {
			b.WriteString("[" + n + "={" + n + "}]")
		}
		r.Message = b.String()
	}
	filled := map[string]map[string]bool{} // kind -> placeholder -> filled once
	reached := map[string]bool{}           // "rule texts.name" -> rendered once
	textMark := regexp.MustCompile(`<text ([^<>]+)>`)
	leftover := regexp.MustCompile(`\{[A-Za-z_]\w*\}`)
	for _, dir := range fixtureset.Dirs(t) {
		for i, cc := range []*rules.Catalog{cat, probe} {
			repo, err := load.Load(&source.DiskSource{Dir: dir}, config.NewSetup(cc, nil))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Check(repo, config.NewSetup(cc, nil), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range res.Diagnostics {
				if i == 0 {
					// The built-in messages: a declared placeholder left
					// as written is one the kind did not fill here.
					for _, m := range leftover.FindAllString(d.Message, -1) {
						if slices.Contains(checks.Kind(d.Rule.Kind).Placeholders, m[1:len(m)-1]) {
							t.Errorf("%s: %s left %s unfilled: %s", dir, d.Rule.ID, m, d.Message)
						}
					}
					continue
				}
				words := []string{d.Message}
				for _, r := range d.Related {
					words = append(words, r.Message)
				}
				for _, f := range d.Fixes {
					words = append(words, f.Message)
				}
				for _, w := range words {
					for _, m := range textMark.FindAllStringSubmatch(w, -1) {
						reached[d.Rule.ID+" texts."+m[1]] = true
					}
				}
				k := d.Rule.Kind
				if filled[k] == nil {
					filled[k] = map[string]bool{}
				}
				for _, n := range checks.Kind(k).Placeholders {
					if strings.Contains(d.Message, "["+n+"=") && !strings.Contains(d.Message, "["+n+"={"+n+"}]") {
						filled[k][n] = true
					}
				}
			}
		}
	}
	for _, r := range probe.Rules {
		for _, k := range slices.Sorted(maps.Keys(r.Texts)) {
			switch name := r.ID + " texts." + k; {
			case !reached[name] && !unreachedTexts[name]:
				t.Errorf("%s: no finding of the fixtures renders it; add a fixture that does", name)
			case reached[name] && unreachedTexts[name]:
				t.Errorf("%s: a fixture renders it now; remove it from unreachedTexts", name)
			}
		}
	}
	for _, a := range checks.Kinds() {
		if a.Name == "optable" || a.Name == "verify" || a.Name == "baseline" {
			continue // no static finding: Step 6 runs in package verify, the baseline's in package baseline (TestBuiltinMessage)
		}
		for _, n := range a.Placeholders {
			if !filled[a.Name][n] {
				t.Errorf("kind %s declares {%s}, which no finding of the fixtures fills", a.Name, n)
			}
		}
	}
}

// unreachedTexts are the texts of the catalog that no fixture renders yet
// (TestRuleTextsAsBuiltBefore in checks compares the words of several with
// what the kind built before): a new text needs a fixture reaching it, and
// a fixture that reaches one of these removes it here.
var unreachedTexts = map[string]bool{
	// Only outside the namespace, which checks' TestRuleTextsAsBuiltBefore renders.
	"TG102 texts.namespace": true,
	// Only in a checkout with no dispatch file, where no op is found.
	"TG107 texts.no-dispatch-file": true,
	"TG108 texts.no-dispatch-file": true,
	// Names a file that does not parse, so the driver blames its TG001 instead.
	"TG201 texts.related-unparsed": true,
	"TG206 texts.related-unparsed": true,
	// Only with a register_impl list of the rule other than the layout's.
	"TG202 texts.register-impl": true,
	// Only for a scope without a backend block, which the built-in params exclude.
	"TG303 texts.top-level": true,
	"TG304 texts.top-level": true,
}

// TestCatalogPlaceholderErrors: a catalog whose message uses a
// placeholder its kind does not fill, or has an unbalanced brace, is
// rejected with an error naming the rule, the placeholder and the allowed
// ones; before, the message was printed with the braces as written.
func TestCatalogPlaceholderErrors(t *testing.T) {
	base := string(tilegymlint.RulesTOML)
	const msg = `message = "{op}: {problem}"`
	if !strings.Contains(base, msg) {
		t.Fatalf("rules.toml has no %s", msg)
	}
	for _, tc := range []struct{ message, want string }{
		{`message = "{op}: {problme}"`, `rule TG002: message uses {problme}, which kind "step-skip" does not fill; it fills {op}, {file}, {problem}, {step}`},
		{`message = "{op}: {problem"`, `rule TG002: message "{op}: {problem" has a '{' with no '}'`},
		{`message = "{op}: problem}"`, `rule TG002: message "{op}: problem}" has a '}' with no '{'`},
		{`message = "{op}: {}"`, `has an empty or spaced placeholder {}`},
	} {
		_, err := checks.LoadCatalog([]byte(strings.Replace(base, msg, tc.message, 1)), "my-rules.toml")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "my-rules.toml:") {
			t.Errorf("%s: error %v, want one containing %q", tc.message, err, tc.want)
		}
	}
}

// TestCatalogTextErrors: a rule whose [rule.texts] lack a text its kind
// renders, have one it does not, or use a placeholder it does not fill is
// rejected, naming the rule and the text (TG505's kind, bench-reference,
// renders four).
func TestCatalogTextErrors(t *testing.T) {
	base := string(tilegymlint.RulesTOML)
	const text = `undefined = "define {name} and register it"`
	if !strings.Contains(base, text) {
		t.Fatalf("rules.toml has no %s", text)
	}
	for _, tc := range []struct{ text, want string }{
		{``, `rule TG505: no texts.undefined: kind "bench-reference" renders it into the message; add it to [rule.texts]`},
		{`undefind = "define {name} and register it"`, `rule TG505: texts.undefind is not a text kind "bench-reference" renders (it renders misnamed, other-op, undefined, unregistered)`},
		{`undefined = "define {nmae} and register it"`, `rule TG505: texts.undefined uses {nmae}, which kind "bench-reference" does not fill`},
		{`undefined = "define {name and register it"`, `rule TG505: texts.undefined "define {name and register it" has a '{' with no '}'`},
	} {
		_, err := checks.LoadCatalog([]byte(strings.Replace(base, text, tc.text, 1)), "my-rules.toml")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "my-rules.toml:") {
			t.Errorf("%q: error %v, want one containing %q", tc.text, err, tc.want)
		}
	}
	// A kind asks each rule for the texts its params make it render
	// (Analyzer.TextsFor): TG107, impl-orphan's stubless rule, needs
	// texts.registered and not TG206's texts; TG503, a backend list with
	// no test methods, no text at all.
	for _, tc := range []struct{ old, new, want string }{
		{"registered = \"register_impl(\\\"{op}\\\", backend=\\\"{backend}\\\")\"\n", "",
			`rule TG107: no texts.registered: kind "impl-orphan" renders it into the message; add it to [rule.texts]`},
		{"[rule.texts]\nregistered = ", "[rule.texts]\nnear-miss = \"register it as {nearest}\"\nregistered = ",
			`rule TG107: texts.near-miss is not a text kind "impl-orphan" renders for this rule (with its params it renders registered, unregistered, no-dispatch-file); remove it`},
		{"else None\"\nkind = \"backend-list\"\n", "else None\"\nkind = \"backend-list\"\n\n[rule.texts]\nparametrized-otherwise = \", and {methods}\"\n",
			`rule TG503: texts.parametrized-otherwise is not a text kind "backend-list" renders for this rule (with its params it renders none); remove it`},
	} {
		if strings.Count(base, tc.old) != 1 {
			t.Fatalf("rules.toml has not one %q", tc.old)
		}
		_, err := checks.LoadCatalog([]byte(strings.Replace(base, tc.old, tc.new, 1)), "my-rules.toml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q -> %q: error %v, want one containing %q", tc.old, tc.new, err, tc.want)
		}
	}
}

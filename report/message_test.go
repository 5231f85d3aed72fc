package report

import (
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/rules"
)

func TestSplitMessage(t *testing.T) {
	tests := []struct {
		tmpl, msg, what, fix string
	}{
		// The template's separator, though a placeholder before it holds more.
		{"{op}: the {backend} implementation {func} {problems}; match the dispatch stub at {stub}",
			"bmm: the cutile implementation bmm defaults a to 1; defaults b to 2; match the dispatch stub at ops.py:3",
			"bmm: the cutile implementation bmm defaults a to 1; defaults b to 2", "match the dispatch stub at ops.py:3"},
		// A placeholder after the separator holding one: the template's tail must match.
		{"{op}: {what}; add {expected}", "x: a; b; add c; d", "x: a; b", "add c; d"},
		{"{op}: a second stub; the first is at {first} -- remove one", "x: a second stub; the first is at f:1 -- remove one",
			"x: a second stub; the first is at f:1", "remove one"},
		// No separator in the template: none in the message either.
		{"{op}: def {func} must accept **kwargs", "x: def f must accept **kwargs", "x: def f must accept **kwargs", ""},
		// A template of placeholders only: the message's last separator.
		{"{op}: {problem}", "x: no y; add z", "x: no y", "add z"},
		// Literal text: split at its separator; none, no split.
		{"Step 6 not run; verify", "Step 6 not run; verify", "Step 6 not run", "verify"},
		{"fixed text, no split", "fixed text; no split", "fixed text; no split", ""},
	}
	for _, tt := range tests {
		what, fix := SplitMessage(&rules.Rule{Message: tt.tmpl}, tt.msg)
		if what != tt.what || fix != tt.fix {
			t.Errorf("SplitMessage(%q, %q) = %q, %q; want %q, %q", tt.tmpl, tt.msg, what, fix, tt.what, tt.fix)
		}
	}
	if what, fix := SplitMessage(nil, "a; b; c"); what != "a; b" || fix != "c" {
		t.Errorf("no rule: %q %q", what, fix)
	}
}

// TestCatalogMessagesSplit: every rule of the catalog whose template has a
// separator splits its own template's rendering there.
func TestCatalogMessagesSplit(t *testing.T) {
	cat := builtinCatalog(t)
	for _, r := range cat.Rules {
		if !strings.Contains(r.Message, "; ") && !strings.Contains(r.Message, " -- ") {
			continue
		}
		what, fix := SplitMessage(r, r.Message)
		if what == "" || fix == "" || strings.HasPrefix(fix, " ") {
			t.Errorf("%s: %q split into %q, %q", r.ID, r.Message, what, fix)
		}
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain/path.py":    "plain/path.py",
		"a\nb":             `a\nb`,
		"a\tb\r":           `a\tb\r`,
		"\x1b[31mred":      `\x1b[31mred`,
		"bad\xffutf8":      `bad\xffutf8`,
		"c1\u0085":         `c1\u0085`,
		"ünïcode ok":       "ünïcode ok",
		`back\slash stays`: `back\slash stays`,
		// Bidi controls reorder what a reviewer reads; zero-width and
		// other invisible characters hide text.
		"op\u202eyp.x":     `op\u202eyp.x`,
		"a\u2066b\u2069":   `a\u2066b\u2069`,
		"zero\u200bwidth":  `zero\u200bwidth`,
		"soft\u00adhyphen": `soft\u00adhyphen`,
		"tag\U000E0041":    `tag\U000e0041`,
		"emoji ✅ ok":       "emoji ✅ ok",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
	if got := clean("col1\tcol2\x07", true); got != "col1\tcol2\\x07" {
		t.Errorf("clean keepTab = %q", got)
	}
}

func TestWrap(t *testing.T) {
	got := wrap("aaa bbb ccc ddd", 7, 9)
	if strings.Join(got, "|") != "aaa bbb|ccc ddd" {
		t.Errorf("wrap = %q", got)
	}
	// A first word too long for the first line starts on the second.
	got = wrap("a-very-long-path.py is long", 5, 20)
	if strings.Join(got, "|") != "|a-very-long-path.py|is long" {
		t.Errorf("wrap long first = %q", got)
	}
	// Longer than any line: on a line of its own.
	got = wrap("x a-very-long-path.py y", 10, 10)
	if strings.Join(got, "|") != "x|a-very-long-path.py|y" {
		t.Errorf("wrap long word = %q", got)
	}
	// Quoted code stays on one line, also when longer than a line.
	got = wrap(`add "from . import softmax" to the block: `+"`if x == \"a b\": y`", 12, 12)
	if strings.Join(got, "|") != `add|"from . import softmax"|to the|block:|`+"`if x == \"a b\": y`" {
		t.Errorf("wrap quoted code = %q", got)
	}
	// An unclosed quote runs to the end.
	got = wrap(`a "b c d`, 3, 3)
	if strings.Join(got, "|") != `a|"b c d` {
		t.Errorf("wrap unclosed quote = %q", got)
	}
}

func builtinCatalog(t *testing.T) *rules.Catalog {
	t.Helper()
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestCatalogFixesAreActions: the part of every rule's message after the
// split (the `→` line) says what to do: it starts with an imperative verb
// (or with a placeholder the check fills with one), never with a reason
// or a description ("the template is ...", "tilegym-lint skipped ...").
// So does the title of every suggested fix (a rule's text "fix" or
// "fix-...").
func TestCatalogFixesAreActions(t *testing.T) {
	verbs := map[string]bool{}
	for _, v := range strings.Fields("add annotate call compare declare define delete describe fix give keep launch leave make match move name pad pass put register remove rename run search sort split use verify write") {
		verbs[v] = true
	}
	cat := builtinCatalog(t)
	for _, r := range cat.Rules {
		if !strings.Contains(r.Message, "; ") && !strings.Contains(r.Message, " -- ") {
			continue
		}
		_, fix := SplitMessage(r, r.Message)
		if strings.HasPrefix(fix, "{") && strings.Index(fix, "}") == len(strings.Fields(fix)[0])-1 {
			continue // a placeholder the check fills with an action (TG201 {action}, TG206 {hint}, TG210 {fix})
		}
		if first := strings.Fields(fix)[0]; !verbs[first] {
			t.Errorf("%s: the fix %q does not start with an action (an imperative verb)", r.ID, fix)
		}
	}
	titles := 0
	for _, r := range cat.Rules {
		for name, title := range r.Texts {
			if name != "fix" && !strings.HasPrefix(name, "fix-") {
				continue
			}
			titles++
			if first, _, _ := strings.Cut(title, " "); !verbs[first] {
				t.Errorf("%s texts.%s: the fix title %q does not start with an action (an imperative verb)", r.ID, name, title)
			}
		}
	}
	if titles == 0 {
		t.Error("no rule has a fix title (texts.fix): the check above checked nothing")
	}
}

package directive

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNoqa(t *testing.T) {
	tests := []struct {
		text  string
		codes []string
		ok    bool
	}{
		{"# noqa", nil, true},
		{"#noqa", nil, true},
		{"# NOQA", nil, true},
		{"# noqa: TG301", []string{"TG301"}, true},
		{"# noqa: TG301, tg302", []string{"TG301", "TG302"}, true},
		{"# noqa:TG301 TG302 # reason", []string{"TG301", "TG302"}, true},
		{"# type: ignore  # noqa: TG101", []string{"TG101"}, true},
		{"# this is not noqa", nil, false},
		{"# noqaz", nil, false},
		{"# comment", nil, false},
		// Characters whose lower case is longer or shorter in UTF-8: the
		// match is at the same offset of the text.
		{"# ȺȺȺȺȺȺȺȺȺȺ #noqa", nil, true},
		{"# ȺȺȺȺȺȺȺȺȺȺ #noqa:TG104", []string{"TG104"}, true},
		{"# İİİİ # noqa: TG104", []string{"TG104"}, true},
		{"# İ # NoQa:tg104", []string{"TG104"}, true},
		{"# ẞẞẞ noqa", nil, false},
		// The first "noqa" after a '#' counts.
		{"# not noqa here  # noqa: TG104", []string{"TG104"}, true},
	}
	for _, tt := range tests {
		codes, ok := Noqa(tt.text)
		if ok != tt.ok || !cmp.Equal(codes, tt.codes) {
			t.Errorf("Noqa(%q) = %v, %v; want %v, %v", tt.text, codes, ok, tt.codes, tt.ok)
		}
	}
}

func TestIgnore(t *testing.T) {
	for _, c := range []struct {
		text, codes, reason string
		ok                  bool
	}{
		{`# tilegym-lint: ignore=TG511 reason="imported by run_all"`, "TG511", "imported by run_all", true},
		{`# tilegym-lint: ignore=tg511,TG512 reason='x'`, "TG511,TG512", "x", true},
		{`# tilegym-lint: ignore=TG511`, "TG511", "", true},
		{`# tilegym-lint: ignore=TG511 reason=""`, "TG511", "", true},
		{`# noqa: E501  # tilegym-lint: ignore=TG104 reason="r"`, "TG104", "r", true},
		{`# tilegym-lint: skip-step=5 reason="x"`, "", "", false},
		{`# see tilegym-lint: ignore=TG104 reason="x"`, "", "", false},
		{`# plain comment`, "", "", false},
	} {
		codes, reason, ok := Ignore("tilegym-lint:", c.text)
		if ok != c.ok || strings.Join(codes, ",") != c.codes || reason != c.reason {
			t.Errorf("Ignore(%q) = %v %q %v, want %s %q %v", c.text, codes, reason, ok, c.codes, c.reason, c.ok)
		}
	}
}

func TestSkip(t *testing.T) {
	cases := []struct {
		text   string
		ok     bool
		step   int
		reason string
	}{
		{`# tilegym-lint: skip-step=5 reason="no harness yet"`, true, 5, "no harness yet"},
		{`# tilegym-lint: skip-step=2 reason='host helper'`, true, 2, "host helper"},
		{`#tilegym-lint: skip-step = 4 reason = plain words`, true, 4, "plain words"},
		{`# tilegym-lint: skip-step=5`, true, 5, ""},
		{`# tilegym-lint: skip-step=x reason="r"`, true, 0, "r"},
		{`# tilegym-lint: skip-step`, true, 0, ""},
		{`# noqa: TG301`, false, 0, ""},
		{`# tilegym-lint: other`, false, 0, ""},
	}
	for _, c := range cases {
		step, reason, _, ok := Skip("tilegym-lint:", c.text)
		if ok != c.ok || step != c.step || reason != c.reason {
			t.Errorf("Skip(%s) = %d %q %v; want step %d reason %q ok %v", c.text, step, reason, ok, c.step, c.reason, c.ok)
		}
	}
}

// A directive's reason is read from its quotes, or to the end, and bytes
// that are not UTF-8 (Python accepts them in comments) become U+FFFD, so
// that every report shows the same reason (JSON would escape them).
func TestReason(t *testing.T) {
	for _, c := range []struct {
		in, want string
		unclosed bool
	}{
		{`reason="tests come next"`, "tests come next", false},
		{`reason='single' tail`, "single", false},
		{`reason = bare words`, "bare words", false},
		{`reason="never closed`, "never closed", true},
		{"reason=\"stray \xbd\xf4 bytes\"", "stray \uFFFD bytes", false},
		{`because="x"`, "", false},
	} {
		got, unclosed := Reason(c.in)
		if got != c.want || unclosed != c.unclosed {
			t.Errorf("Reason(%q) = %q, %v; want %q, %v", c.in, got, unclosed, c.want, c.unclosed)
		}
	}
}

// TestSkipUnclosed: a reason whose quote does not close is read to the end
// and said to be unclosed.
func TestSkipUnclosed(t *testing.T) {
	step, reason, unclosed, ok := Skip("tilegym-lint:", `# tilegym-lint: skip-step=3 reason="no harness`)
	if !ok || step != 3 || reason != "no harness" || !unclosed {
		t.Errorf("Skip = %d %q %v %v; want 3 \"no harness\" true true", step, reason, unclosed, ok)
	}
}

// TestMaySilenceOurs: change mode treats a comment that may silence a TG
// rule, whatever the directive's prefix, as one that may change findings.
func TestMaySilenceOurs(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"# noqa", true},
		{"# noqa: TG301", true},
		{"# noqa: F401, tg302", true},
		{"# noqa: F401", false},
		{`# other-prefix: ignore=TG304 reason="x"`, true},
		{`# tilegym-lint: ignore=tg304`, true},
		{"# ignore=E501", false},
		{"# plain comment about TG301", false},
	} {
		if got := MaySilenceOurs(c.text); got != c.want {
			t.Errorf("MaySilenceOurs(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestSpan: the part of a comment a suppression finding points at.
func TestSpan(t *testing.T) {
	for _, c := range []struct {
		text, word, want string
	}{
		{"# noqa: TG104  # type: ignore", "noqa", "# noqa: TG104  "},
		{"# type: ignore  # NOQA: TG104", "noqa", "# NOQA: TG104"},
		{`# x  # tilegym-lint: ignore=TG511 reason="a"`, "tilegym-lint:", `# tilegym-lint: ignore=TG511 reason="a"`},
		{"# İİ #noqa", "noqa", "#noqa"},
	} {
		start, end := Span(c.text, c.word)
		if got := c.text[start:end]; got != c.want {
			t.Errorf("Span(%q, %q) = %q, want %q", c.text, c.word, got, c.want)
		}
	}
}

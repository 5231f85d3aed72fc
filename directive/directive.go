// Package directive reads the comments that speak to the linter: "# noqa"
// (every tool's), and tilegym-lint's own directives "# tilegym-lint:
// ignore=TG301 reason=..." (silence a finding on its line) and "#
// tilegym-lint: skip-step=N reason=..." (skip a step of an op). The prefix
// ("tilegym-lint:") is the layout's (layout.Names.Directive). It reads text
// only: the driver decides what a comment silences, the op table which op
// a skip is of.
package directive

import (
	"strconv"
	"strings"
)

// Noqa parses a comment ("# noqa", "# noqa: TG301, TG302", also after
// other text as in "# type: ignore  # noqa: TG301"). It returns the codes
// (upper case), nil for a bare noqa.
func Noqa(text string) (codes []string, ok bool) {
	// "noqa" in any case must start the comment or follow a '#'; the
	// first such one counts. It is matched in ASCII case, on text itself:
	// lowering the text would change its byte offsets ("Ⱥ" lowers to a
	// longer "ⱥ", "İ" to "i̇").
	i := -1
	for from := 0; ; {
		j := indexFold(text[from:], "noqa")
		if j < 0 {
			return nil, false
		}
		j += from
		if strings.HasSuffix(strings.TrimRight(text[:j], " \t"), "#") {
			i = j
			break
		}
		from = j + 4
	}
	rest := text[i+4:]
	r := strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(r, ":") {
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '#' {
			return nil, false // "noqaz"
		}
		return nil, true
	}
	r = r[1:]
	for _, f := range strings.FieldsFunc(r, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' }) {
		if strings.HasPrefix(f, "#") {
			break
		}
		codes = append(codes, strings.ToUpper(f))
	}
	if len(codes) == 0 {
		return nil, true
	}
	return codes, true
}

// Span returns the byte range, in a comment's text, of the part that holds
// word (the first match in ASCII case: "noqa", or a directive's prefix):
// from the '#' before it to the next '#' (a comment may hold several, as
// in "# noqa: TG104  # type: ignore"); from the start when no '#' is
// before it.
func Span(text, word string) (start, end int) {
	start = indexFold(text, word)
	if h := strings.LastIndexByte(text[:max(start, 0)], '#'); start >= 0 && h >= 0 {
		start = h
	} else {
		start = 0
	}
	end = len(text)
	if h := strings.IndexByte(text[start+1:], '#'); h >= 0 {
		end = start + 1 + h
	}
	return start, end
}

// indexFold returns the byte offset in s of the first match of word (ASCII)
// in any ASCII case, or -1. Unlike an index into strings.ToLower(s), the
// offset is one of s.
func indexFold(s, word string) int {
	for i := 0; i+len(word) <= len(s); i++ {
		match := true
		for j := 0; j < len(word); j++ {
			if lowerASCII(s[i+j]) != lowerASCII(word[j]) {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Ignore parses the directive "# tilegym-lint: ignore=TG511,TG512
// reason=\"...\"" (prefix is "tilegym-lint:"), also after other comment
// text ("# noqa: E501  # tilegym-lint: ignore=..."). It returns the codes
// (upper case; empty, not nil, for "ignore=" with none) and the reason (""
// when missing); ok is false when the comment holds no ignore directive.
func Ignore(prefix, text string) (codes []string, reason string, ok bool) {
	i := strings.Index(text, prefix)
	if i < 0 || !strings.HasSuffix(strings.TrimRight(text[:i], " \t"), "#") {
		return nil, "", false
	}
	rest := strings.TrimSpace(text[i+len(prefix):])
	v, ok := strings.CutPrefix(rest, "ignore")
	if !ok {
		return nil, "", false
	}
	v = strings.TrimLeft(v, " \t")
	if v, ok = strings.CutPrefix(v, "="); !ok {
		return nil, "", true
	}
	v = strings.TrimLeft(v, " \t")
	list := v
	if j := strings.IndexAny(v, " \t"); j >= 0 {
		list, v = v[:j], v[j:]
	} else {
		v = ""
	}
	for _, c := range strings.Split(list, ",") {
		if c = strings.TrimSpace(c); c != "" {
			codes = append(codes, strings.ToUpper(c))
		}
	}
	reason, _ = Reason(v)
	if codes == nil {
		codes = []string{} // "ignore=" with no code silences nothing
	}
	return codes, reason, true
}

// Skip parses a skip directive "# tilegym-lint: skip-step=N reason=\"...\""
// (prefix is "tilegym-lint:"), the whole comment. ok is false when the
// comment is not one. A step that is not a number is 0; a missing reason
// is ""; unclosed says the reason's quote is not closed.
func Skip(prefix, text string) (step int, reason string, unclosed, ok bool) {
	text = strings.TrimSpace(strings.TrimPrefix(text, "#"))
	rest, ok := strings.CutPrefix(text, prefix)
	if !ok {
		return 0, "", false, false
	}
	rest = strings.TrimSpace(rest)
	v, ok := strings.CutPrefix(rest, "skip-step")
	if !ok {
		return 0, "", false, false
	}
	v = strings.TrimLeft(v, " ")
	v, ok = strings.CutPrefix(v, "=")
	if !ok {
		return 0, "", false, true
	}
	v = strings.TrimLeft(v, " ")
	num := v
	if i := strings.IndexAny(v, " \t"); i >= 0 {
		num, v = v[:i], v[i:]
	} else {
		v = ""
	}
	if n, err := strconv.Atoi(num); err == nil {
		step = n
	}
	reason, unclosed = Reason(v)
	return step, reason, unclosed, true
}

// Reason reads the `reason="..."` of a directive's rest (single or double
// quotes, or a bare word list to the end); unclosed says the quote opened
// and did not close. Bytes that are not UTF-8 (Python accepts them in
// comments) become U+FFFD: the reason is shown in every report.
func Reason(v string) (reason string, unclosed bool) {
	r, ok := strings.CutPrefix(strings.TrimSpace(v), "reason")
	if !ok {
		return "", false
	}
	if r, ok = strings.CutPrefix(strings.TrimSpace(r), "="); !ok {
		return "", false
	}
	r = strings.TrimSpace(r)
	if len(r) >= 1 && (r[0] == '"' || r[0] == '\'') {
		q := r[0]
		if j := strings.IndexByte(r[1:], q); j >= 0 {
			r = r[1 : 1+j]
		} else {
			r, unclosed = r[1:], true
		}
	}
	return strings.ToValidUTF8(strings.TrimSpace(r), "\uFFFD"), unclosed
}

// MaySilenceOurs reports whether a comment may be a # noqa or an ignore
// directive that silences a finding of tilegym-lint (whose rule ids start
// with TG), whatever the directive's prefix: a bare # noqa, a # noqa with a
// TG code, or "ignore=" followed by a TG code.
func MaySilenceOurs(text string) bool {
	if codes, ok := Noqa(text); ok {
		if codes == nil {
			return true
		}
		for _, c := range codes {
			if strings.HasPrefix(c, "TG") {
				return true
			}
		}
	}
	i := strings.Index(text, "ignore=")
	return i >= 0 && strings.Contains(strings.ToUpper(text[i:]), "TG")
}

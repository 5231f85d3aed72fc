package report

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tilegym/tilegym-lint/rules"
)

// A rule's message says what is wrong, then how to fix it, separated by
// "; " (or " -- ") in the message template of rules.toml: "{op}: def {func}
// has no docstring; describe the op, its Args and what it Returns". The
// text output prints the two parts on two lines.

// messageSeparators separate what is wrong from how to fix it.
var messageSeparators = []string{"; ", " -- "}

// splitter splits the messages of one template.
type splitter struct {
	tail *regexp.Regexp // the template's part after its last separator, placeholders as ".*"; nil when it has none
}

var splitters sync.Map // template -> *splitter

func splitterFor(tmpl string) *splitter {
	if s, ok := splitters.Load(tmpl); ok {
		return s.(*splitter)
	}
	s := &splitter{}
	lit := literalMask(tmpl)
	cut := -1
	for _, sep := range messageSeparators {
		for i := 0; i+len(sep) <= len(tmpl); i++ {
			if tmpl[i:i+len(sep)] == sep && lit[i] && lit[i+len(sep)-1] && i > cut {
				cut = i + len(sep)
			}
		}
	}
	if cut >= 0 {
		s.tail = regexp.MustCompile("^" + templateRegexp(tmpl[cut:]) + "$")
	}
	splitters.Store(tmpl, s)
	return s
}

// literalMask says, per byte of a template, whether it is literal text
// (not inside a {placeholder}).
func literalMask(tmpl string) []bool {
	mask := make([]bool, len(tmpl))
	in := false
	for i := 0; i < len(tmpl); i++ {
		switch {
		case tmpl[i] == '{' && strings.IndexByte(tmpl[i:], '}') > 0:
			in = true
		case tmpl[i] == '}' && in:
			in = false
			continue
		}
		mask[i] = !in
	}
	return mask
}

// templateRegexp turns a template into a regexp: its literal text quoted,
// each placeholder any text.
func templateRegexp(tmpl string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		j := -1
		if i >= 0 {
			j = strings.IndexByte(tmpl[i:], '}')
		}
		if i < 0 || j < 0 {
			b.WriteString(regexp.QuoteMeta(tmpl))
			return b.String()
		}
		b.WriteString(regexp.QuoteMeta(tmpl[:i]))
		b.WriteString("(?s:.*)")
		tmpl = tmpl[i+j+1:]
	}
}

// SplitMessage splits a finding's message into what is wrong and how to
// fix it (fix is "" when the message has no such part). The split is where
// the rule's template puts its last separator ("; " or " -- " in the
// template's literal text): the rightmost separator of the message after
// which the rest matches the template's tail. A template with no literal
// separator whose message has one (a placeholder such as {problem} carried
// it) is split at the message's last separator.
func SplitMessage(rule *rules.Rule, msg string) (what, fix string) {
	var tail *regexp.Regexp
	if rule != nil && rule.Message != "" {
		tail = splitterFor(rule.Message).tail
		if tail == nil && !hasPlaceholder(rule.Message) {
			return msg, ""
		}
	}
	best := -1
	bestSep := 0
	for _, sep := range messageSeparators {
		for i := strings.LastIndex(msg, sep); i > 0; i = strings.LastIndex(msg[:i], sep) {
			if i <= best {
				break
			}
			rest := msg[i+len(sep):]
			if rest == "" {
				continue
			}
			if tail == nil || tail.MatchString(rest) {
				best, bestSep = i, len(sep)
				break
			}
		}
	}
	if best < 0 {
		return msg, ""
	}
	return msg[:best], msg[best+bestSep:]
}

func hasPlaceholder(tmpl string) bool {
	i := strings.IndexByte(tmpl, '{')
	return i >= 0 && strings.IndexByte(tmpl[i:], '}') > 0
}

// Clean escapes the invisible characters of text that comes from the
// checked repository (a file name, an op name, a message naming them) so
// that it cannot break a line of the output, drive the terminal or hide or
// reorder text: "\n", "\t", "\x1b" as Go writes them, other controls,
// format characters (bidi controls such as U+202E, zero-width spaces and
// joiners) and other default-ignorable code points as "\u202e", and
// invalid UTF-8 as "\xff". A backslash is left as it is. What a CI runner
// would obey as a workflow command is the LogWriter's to escape.
func Clean(s string) string {
	return clean(s, false)
}

// clean is Clean; keepTab leaves tabs (the output of a verify command).
func clean(s string, keepTab bool) string {
	ok := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || invisible(r) && !(keepTab && r == '\t') {
			ok = false
			break
		}
		i += n
	}
	if ok {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t' && keepTab:
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && invisible(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case r > 0xffff && invisible(r):
			fmt.Fprintf(&b, `\U%08x`, r)
		case invisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// wrap breaks text at spaces into a first line of at most first columns
// (counted in runes) and further lines of at most rest columns; a word
// longer than a line (a path) gets a line of its own. When not even the
// first word fits on the first line (and would on the next), the first
// line is left empty.
func wrap(text string, first, rest int) []string {
	words := codeUnits(strings.Split(text, " "))
	var lines []string
	var cur strings.Builder
	c := 0
	avail := first
	if n := utf8.RuneCountInString(words[0]); n > first && first < rest {
		lines = append(lines, "")
		avail = rest
	}
	for _, w := range words {
		n := utf8.RuneCountInString(w)
		if c > 0 && c+1+n > avail {
			lines = append(lines, cur.String())
			cur.Reset()
			avail = rest
			c = 0
		}
		if c > 0 {
			cur.WriteByte(' ')
			c++
		}
		cur.WriteString(w)
		c += n
	}
	return append(lines, cur.String())
}

// codeUnits joins the words of a quoted span ("from .softmax import
// softmax", `if x: y`) into one, so that wrapping never breaks the code a
// message quotes; an unclosed quote runs to the end.
func codeUnits(words []string) []string {
	out := words[:0:0]
	open := byte(0)
	for _, w := range words {
		if open != 0 {
			out[len(out)-1] += " " + w
		} else {
			out = append(out, w)
		}
		for i := 0; i < len(w); i++ {
			switch c := w[i]; {
			case open == 0 && (c == '"' || c == '`'):
				open = c
			case c == open:
				open = 0
			}
		}
	}
	return out
}

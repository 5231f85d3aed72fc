package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// A CI runner reads the output of a step line by line for workflow
// commands: GitHub's runner obeys a line that starts with "::" after
// blanks (::error, ::add-mask::, ::stop-commands::) and a "##[" anywhere in
// a line (##[error], ##[set-output]). Op names, file names, messages and
// commands come from the checked repository, which on a pull request is
// written by anyone; printed as they are, they would forge annotations,
// step outputs and masks, or switch the runner's commands off. A LogWriter
// stands between every writer of this package (and the command's stdout
// and stderr) and the log, so that no line it writes is a workflow command
// but those WriteAnnotations writes on purpose.

// A LogWriter passes text on line by line ("\n" and "\r" end a line, as
// for the runner) and escapes in each line what a runner would obey:
//
//   - a line whose first character after blanks is ':' followed by ':'
//     gets its first ':' written as \u003a;
//   - the '[' of every "##[" is written as \u005b;
//   - invisible characters (controls but the tab and the escape that
//     colours a terminal's text, format characters such as bidi controls
//     and zero-width spaces, other default-ignorable code points) are
//     written as \uXXXX: a runner matching text the way .NET compares
//     strings may skip them, so that "#\u200b#[" is a "##[" to it.
//
// The "##[" and "::" a runner could see through the characters still left
// (a tab, a colour's escape) are escaped too. The escapes are those of Go
// and JSON: the JSON and SARIF writers' output stays valid JSON that
// decodes to the same text.
type LogWriter struct {
	w    io.Writer
	line []byte // the text of the line being written, not yet passed on
	out  []byte // the escaped lines of one Write, passed on in one write
	err  error
}

// NewLogWriter returns a LogWriter that writes to w. Flush writes a last
// line that has no line end.
func NewLogWriter(w io.Writer) *LogWriter {
	return &LogWriter{w: w}
}

// Unwrap returns the writer the escaped lines go to (a caller asking
// whether the output is a terminal asks it).
func (w *LogWriter) Unwrap() io.Writer { return w.w }

// Write buffers p and passes on the lines it completes, escaped, in one
// write (a report of 12,000 lines written at once made as many system
// calls).
func (l *LogWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && l.err == nil {
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			l.line = append(l.line, p...)
			break
		}
		l.line = append(l.line, p[:i]...)
		l.emit(p[i : i+1])
		p = p[i+1:]
	}
	l.pass()
	if l.err != nil {
		return 0, l.err
	}
	return n, nil
}

// Flush passes on a last line without a line end, as it is so far.
func (l *LogWriter) Flush() error {
	if len(l.line) > 0 && l.err == nil {
		l.emit(nil)
		l.pass()
	}
	return l.err
}

// emit adds the buffered line, escaped, then end, to what pass writes.
func (l *LogWriter) emit(end []byte) {
	l.out = appendLogSafe(l.out, l.line, true)
	l.out = append(l.out, end...)
	l.line = l.line[:0]
}

// pass writes the lines emitted.
func (l *LogWriter) pass() {
	if len(l.out) > 0 && l.err == nil {
		_, l.err = l.w.Write(l.out)
	}
	l.out = l.out[:0]
}

// command writes line, one of the tool's own workflow commands ("::error
// file=...::message"): its leading "::" as it is, the rest escaped as any
// line. A line being written is ended first.
func (l *LogWriter) command(line string) error {
	if len(line) < 2 || line[:2] != "::" {
		return errors.New("report: a workflow command must start with \"::\"")
	}
	if len(l.line) > 0 {
		l.emit([]byte("\n"))
		l.pass()
	}
	if l.err != nil {
		return l.err
	}
	out := append([]byte("::"), appendLogSafe(nil, []byte(line[2:]), false)...)
	out = append(out, '\n')
	_, l.err = l.w.Write(out)
	return l.err
}

// logWriter returns w as a LogWriter, and the function that flushes it
// when logWriter made it (a writer of this package called with a plain
// io.Writer).
func logWriter(w io.Writer) (*LogWriter, func() error) {
	if l, ok := w.(*LogWriter); ok {
		return l, func() error { return l.err }
	}
	l := NewLogWriter(w)
	return l, l.Flush
}

// invisible reports whether r is a character that shows nothing: a
// control, a format character (bidi controls, zero-width space and
// joiners, the soft hyphen, the byte order mark, tags), a variation
// selector or another default-ignorable code point.
func invisible(r rune) bool {
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// passThrough is what a LogWriter leaves of the invisible characters: the
// tab, and the escape that starts a terminal colour.
func passThrough(r rune) bool {
	return r == '\t' || r == 0x1b
}

// appendLogSafe appends line (no line end in it) to dst escaped as a
// LogWriter writes it; atStart says the text starts a line (a "::" there
// is escaped).
func appendLogSafe(dst, line []byte, atStart bool) []byte {
	// Fast path: nothing to escape.
	if !bytes.Contains(line, []byte("#")) && !(atStart && colonLead(line)) && !hasInvisible(line) {
		return append(dst, line...)
	}
	return appendLogEscaped(dst, line, atStart)
}

// colonLead reports whether a line may start with "::" after blanks, for a
// line with no invisible character (a control, such as the tab, is one):
// whether its first character but spaces is a ':' or not ASCII (a Unicode
// space). Every line of the JSON report has a ':', few start with one.
func colonLead(line []byte) bool {
	for _, c := range line {
		if c != ' ' {
			return c == ':' || c >= utf8.RuneSelf
		}
	}
	return false
}

// appendLogEscaped is appendLogSafe for a line that may need escaping: it
// reads the line character by character (appendLogSafe copies a line with
// nothing to escape as it is).
func appendLogEscaped(dst, line []byte, atStart bool) []byte {
	var prev1, prev2 rune // the last two characters that are not skipped
	lead := atStart       // no character but blanks and skipped ones so far
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, line[i])
			prev2, prev1 = prev1, r
			lead = false
		case invisible(r) && !passThrough(r):
			dst = appendUnicodeEscape(dst, r)
		case passThrough(r):
			dst = append(dst, line[i:i+n]...)
		case r == '[' && prev1 == '#' && prev2 == '#':
			dst = append(dst, `\u005b`...)
			prev2, prev1 = prev1, r
			lead = false
		case lead && r == ':' && nextVisible(line[i+n:]) == ':':
			dst = append(dst, `\u003a`...)
			prev2, prev1 = prev1, r
			lead = false
		default:
			dst = append(dst, line[i:i+n]...)
			if !unicode.IsSpace(r) {
				lead = false
			}
			prev2, prev1 = prev1, r
		}
		i += n
	}
	return dst
}

// nextVisible returns the first character of b that a runner would not
// skip (not invisible), or -1.
func nextVisible(b []byte) rune {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if !invisible(r) || r == utf8.RuneError && n == 1 {
			return r
		}
		b = b[n:]
	}
	return -1
}

func hasInvisible(b []byte) bool {
	for i := 0; i < len(b); {
		if b[i] < 0x80 {
			if invisible(rune(b[i])) {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && invisible(r) {
			return true
		}
		i += n
	}
	return false
}

// appendUnicodeEscape appends r as \uXXXX (a UTF-16 surrogate pair beyond
// the BMP), the escape both Go and JSON read.
func appendUnicodeEscape(dst []byte, r rune) []byte {
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return fmt.Appendf(dst, `\u%04x\u%04x`, hi, lo)
	}
	return fmt.Appendf(dst, `\u%04x`, r)
}

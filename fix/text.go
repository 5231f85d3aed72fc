package fix

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// Positions.
//
// A position is the one the parser (and CPython's ast) gives: Line is
// 1-based and Col is a 0-based byte offset into the line's UTF-8 text, not
// counting its line end. So a tab is one byte, "é" two, and in a CRLF file
// the CR belongs to the line end, never to a column: the last column of a
// line is the length of its text without "\r\n". A UTF-8 BOM is not part of
// line 1 (column 0 is the byte after it). A lone CR also ends a line, as it
// does for the parser. The position just past the last line end (line
// count+1, column 0) is the end of the file.

// text is a file's bytes with its line table.
type text struct {
	data  []byte
	bom   int   // 3 with a UTF-8 BOM, else 0
	start []int // byte offset where each line starts (start[0] is line 1)
	end   []int // byte offset where each line's text ends (before its line end)
	crlf  bool  // the file's line ends are mostly "\r\n"
}

func newText(data []byte) *text {
	t := &text{data: data}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		t.bom = 3
	}
	crlf, lf := 0, 0
	i := t.bom
	t.start = append(t.start, i)
	for i < len(data) {
		c := data[i]
		if c != '\n' && c != '\r' {
			i++
			continue
		}
		t.end = append(t.end, i)
		if c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			crlf++
			i += 2
		} else {
			if c == '\n' {
				lf++
			}
			i++
		}
		t.start = append(t.start, i)
	}
	t.end = append(t.end, len(data))
	t.crlf = crlf > lf
	return t
}

// offset converts a position to a byte offset into data.
func (t *text) offset(p ast.Pos) (int, error) {
	if p.Line < 1 || p.Line > len(t.start) {
		return 0, fmt.Errorf("line %d is outside the file (%d lines)", p.Line, len(t.start))
	}
	s, e := t.start[p.Line-1], t.end[p.Line-1]
	if p.Col < 0 || p.Col > e-s {
		return 0, fmt.Errorf("column %d is outside line %d (%d bytes)", p.Col, p.Line, e-s)
	}
	off := s + p.Col
	if off < len(t.data) && off > s && !utf8.RuneStart(t.data[off]) {
		return 0, fmt.Errorf("line %d column %d is inside a UTF-8 character", p.Line, p.Col)
	}
	return off, nil
}

// adaptNewlines writes every line end of s ("\n", "\r\n" or a lone "\r")
// as the file's line end.
func (t *text) adaptNewlines(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if t.crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s
}

var cookieRE = regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`)

// encoding returns the PEP 263 encoding a file declares, normalized, or
// "utf-8".
func (t *text) encoding() string {
	rest := t.data[t.bom:]
	for ln := 0; ln < 2 && len(rest) > 0; ln++ {
		i := bytes.IndexAny(rest, "\r\n")
		line := rest
		if i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if m := cookieRE.FindSubmatch(line); m != nil {
			name := strings.ToLower(strings.ReplaceAll(string(m[1]), "_", "-"))
			if name == "utf8" || name == "utf-8" || strings.HasPrefix(name, "utf-8-") {
				return "utf-8"
			}
			return name
		}
		trimmed := bytes.TrimLeft(line, " \t\f")
		if len(trimmed) > 0 && trimmed[0] != '#' {
			break
		}
	}
	return "utf-8"
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

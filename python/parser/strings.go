package parser

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tilegym/tilegym-lint/python/ast"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"
)

func nfkc(s string) string { return norm.NFKC.String(s) }

// strTok describes one string literal token.
type strTok struct {
	idx        int
	bytes, raw bool
	fstr       bool
	body       int32 // offset of the contents in p.src
	bodyEnd    int32
}

func (p *parser) splitString(i int) strTok {
	t := &p.toks[i]
	st := strTok{idx: i}
	j := t.start
	for {
		c := p.src[j]
		if c == '"' || c == '\'' {
			break
		}
		switch c | 0x20 {
		case 'b':
			st.bytes = true
		case 'r':
			st.raw = true
		case 'f':
			st.fstr = true
		}
		j++
	}
	q := p.src[j]
	n := int32(1)
	if j+2 < t.end && p.src[j+1] == q && p.src[j+2] == q && t.end-j >= 6 {
		n = 3
	}
	st.body = j + n
	st.bodyEnd = t.end - n
	return st
}

// fstate accumulates the pieces of an f-string (CPython's FstringParser).
type fstate struct {
	last    []byte
	hasLast bool
	values  []ast.Expr
	fmode   bool
}

func (s *fstate) addLit(b []byte) {
	if len(b) == 0 {
		return
	}
	s.last = append(s.last, b...)
	s.hasLast = true
}

func (p *parser) strNode(s *fstate, first, last int) *ast.Constant {
	c := &ast.Constant{Attrs: p.spanTo(first, last), Value: string(s.last)}
	if p.src[p.toks[first].start] == 'u' {
		c.Kind = strptr("u")
	}
	s.last = nil
	s.hasLast = false
	return c
}

func (p *parser) finish(s *fstate, first, last int) ast.Expr {
	if !s.fmode {
		return p.strNode(s, first, last)
	}
	if s.hasLast {
		s.values = append(s.values, p.strNode(s, first, last))
	}
	if s.values == nil {
		s.values = []ast.Expr{}
	}
	return &ast.JoinedStr{Attrs: p.spanTo(first, last), Values: s.values}
}

// strings parses a run of adjacent string literal tokens.
func (p *parser) strings() ast.Expr {
	first := p.p
	for p.kind() == tString {
		p.next()
	}
	last := p.p - 1
	if first == last {
		// Fast path: one plain str literal without escapes.
		st := p.splitString(first)
		if !st.bytes && !st.fstr {
			body := p.src[st.body:st.bodyEnd]
			if (st.raw || bytes.IndexByte(body, '\\') < 0) && utf8.Valid(body) {
				c := p.newConst(p.tokAttrs(first), p.srcStr[st.body:st.bodyEnd])
				if p.src[p.toks[first].start] == 'u' {
					c.Kind = strptr("u")
				}
				return c
			}
		}
	}
	sts := make([]strTok, 0, last-first+1)
	isBytes := false
	for i := first; i <= last; i++ {
		st := p.splitString(i)
		if i != first && st.bytes != isBytes {
			p.errorAt(i, "cannot mix bytes and nonbytes literals")
		}
		isBytes = st.bytes
		sts = append(sts, st)
	}
	if isBytes {
		var out []byte
		for _, st := range sts {
			body := p.src[st.body:st.bodyEnd]
			for _, c := range body {
				if c >= 0x80 {
					p.errorAt(st.idx, "bytes can only contain ASCII literal characters")
				}
			}
			if st.raw {
				out = append(out, body...)
			} else {
				out = p.decodeBytesEscapes(st.idx, body, out)
			}
		}
		if out == nil {
			out = []byte{}
		}
		return &ast.Constant{Attrs: p.spanTo(first, last), Value: ast.Bytes(out)}
	}
	var s fstate
	for _, st := range sts {
		body := p.src[st.body:st.bodyEnd]
		if !utf8.Valid(body) {
			p.errorAt(st.idx, "(unicode error) 'utf-8' codec can't decode bytes")
		}
		if st.fstr {
			s.fmode = true
			p.fstringConcat(&s, st, st.body, st.bodyEnd, 0, first, last)
			continue
		}
		if st.raw {
			s.addLit(body)
		} else {
			s.addLit(p.decodeStrEscapes(st.idx, body, nil))
		}
	}
	return p.finish(&s, first, last)
}

// fstringConcat parses f-string contents src[pos:end] into s
// (CPython's FstringParser_ConcatFstring). It returns the offset where it
// stopped (at a '}' for nested format specs).
func (p *parser) fstringConcat(s *fstate, st strTok, pos, end int32, lvl int, first, last int) int32 {
	s.fmode = true
	for {
		// literal part
		litStart := pos
		doubled := false
		for pos < end {
			c := p.src[pos]
			pos++
			if !st.raw && c == '\\' && pos < end {
				c = p.src[pos]
				pos++
				if c == 'N' {
					if pos < end {
						c2 := p.src[pos]
						pos++
						if c2 == '{' {
							for pos < end {
								c3 := p.src[pos]
								pos++
								if c3 == '}' {
									break
								}
							}
							continue
						}
					}
					continue
				}
			}
			if c == '{' || c == '}' {
				if lvl == 0 {
					if pos < end && p.src[pos] == c {
						doubled = true
						break
					}
					if c == '}' {
						p.errorAt(st.idx, "f-string: single '}' is not allowed")
					}
				}
				pos--
				break
			}
		}
		litEnd := pos
		if litStart != litEnd {
			lit := p.src[litStart:litEnd]
			if st.raw {
				s.addLit(lit)
			} else {
				s.addLit(p.decodeStrEscapes(st.idx, lit, nil))
			}
		}
		if doubled {
			pos++ // skip the second brace
			continue
		}
		if pos >= end || p.src[pos] == '}' {
			if lvl == 0 && pos < end {
				p.errorAt(st.idx, "f-string: single '}' is not allowed")
			}
			return pos
		}
		// expression
		var expr ast.Expr
		pos, expr = p.fstringExpr(s, st, pos, end, lvl, first, last)
		if s.hasLast {
			s.values = append(s.values, p.strNode(s, first, last))
		}
		s.values = append(s.values, expr)
	}
}

// fstringExpr parses a replacement field starting at the '{' at pos.
func (p *parser) fstringExpr(s *fstate, st strTok, pos, end int32, lvl int, first, last int) (int32, ast.Expr) {
	if lvl >= 2 {
		p.errorAt(st.idx, "f-string: expressions nested too deeply")
	}
	brace := pos
	pos++
	exprStart := pos
	var quote byte
	strType := 0
	var stack []byte
	src := p.src
	for ; pos < end; pos++ {
		ch := src[pos]
		if ch == '\\' {
			p.errorAt(st.idx, "f-string expression part cannot include a backslash")
		}
		if quote != 0 {
			if ch == quote {
				if strType == 3 {
					if pos+2 < end && src[pos+1] == ch && src[pos+2] == ch {
						pos += 2
						strType, quote = 0, 0
						continue
					}
				} else {
					strType, quote = 0, 0
					continue
				}
			}
			continue
		}
		switch {
		case ch == '\'' || ch == '"':
			if pos+2 < end && src[pos+1] == ch && src[pos+2] == ch {
				strType = 3
				pos += 2
			} else {
				strType = 1
			}
			quote = ch
		case ch == '[' || ch == '{' || ch == '(':
			if len(stack) >= maxParenLevel {
				p.errorAt(st.idx, "f-string: too many nested parenthesis")
			}
			stack = append(stack, ch)
		case ch == '#':
			p.errorAt(st.idx, "f-string expression part cannot include '#'")
		case len(stack) == 0 && (ch == '!' || ch == ':' || ch == '}' || ch == '=' || ch == '>' || ch == '<'):
			if pos+1 < end {
				nx := src[pos+1]
				if nx == '=' && (ch == '!' || ch == '=' || ch == '<' || ch == '>') {
					pos++
					continue
				}
			}
			if ch == '>' || ch == '<' {
				continue
			}
			goto done
		case ch == ']' || ch == '}' || ch == ')':
			if len(stack) == 0 {
				p.errorAt(st.idx, "f-string: unmatched '"+string(ch)+"'")
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !(o == '(' && ch == ')' || o == '[' && ch == ']' || o == '{' && ch == '}') {
				p.errorAt(st.idx, "f-string: closing parenthesis '"+string(ch)+"' does not match opening parenthesis '"+string(o)+"'")
			}
		}
	}
done:
	exprEnd := pos
	if quote != 0 {
		p.errorAt(st.idx, "f-string: unterminated string")
	}
	if len(stack) > 0 {
		p.errorAt(st.idx, "f-string: unmatched '"+string(stack[len(stack)-1])+"'")
	}
	if pos >= end {
		p.errorAt(st.idx, "f-string: expecting '}'")
	}
	value := p.compileFstringExpr(st, brace, exprStart, exprEnd)
	hasText := false
	if src[pos] == '=' {
		pos++
		for pos < end && (src[pos] == ' ' || src[pos] == '\t' || src[pos] == '\n' || src[pos] == '\f' || src[pos] == '\r' || src[pos] == '\v') {
			pos++
		}
		if pos >= end {
			p.errorAt(st.idx, "f-string: expecting '}'")
		}
		s.addLit(src[exprStart:pos])
		hasText = true
	}
	conversion := -1
	if src[pos] == '!' {
		pos++
		if pos >= end {
			p.errorAt(st.idx, "f-string: expecting '}'")
		}
		conversion = int(src[pos])
		pos++
		if conversion != 's' && conversion != 'r' && conversion != 'a' {
			p.errorAt(st.idx, "f-string: invalid conversion character: expected 's', 'r', or 'a'")
		}
	}
	var spec ast.Expr
	if pos < end && src[pos] == ':' {
		pos++
		if pos >= end {
			p.errorAt(st.idx, "f-string: expecting '}'")
		}
		var sub fstate
		pos = p.fstringConcat(&sub, st, pos, end, lvl+1, first, last)
		spec = p.finish(&sub, st.idx, st.idx)
	}
	if pos >= end || src[pos] != '}' {
		p.errorAt(st.idx, "f-string: expecting '}'")
	}
	pos++
	if hasText && spec == nil && conversion == -1 {
		conversion = 'r'
	}
	return pos, &ast.FormattedValue{Attrs: p.spanTo(first, last), Value: value, Conversion: conversion, FormatSpec: spec}
}

// fieldLines returns the number of newlines in string token tok before
// offset brace and the offset of the last of them (-1 if none). The fields
// of a token come in increasing order, so the count continues from the
// previous field's instead of rescanning the token: linear, not quadratic,
// in the number of fields.
func (p *parser) fieldLines(tok int, brace int32) (int, int32) {
	c := &p.fieldCursor
	if !c.valid || c.tok != tok || brace < c.pos {
		*c = fieldCursor{valid: true, tok: tok, pos: p.toks[tok].start, lastNL: -1}
	}
	for j := c.pos; j < brace; j++ {
		if p.src[j] == '\n' {
			c.lines++
			c.lastNL = j
		}
	}
	c.pos = brace
	return c.lines, c.lastNL
}

// fieldCursor is the state of fieldLines: the newlines of token tok
// before offset pos.
type fieldCursor struct {
	valid  bool
	tok    int
	pos    int32
	lines  int
	lastNL int32
}

// compileFstringExpr parses the expression src[s:e] of an f-string
// replacement field whose '{' is at brace, reproducing CPython 3.11's
// position computation.
func (p *parser) compileFstringExpr(st strTok, brace, s, e int32) ast.Expr {
	src := p.src
	i := s
	for i < e && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\f') {
		i++
	}
	if i == e {
		if c := src[e]; c == '!' || c == ':' || c == '=' {
			p.errorAt(st.idx, "f-string: expression required before '"+string(c)+"'")
		}
		p.errorAt(st.idx, "f-string: empty expression not allowed")
	}
	if p.fdepth >= maxParenLevel {
		p.errorAt(st.idx, "too many nested f-strings")
	}
	t := &p.toks[st.idx]
	// newline directly after the brace (only whitespace in between)?
	nlAfter := true
	for j := brace + 1; j < t.end && src[j] != '}' && src[j] != '\n'; j++ {
		if c := src[j]; c != ' ' && c != '\t' && c != '\f' {
			nlAfter = false
			break
		}
	}
	lines, lastNL := p.fieldLines(st.idx, brace)
	cols := 0
	if !nlAfter {
		// Columns from the line start (or the token start) to the brace.
		if lastNL >= 0 {
			cols = int(brace - lastNL - 1)
		} else {
			cols = int(brace - t.start)
		}
	}
	startLine := int(t.line) + lines
	startCol := cols
	if lines == 0 {
		startCol += int(t.col)
	}
	buf := make([]byte, 0, e-s+2)
	buf = append(buf, '(')
	buf = append(buf, src[s:e]...)
	buf = append(buf, ')')
	bufStr := string(buf)
	tz := &tokenizer{filename: p.filename, src: buf, srcStr: bufStr, line: startLine, colShiftLine: startLine, colShift: startCol}
	// The field's tokens are dropped after its parse: their buffer comes
	// from (and goes back to) the arena's free list.
	if n := len(p.tokScratch.toks); n > 0 {
		tz.toks = p.tokScratch.toks[n-1][:0]
		p.tokScratch.toks = p.tokScratch.toks[:n-1]
	}
	tz.tokenizeWith(&p.tokScratch)
	defer func() { p.tokScratch.toks = append(p.tokScratch.toks, tz.toks) }()
	sub := &parser{filename: p.filename, src: buf, srcStr: bufStr, toks: tz.toks, depth: p.depth + 1, fdepth: p.fdepth + 1, arena: p.arena}
	expr := sub.starExpressions()
	sub.got(tNewline)
	if sub.kind() != tEOF {
		sub.syntaxError()
	}
	return expr
}

// ---------------------------------------------------------------------------
// escapes

// appendWTF8 appends r in UTF-8, encoding surrogates like WTF-8.
func appendWTF8(b []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(b, byte(0xE0|r>>12), byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(b, r)
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func (p *parser) decodeStrEscapes(tok int, b []byte, out []byte) []byte {
	if out == nil {
		out = make([]byte, 0, len(b))
	}
	for i := 0; i < len(b); {
		c := b[i]
		if c != '\\' {
			j := i + 1
			for j < len(b) && b[j] != '\\' {
				j++
			}
			out = append(out, b[i:j]...)
			i = j
			continue
		}
		i++
		if i >= len(b) {
			// Only possible for an f-string piece ending in "\{":
			// CPython keeps the backslash.
			out = append(out, '\\')
			break
		}
		c = b[i]
		i++
		switch c {
		case '\n':
		case '\\', '\'', '"':
			out = append(out, c)
		case 'a':
			out = append(out, 7)
		case 'b':
			out = append(out, 8)
		case 'f':
			out = append(out, 12)
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'v':
			out = append(out, 11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := rune(c - '0')
			for k := 0; k < 2 && i < len(b) && b[i] >= '0' && b[i] <= '7'; k++ {
				v = v*8 + rune(b[i]-'0')
				i++
			}
			out = appendWTF8(out, v)
		case 'x', 'u', 'U':
			n := 2
			if c == 'u' {
				n = 4
			} else if c == 'U' {
				n = 8
			}
			var v rune
			for k := 0; k < n; k++ {
				if i >= len(b) || hexVal(b[i]) < 0 {
					p.errorAt(tok, "(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\"+string(c)+" escape")
				}
				v = v*16 + rune(hexVal(b[i]))
				i++
			}
			if v > 0x10FFFF {
				p.errorAt(tok, "(unicode error) 'unicodeescape' codec can't decode bytes: illegal Unicode character")
			}
			out = appendWTF8(out, v)
		case 'N':
			if i >= len(b) || b[i] != '{' {
				p.errorAt(tok, "(unicode error) 'unicodeescape' codec can't decode bytes: malformed \\N character escape")
			}
			j := i + 1
			for j < len(b) && b[j] != '}' {
				j++
			}
			if j >= len(b) || j == i+1 {
				p.errorAt(tok, "(unicode error) 'unicodeescape' codec can't decode bytes: malformed \\N character escape")
			}
			r, ok := lookupRuneName(string(b[i+1 : j]))
			if !ok {
				p.errorAt(tok, "(unicode error) 'unicodeescape' codec can't decode bytes: unknown Unicode character name")
			}
			out = appendWTF8(out, r)
			i = j + 1
		default:
			out = append(out, '\\')
			i--
		}
	}
	return out
}

func (p *parser) decodeBytesEscapes(tok int, b []byte, out []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		i++
		if i >= len(b) {
			p.errorAt(tok, "\\ at end of string")
		}
		c = b[i]
		i++
		switch c {
		case '\n':
		case '\\', '\'', '"':
			out = append(out, c)
		case 'a':
			out = append(out, 7)
		case 'b':
			out = append(out, 8)
		case 'f':
			out = append(out, 12)
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'v':
			out = append(out, 11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(c - '0')
			for k := 0; k < 2 && i < len(b) && b[i] >= '0' && b[i] <= '7'; k++ {
				v = v*8 + int(b[i]-'0')
				i++
			}
			out = append(out, byte(v))
		case 'x':
			if i+1 >= len(b)+0 || hexVal(b[i]) < 0 || i+1 >= len(b) || hexVal(b[i+1]) < 0 {
				p.errorAt(tok, "(value error) invalid \\x escape")
			}
			out = append(out, byte(hexVal(b[i])*16+hexVal(b[i+1])))
			i += 2
		default:
			out = append(out, '\\')
			i--
		}
	}
	return out
}

var (
	runeNamesOnce sync.Once
	runeNames     map[string]rune
)

func lookupRuneName(name string) (rune, bool) {
	name = strings.ToUpper(name)
	if strings.HasPrefix(name, "CJK UNIFIED IDEOGRAPH-") || strings.HasPrefix(name, "CJK COMPATIBILITY IDEOGRAPH-") {
		h := name[strings.LastIndexByte(name, '-')+1:]
		var v rune
		if len(h) < 4 || len(h) > 5 {
			return 0, false
		}
		for i := 0; i < len(h); i++ {
			x := hexVal(h[i])
			if x < 0 {
				return 0, false
			}
			v = v*16 + rune(x)
		}
		return v, true
	}
	if strings.HasPrefix(name, "HANGUL SYLLABLE ") {
		return hangulSyllable(name[len("HANGUL SYLLABLE "):])
	}
	runeNamesOnce.Do(func() {
		runeNames = make(map[string]rune, 40000)
		for r := rune(0); r <= 0x10FFFF; r++ {
			if r >= 0xD800 && r <= 0xDFFF {
				continue
			}
			n := runenames.Name(r)
			if n == "" || n[0] == '<' {
				continue
			}
			runeNames[n] = r
		}
		for n, r := range nameAliases {
			runeNames[n] = r
		}
	})
	r, ok := runeNames[name]
	return r, ok
}

var (
	hangulL = []string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	hangulV = []string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	hangulT = []string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

func hangulSyllable(s string) (rune, bool) {
	for l := range hangulL {
		if !strings.HasPrefix(s, hangulL[l]) {
			continue
		}
		r1 := s[len(hangulL[l]):]
		for v := range hangulV {
			if !strings.HasPrefix(r1, hangulV[v]) {
				continue
			}
			r2 := r1[len(hangulV[v]):]
			for t := range hangulT {
				if r2 == hangulT[t] {
					return rune(0xAC00 + (l*21+v)*28 + t), true
				}
			}
		}
	}
	return 0, false
}

// nameAliases are a few formal aliases (NameAliases.txt) accepted by \N{}.
var nameAliases = map[string]rune{
	"NULL": 0, "BEL": 7, "BACKSPACE": 8, "CHARACTER TABULATION": 9, "LINE FEED": 10, "LF": 10,
	"NEW LINE": 10, "END OF LINE": 10, "LINE TABULATION": 11, "FORM FEED": 12, "CARRIAGE RETURN": 13,
	"CR": 13, "ESCAPE": 27, "ESC": 27, "SPACE": 32, "DELETE": 127, "DEL": 127, "NO-BREAK SPACE": 0xA0,
	"NBSP": 0xA0, "ZERO WIDTH SPACE": 0x200B, "ZWSP": 0x200B, "ZERO WIDTH NON-JOINER": 0x200C, "ZWNJ": 0x200C,
	"ZERO WIDTH JOINER": 0x200D, "ZWJ": 0x200D, "BYTE ORDER MARK": 0xFEFF, "BOM": 0xFEFF, "ZWNBSP": 0xFEFF,
	"SOFT HYPHEN": 0xAD, "SHY": 0xAD, "TAB": 9, "HORIZONTAL TABULATION": 9, "VERTICAL TABULATION": 11,
	"NEXT LINE": 0x85, "NEL": 0x85, "LATIN CAPITAL LETTER GHA": 0x1A2, "LATIN SMALL LETTER GHA": 0x1A3,
}

package parser

import (
	"bytes"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/tilegym/tilegym-lint/python/ast"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tNewline
	tIndent
	tDedent
	tName
	tNumber
	tString
	// operators and delimiters
	tLParen
	tRParen
	tLBrack
	tRBrack
	tLBrace
	tRBrace
	tColon
	tComma
	tSemi
	tPlus
	tMinus
	tStar
	tSlash
	tVBar
	tAmper
	tLess
	tGreater
	tEqual
	tDot
	tPercent
	tEqEqual
	tNotEqual
	tLessEqual
	tGreaterEqual
	tTilde
	tCircumflex
	tLShift
	tRShift
	tDoubleStar
	tPlusEqual
	tMinEqual
	tStarEqual
	tSlashEqual
	tPercentEqual
	tAmperEqual
	tVBarEqual
	tCircumflexEqual
	tLShiftEqual
	tRShiftEqual
	tDoubleStarEqual
	tDoubleSlash
	tDoubleSlashEqual
	tAt
	tAtEqual
	tRArrow
	tEllipsis
	tColonEqual
	tExclamation
	// tError stands where the tokenizer stopped on an error (see tokError).
	tError
	// tBadOp is an unknown operator character ('$', '?', '!' alone).
	tBadOp
	// keywords
	kwFalse
	kwNone
	kwTrue
	kwAnd
	kwAs
	kwAssert
	kwAsync
	kwAwait
	kwBreak
	kwClass
	kwContinue
	kwDef
	kwDel
	kwElif
	kwElse
	kwExcept
	kwFinally
	kwFor
	kwFrom
	kwGlobal
	kwIf
	kwImport
	kwIn
	kwIs
	kwLambda
	kwNonlocal
	kwNot
	kwOr
	kwPass
	kwRaise
	kwReturn
	kwTry
	kwWhile
	kwWith
	kwYield
)

type token struct {
	kind        tokKind
	nonASCII    bool  // NAME tokens only (stale in others): has bytes >= 0x80, NFKC may apply
	level       int16 // bracket nesting after the token (CPython's token level)
	start, end  int32 // byte offsets in the source
	line, col   int32
	eline, ecol int32
}

// keywordList lists the strings keywordKind recognizes (checked by
// TestKeywordMask).
var keywordList = ast.Keywords

// keywordLens has bit n of entry c set if a keyword of length n starts with
// byte c: most names are rejected without comparing strings.
var keywordLens = func() (m [256]uint16) {
	for _, k := range keywordList {
		m[k[0]] |= 1 << len(k)
	}
	return
}()

func keywordKind(b []byte) tokKind {
	switch string(b) {
	case "False":
		return kwFalse
	case "None":
		return kwNone
	case "True":
		return kwTrue
	case "and":
		return kwAnd
	case "as":
		return kwAs
	case "assert":
		return kwAssert
	case "async":
		return kwAsync
	case "await":
		return kwAwait
	case "break":
		return kwBreak
	case "class":
		return kwClass
	case "continue":
		return kwContinue
	case "def":
		return kwDef
	case "del":
		return kwDel
	case "elif":
		return kwElif
	case "else":
		return kwElse
	case "except":
		return kwExcept
	case "finally":
		return kwFinally
	case "for":
		return kwFor
	case "from":
		return kwFrom
	case "global":
		return kwGlobal
	case "if":
		return kwIf
	case "import":
		return kwImport
	case "in":
		return kwIn
	case "is":
		return kwIs
	case "lambda":
		return kwLambda
	case "nonlocal":
		return kwNonlocal
	case "not":
		return kwNot
	case "or":
		return kwOr
	case "pass":
		return kwPass
	case "raise":
		return kwRaise
	case "return":
		return kwReturn
	case "try":
		return kwTry
	case "while":
		return kwWhile
	case "with":
		return kwWith
	case "yield":
		return kwYield
	}
	return tName
}

const maxIndent = 100
const maxParenLevel = 200

type tokenizer struct {
	filename  string
	src       []byte
	srcStr    string // string(src)
	pos       int
	line      int
	lineStart int
	toks      []token
	comments  []ast.Comment

	indents    []int
	altIndents []int
	parens     []byte
	parenLines []int
	parenCols  []int
	atBOL      bool
	// An f-string field's sub-tokenizer: the line (colShiftLine) whose
	// tokens continue a line of the file, and by how many columns they shift.
	colShiftLine int
	colShift     int
	shapes       shapes // for arena.presize
}

// tokScratch holds the work stacks of the tokenizers of one parse, which run
// one at a time, so that they are not grown anew by every parse.
type tokScratch struct {
	indents, altIndents   []int
	parens                []byte
	parenLines, parenCols []int
	comments              []ast.Comment
	toks                  [][]token // free token buffers for f-string fields
}

// tokenizeWith runs tokenize with the stacks of s and returns an exact-size
// copy of the comments (nil if none). The comment buffer of s is cleared
// after use, even when tokenize bails out, so it never holds source text.
func (t *tokenizer) tokenizeWith(s *tokScratch) (comments []ast.Comment) {
	t.indents, t.altIndents = s.indents[:0], s.altIndents[:0]
	t.parens, t.parenLines, t.parenCols = s.parens[:0], s.parenLines[:0], s.parenCols[:0]
	t.comments = s.comments[:0]
	defer func() {
		s.indents, s.altIndents = t.indents, t.altIndents
		s.parens, s.parenLines, s.parenCols = t.parens, t.parenLines, t.parenCols
		clear(t.comments)
		s.comments = t.comments[:0]
		t.comments = nil
	}()
	t.tokenize()
	if len(t.comments) > 0 {
		comments = make([]ast.Comment, len(t.comments))
		copy(comments, t.comments)
	}
	return comments
}

func (t *tokenizer) fail(line, col int, msg string) {
	panic(bailout{err: &Error{t.filename, line, col, msg}})
}

// failQuiet is fail for the errors CPython's tokenizer reports without
// setting an exception (bad dedent, tabs, backslash): they are raised only
// when the parser reaches them, never in place of an earlier parse error.
func (t *tokenizer) failQuiet(line, col int, msg string) {
	panic(bailout{err: &Error{t.filename, line, col, msg}, quiet: true})
}

func (t *tokenizer) failHere(msg string) {
	t.fail(t.line, t.pos-t.lineStart, msg)
}

// failBefore fails at the character before the current one: where
// CPython's syntaxerror() points (its offset counts the characters before
// its cursor, which is at ours).
func (t *tokenizer) failBefore(msg string) {
	t.fail(t.line, max(t.pos-t.lineStart-1, 0), msg)
}

// lineEnd is the column of the end of the current line.
func (t *tokenizer) lineEnd() int {
	if i := bytes.IndexByte(t.src[t.lineStart:], '\n'); i >= 0 {
		return i
	}
	return len(t.src) - t.lineStart
}

// kindBack is the kind of the n-th last token emitted (tNewline before the
// first).
func (t *tokenizer) kindBack(n int) tokKind {
	if i := len(t.toks) - n; i >= 0 {
		return t.toks[i].kind
	}
	return tNewline
}

// stringShape notes the string token just emitted.
func (t *tokenizer) stringShape() {
	t.shapes.token(tString)
	if t.kindBack(2) != tString {
		t.shapes.consts++
	}
}

func (t *tokenizer) emit(k tokKind, start int, line, col int) {
	// The fields are stored straight into the slice: building the token in
	// a local and copying it costs a store-forwarding stall per token.
	if len(t.toks) == cap(t.toks) {
		t.grow()
	}
	t.toks = t.toks[:len(t.toks)+1]
	tk := &t.toks[len(t.toks)-1]
	tk.kind, tk.start, tk.end, tk.level = k, int32(start), int32(t.pos), int16(len(t.parens))
	tk.line, tk.col, tk.eline, tk.ecol = int32(line), int32(col), int32(t.line), int32(t.pos-t.lineStart)
}

// grow doubles the token buffer: append grows a large slice by a quarter,
// which copies a file of dense tokens (numbers in lists) four times over.
func (t *tokenizer) grow() {
	toks := make([]token, len(t.toks), 2*cap(t.toks)+16)
	copy(toks, t.toks)
	t.toks = toks
}

// identClass marks the bytes that may start (1) or continue (1|2) a NAME:
// ASCII letters, '_', digits (continue only) and every byte >= 0x80 (checked
// by checkIdent).
var identClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80:
			t[c] = 3
		case c >= '0' && c <= '9':
			t[c] = 2
		}
	}
	return
}()

func isIdentStart(c byte) bool { return identClass[c]&1 != 0 }

func isIdentChar(c byte) bool { return identClass[c] != 0 }

// tokenize splits the whole source into tokens.
func (t *tokenizer) tokenize() {
	src := t.src
	if t.line == 0 {
		t.line = 1
	}
	t.indents = append(t.indents[:0], 0)
	t.altIndents = append(t.altIndents[:0], 0)
	t.atBOL = true
	t.shapes.init()
	lineHasTokens := false
	commentAt := -1 // offset of a comment on the current line
	for {
		if t.atBOL {
			t.atBOL = false
			col, alt := 0, 0
			contCol := 0
			// Leading spaces first, in a local (the common case).
			pos := t.pos
			for pos < len(src) && src[pos] == ' ' {
				pos++
			}
			col, alt = pos-t.pos, pos-t.pos
			t.pos = pos
			for t.pos < len(src) {
				c := src[t.pos]
				if c == ' ' {
					col++
					alt++
				} else if c == '\t' {
					col = (col/8 + 1) * 8
					alt++
				} else if c == '\f' {
					col, alt = 0, 0
				} else if c == '\\' {
					// Indentation continued over a backslash: like CPython
					// 3.11, the column of the first backslash counts, unless
					// it is 0, then the indentation of what follows counts.
					if contCol == 0 {
						contCol = col
					}
					if t.pos+1 >= len(src) || src[t.pos+1] != '\n' {
						break
					}
					t.pos += 2
					t.line++
					t.lineStart = t.pos
					if t.pos >= len(src) {
						t.failQuiet(t.line, 0, "unexpected EOF while parsing")
					}
					continue
				} else {
					break
				}
				t.pos++
			}
			if contCol != 0 {
				col, alt = contCol, contCol
			}
			blank := t.pos >= len(src) || src[t.pos] == '#' || src[t.pos] == '\n'
			if !blank && len(t.parens) == 0 {
				top := len(t.indents) - 1
				if col == t.indents[top] {
					if alt != t.altIndents[top] {
						t.failQuiet(t.line, 0, "inconsistent use of tabs and spaces in indentation")
					}
				} else if col > t.indents[top] {
					if len(t.indents) >= maxIndent {
						t.failQuiet(t.line, 0, "too many levels of indentation")
					}
					if alt <= t.altIndents[top] {
						t.failQuiet(t.line, 0, "inconsistent use of tabs and spaces in indentation")
					}
					t.indents = append(t.indents, col)
					t.altIndents = append(t.altIndents, alt)
					t.emit(tIndent, t.pos, t.line, t.pos-t.lineStart)
				} else {
					// The checks come before the DEDENT tokens: CPython's
					// parser gets none of them when the indentation is bad.
					n := 0
					for top > 0 && col < t.indents[top] {
						top--
						n++
					}
					if col != t.indents[top] {
						// CPython points at the end of the line.
						t.failQuiet(t.line, t.lineEnd(), "unindent does not match any outer indentation level")
					}
					if alt != t.altIndents[top] {
						t.failQuiet(t.line, 0, "inconsistent use of tabs and spaces in indentation")
					}
					for ; n > 0; n-- {
						t.emit(tDedent, t.pos, t.line, t.pos-t.lineStart)
					}
					t.indents = t.indents[:top+1]
					t.altIndents = t.altIndents[:top+1]
				}
			}
		}
		// skip spaces
		pos := t.pos
		for pos < len(src) {
			if c := src[pos]; c != ' ' && c != '\t' && c != '\f' {
				break
			}
			pos++
		}
		t.pos = pos
		if pos >= len(src) {
			break
		}
		c := src[t.pos]
		start := t.pos
		line, col := t.line, t.pos-t.lineStart
		switch {
		case c == '#':
			e := len(src)
			if i := bytes.IndexByte(src[t.pos:], '\n'); i >= 0 {
				e = t.pos + i
			}
			t.comments = append(t.comments, ast.Comment{Pos: ast.Pos{Line: line, Col: col}, Text: t.srcStr[t.pos:e]})
			t.pos = e
			commentAt = start
			continue
		case c == '\n':
			t.pos++
			if lineHasTokens && len(t.parens) == 0 {
				// After a comment, CPython's NEWLINE starts at the '#'.
				if commentAt >= 0 {
					start, col = commentAt, commentAt-t.lineStart
				}
				t.emit(tNewline, start, line, col)
				t.shapes.endStmt()
				lineHasTokens = false
			}
			commentAt = -1
			t.line++
			t.lineStart = t.pos
			t.atBOL = true
			continue
		case c == '\\':
			if t.pos+1 < len(src) && src[t.pos+1] == '\n' {
				t.pos += 2
				t.line++
				t.lineStart = t.pos
				if t.pos >= len(src) {
					t.failQuiet(t.line, 0, "unexpected EOF while parsing")
				}
				continue
			}
			if t.pos+1 >= len(src) {
				t.failQuiet(line, col, "unexpected EOF while parsing")
			}
			t.failQuiet(line, col+1, "unexpected character after line continuation character")
		}
		lineHasTokens = true
		switch {
		case isIdentStart(c):
			// string prefix?
			e := t.pos
			var high byte
			for e < len(src) && isIdentChar(src[e]) {
				high |= src[e]
				e++
			}
			if e < len(src) && (src[e] == '"' || src[e] == '\'') && isStringPrefix(src[t.pos:e]) {
				fstr, raw := false, false
				for _, c := range src[t.pos:e] {
					switch c | 0x20 {
					case 'f':
						fstr = true
					case 'r':
						raw = true
					}
				}
				t.pos = e
				if fstr {
					t.scanFString(start, line, col, raw)
				} else {
					t.scanString(start, line, col)
				}
				t.stringShape()
				continue
			}
			k := tName
			if high >= 0x80 {
				t.checkIdent(t.pos, e)
			} else if n := e - start; n <= 8 && keywordLens[src[start]]&(1<<n) != 0 {
				k = keywordKind(src[start:e])
			}
			t.pos = e
			prev := t.kindBack(1)
			t.emit(k, start, line, col)
			t.toks[len(t.toks)-1].nonASCII = high >= 0x80
			t.shapes.token(k)
			switch k {
			case tName:
				t.shapes.name(prev, len(t.parens))
			case kwNone, kwTrue, kwFalse:
				t.shapes.consts++
			case kwImport, kwFrom:
				t.shapes.inImport = true
			}
		case c >= '0' && c <= '9' || c == '.' && t.pos+1 < len(src) && src[t.pos+1] >= '0' && src[t.pos+1] <= '9':
			t.scanNumber()
			t.emit(tNumber, start, line, col)
			t.shapes.token(tNumber)
			t.shapes.consts++
		case c == '"' || c == '\'':
			t.scanString(start, line, col)
			t.stringShape()
		default:
			k := t.scanOp()
			prev := t.kindBack(1)
			sh := &t.shapes
			sh.token(k)
			switch k {
			case tLParen, tLBrack, tLBrace:
				if len(t.parens) >= maxParenLevel {
					t.fail(line, col, "too many nested parentheses")
				}
				t.parens = append(t.parens, c)
				t.parenLines = append(t.parenLines, line)
				t.parenCols = append(t.parenCols, col)
				sh.open(k, prev, t.kindBack(2), len(t.parens))
			case tComma:
				sh.comma(len(t.parens))
			case tEqual:
				sh.equal(prev, len(t.parens))
			case tDot:
				if !sh.inImport {
					sh.attrs++
				}
			case tSemi:
				sh.endStmt()
			case tEllipsis:
				sh.consts++
			case tRParen, tRBrack, tRBrace:
				if len(t.parens) == 0 {
					t.fail(line, col, "unmatched '"+string(c)+"'")
				}
				o := t.parens[len(t.parens)-1]
				if !(o == '(' && c == ')' || o == '[' && c == ']' || o == '{' && c == '}') {
					t.fail(line, col, "closing parenthesis '"+string(c)+"' does not match opening parenthesis '"+string(o)+"'")
				}
				sh.close(prev, len(t.parens))
				t.parens = t.parens[:len(t.parens)-1]
				t.parenLines = t.parenLines[:len(t.parenLines)-1]
				t.parenCols = t.parenCols[:len(t.parenCols)-1]
			default:
				if endsExprStmt[k] && len(t.parens) == 0 {
					sh.exprLike = false
				}
				if binaryOps[k] && endsOperand[prev] {
					sh.binops++
				}
			}
			t.emit(k, start, line, col)
		}
	}
	if len(t.parens) > 0 {
		n := len(t.parens) - 1
		t.failQuiet(t.parenLines[n], t.parenCols[n], "'"+string(t.parens[n])+"' was never closed")
	}
	if lineHasTokens {
		if commentAt >= 0 {
			t.emit(tNewline, commentAt, t.line, commentAt-t.lineStart)
		} else {
			t.emit(tNewline, t.pos, t.line, t.pos-t.lineStart)
		}
		t.shapes.endStmt()
	}
	for i := 1; i < len(t.indents); i++ {
		t.emit(tDedent, t.pos, t.line, t.pos-t.lineStart)
	}
	t.emit(tEOF, t.pos, t.line, t.pos-t.lineStart)
	if t.colShift != 0 {
		// An f-string field's first line continues a line of the file:
		// shift the columns of the tokens that end on it (they also start
		// on it, the first line of the field).
		for i := range t.toks {
			if tk := &t.toks[i]; int(tk.eline) == t.colShiftLine {
				tk.col += int32(t.colShift)
				tk.ecol += int32(t.colShift)
			}
		}
	}
}

// checkIdent validates a (possibly non-ASCII) identifier in src[s:e].
func (t *tokenizer) checkIdent(s, e int) {
	first := true
	for i := s; i < e; {
		c := t.src[i]
		if c < 0x80 {
			first = false
			i++
			continue
		}
		r, n := utf8.DecodeRune(t.src[i:e])
		ok := false
		if first {
			ok = isXIDStart(r)
		} else {
			ok = isXIDContinue(r)
		}
		if !ok {
			t.fail(t.line, i-t.lineStart, "invalid character '"+string(r)+"'")
		}
		first = false
		i += n
	}
}

func isXIDStart(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r) || r == '_'
}

func isXIDContinue(r rune) bool {
	return isXIDStart(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Nd, r) ||
		unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Other_ID_Continue, r) || r == 0xB7
}

func isStringPrefix(p []byte) bool {
	if len(p) > 2 {
		return false
	}
	var b, r, u, f int
	for _, c := range p {
		switch c | 0x20 {
		case 'b':
			b++
		case 'r':
			r++
		case 'u':
			u++
		case 'f':
			f++
		default:
			return false
		}
	}
	if b > 1 || r > 1 || u > 1 || f > 1 {
		return false
	}
	if u == 1 && len(p) > 1 {
		return false
	}
	if b == 1 && f == 1 {
		return false
	}
	return true
}

func (t *tokenizer) scanString(start, line, col int) {
	src := t.src
	q := src[t.pos]
	triple := t.pos+2 < len(src) && src[t.pos+1] == q && src[t.pos+2] == q
	if triple {
		t.pos += 3
		for {
			if t.pos >= len(src) {
				t.fail(line, col, "unterminated triple-quoted string literal (detected at line "+strconv.Itoa(t.line)+")")
			}
			c := src[t.pos]
			if c == q && t.pos+2 < len(src) && src[t.pos+1] == q && src[t.pos+2] == q {
				t.pos += 3
				break
			}
			if c == '\\' {
				t.pos++
				if t.pos < len(src) && src[t.pos] == '\n' {
					t.pos++
					t.line++
					t.lineStart = t.pos
				} else if t.pos < len(src) {
					t.pos++
				}
				continue
			}
			if c == '\n' {
				t.line++
				t.lineStart = t.pos + 1
			}
			t.pos++
		}
	} else {
		t.pos++
		for {
			if t.pos >= len(src) || src[t.pos] == '\n' {
				t.fail(line, col, "unterminated string literal (detected at line "+strconv.Itoa(line)+")")
			}
			c := src[t.pos]
			if c == q {
				t.pos++
				break
			}
			if c == '\\' {
				t.pos++
				if t.pos < len(src) {
					if src[t.pos] == '\n' {
						t.line++
						t.lineStart = t.pos + 1
					}
					t.pos++
				}
				continue
			}
			t.pos++
		}
	}
	t.emit(tString, start, line, col)
}

// scanFString scans an f-string. It first uses the Python 3.11 rule (the
// literal ends at the first matching quote). If that leaves a replacement
// field open, which 3.11 rejects anyway, it rescans with the Python 3.12
// (PEP 701) rule, where replacement fields may contain any string literal,
// including ones using the same quotes.
func (t *tokenizer) scanFString(start, line, col int, raw bool) {
	save, saveLine, saveLS := t.pos, t.line, t.lineStart
	t.scanString(start, line, col)
	tk := &t.toks[len(t.toks)-1]
	q := t.src[save]
	n := int32(1)
	if tk.end-int32(save) >= 6 && t.src[save+1] == q && t.src[save+2] == q {
		n = 3
	}
	if fstringComplete(t.src[int32(save)+n:tk.end-n], raw) {
		return
	}
	// Rescan with the 3.12 rule.
	t.toks = t.toks[:len(t.toks)-1]
	t.pos, t.line, t.lineStart = save, saveLine, saveLS
	t.scanFString312(raw, 0)
	t.emit(tString, start, line, col)
}

// fstringComplete reports whether an f-string body (as tokenized by Python
// 3.11) ends outside any replacement field, following the scan of CPython
// 3.11's f-string parser. Bodies with other errors count as complete: the
// f-string parser reports those.
func fstringComplete(b []byte, raw bool) bool {
	_, ok := fstrLiteral(b, 0, raw, 0)
	return ok
}

// fstrLiteral scans literal text from i up to the end (lvl 0) or to the '}'
// closing a format spec (lvl > 0). ok is false when the end of the body is
// reached inside a replacement field.
func fstrLiteral(b []byte, i int, raw bool, lvl int) (int, bool) {
	if lvl > 2 {
		// CPython 3.11 rejects such nesting anyway ("expressions nested
		// too deeply"); stop before deep recursion.
		return len(b), true
	}
	for i < len(b) {
		c := b[i]
		if c == '\\' && !raw && i+1 < len(b) {
			n := b[i+1]
			if n == 'N' && i+2 < len(b) && b[i+2] == '{' {
				i += 3
				for i < len(b) && b[i] != '}' {
					i++
				}
				i++
				continue
			}
			if n != '{' && n != '}' {
				i += 2
				continue
			}
			i++
			continue
		}
		switch c {
		case '{':
			if lvl == 0 && i+1 < len(b) && b[i+1] == '{' {
				i += 2
				continue
			}
			var ok bool
			if i, ok = fstrField(b, i+1, raw, lvl); !ok {
				return i, false
			}
			continue
		case '}':
			if lvl > 0 {
				return i, true
			}
		}
		i++
	}
	return i, lvl == 0
}

// fstrField scans a replacement field after its '{' and returns the offset
// after its closing '}'.
func fstrField(b []byte, i int, raw bool, lvl int) (int, bool) {
	depth := 0
	for i < len(b) {
		c := b[i]
		switch {
		case c == '\'' || c == '"':
			if i+2 < len(b) && b[i+1] == c && b[i+2] == c {
				i += 3
				for i+2 < len(b) && !(b[i] == c && b[i+1] == c && b[i+2] == c) {
					i++
				}
				if i+2 >= len(b) {
					return len(b), false
				}
				i += 3
				continue
			}
			i++
			for i < len(b) && b[i] != c {
				i++
			}
			if i >= len(b) {
				return i, false
			}
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == '}':
			if depth == 0 {
				return i + 1, true
			}
			depth--
		case depth == 0 && c == '!' && i+1 < len(b) && b[i+1] != '=':
			i++ // conversion character
		case depth == 0 && c == ':':
			var ok bool
			if i, ok = fstrLiteral(b, i+1, raw, lvl+1); !ok {
				return i, false
			}
			if i >= len(b) {
				return i, false
			}
			return i + 1, true
		}
		i++
	}
	return i, false
}

func (t *tokenizer) newline() {
	t.line++
	t.lineStart = t.pos + 1
}

// scanFString312 scans an f-string body with PEP 701 nesting; t.pos is at
// the opening quote.
func (t *tokenizer) scanFString312(raw bool, level int) {
	src := t.src
	if level >= maxParenLevel {
		t.failHere("too many nested f-strings")
	}
	q := src[t.pos]
	startLine, startCol := t.line, t.pos-t.lineStart
	triple := t.pos+2 < len(src) && src[t.pos+1] == q && src[t.pos+2] == q
	if triple {
		t.pos += 3
	} else {
		t.pos++
	}
	// stack of open constructs: '{' replacement field expression part,
	// ':' format spec, '(' '[' brackets inside an expression.
	var stack []byte
	for {
		if t.pos >= len(src) {
			t.fail(startLine, startCol, "unterminated f-string literal")
		}
		c := src[t.pos]
		top := byte(0)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top == 0 || top == ':' {
			// literal text (top level or format spec)
			if top == 0 && c == q && (!triple || t.pos+2 < len(src) && src[t.pos+1] == q && src[t.pos+2] == q) {
				if triple {
					t.pos += 3
				} else {
					t.pos++
				}
				return
			}
			switch c {
			case '\n':
				if !triple {
					t.fail(startLine, startCol, "unterminated f-string literal")
				}
				t.newline()
			case '\\':
				if !raw && t.pos+1 < len(src) {
					t.pos++
					if src[t.pos] == '\n' {
						t.newline()
					}
				}
			case '{':
				if top == 0 && t.pos+1 < len(src) && src[t.pos+1] == '{' {
					t.pos++
				} else {
					stack = append(stack, '{')
				}
			case '}':
				if top == ':' {
					stack = stack[:len(stack)-1] // end of spec and of its field
					if len(stack) > 0 && stack[len(stack)-1] == '{' {
						stack = stack[:len(stack)-1]
					}
				} else if t.pos+1 < len(src) && src[t.pos+1] == '}' {
					t.pos++
				}
			}
			t.pos++
			continue
		}
		// inside an expression
		switch c {
		case '\'', '"':
			// a nested string literal; its prefix letters were skipped as
			// identifier characters just before it.
			p := t.pos
			for p > 0 && isIdentChar(src[p-1]) {
				p--
			}
			pre := src[p:t.pos]
			if isStringPrefix(pre) {
				f, r := false, false
				for _, x := range pre {
					switch x | 0x20 {
					case 'f':
						f = true
					case 'r':
						r = true
					}
				}
				if f {
					t.scanFString312(r, level+1)
					continue
				}
			}
			n := len(t.toks)
			t.scanString(t.pos, t.line, t.pos-t.lineStart)
			t.toks = t.toks[:n]
			continue
		case '\n':
			t.newline()
		case '(', '[':
			stack = append(stack, c)
		case '{':
			stack = append(stack, 'd') // dict/set display
		case ')', ']':
			if top == '(' || top == '[' {
				stack = stack[:len(stack)-1]
			}
		case '}':
			stack = stack[:len(stack)-1] // closes a display or the field
		case ':':
			if top == '{' && !(t.pos+1 < len(src) && src[t.pos+1] == '=') {
				stack = append(stack, ':')
			}
		case '!':
			if top == '{' && t.pos+1 < len(src) && src[t.pos+1] != '=' {
				// conversion: skip the character
				t.pos++
			}
		case '#':
			for t.pos < len(src) && src[t.pos] != '\n' {
				t.pos++
			}
			continue
		}
		t.pos++
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (t *tokenizer) peekc(off int) byte {
	if t.pos+off < len(t.src) {
		return t.src[t.pos+off]
	}
	return 0
}

// digits scans digits accepted by ok, allowing single underscores between.
func (t *tokenizer) digits(ok func(byte) bool, kind string) {
	for {
		for t.pos < len(t.src) && ok(t.src[t.pos]) {
			t.pos++
		}
		if t.peekc(0) != '_' {
			return
		}
		t.pos++
		if !ok(t.peekc(0)) {
			t.failBefore("invalid " + kind + " literal")
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
func isOct(c byte) bool { return c >= '0' && c <= '7' }
func isBin(c byte) bool { return c == '0' || c == '1' }

// verifyEnd mirrors CPython's verify_end_of_number.
func (t *tokenizer) verifyEnd(kind string) {
	c := t.peekc(0)
	rest := t.src[t.pos:]
	has := func(s string) bool { return len(rest) >= len(s) && string(rest[:len(s)]) == s }
	switch c {
	case 'a':
		if has("and") {
			return
		}
	case 'e':
		if has("else") {
			return
		}
	case 'f':
		if has("for") {
			return
		}
	case 'i':
		if has("if") || has("in") || has("is") {
			return
		}
	case 'o':
		if has("or") {
			return
		}
	case 'n':
		if has("not") {
			return
		}
	}
	// Only ASCII: a non-ASCII character starts the next token (CPython).
	if c < 0x80 && isIdentChar(c) {
		t.failBefore("invalid " + kind + " literal")
	}
}

func (t *tokenizer) scanNumber() {
	start := t.pos
	c := t.src[t.pos]
	if c == '0' {
		n := t.peekc(1) | 0x20
		switch n {
		case 'x':
			t.radixLiteral(isHex, "hexadecimal")
			return
		case 'o':
			t.radixLiteral(isOct, "octal")
			return
		case 'b':
			t.radixLiteral(isBin, "binary")
			return
		}
		// decimal starting with 0: only zeros unless float/imaginary
		nonzero := false
		for {
			for t.pos < len(t.src) && t.src[t.pos] == '0' {
				t.pos++
			}
			if t.peekc(0) == '_' {
				t.pos++
				if !isDigit(t.peekc(0)) {
					t.failBefore("invalid decimal literal")
				}
				continue
			}
			break
		}
		if isDigit(t.peekc(0)) {
			nonzero = true
			t.digits(isDigit, "decimal")
		}
		c = t.peekc(0)
		if c == '.' || c == 'e' || c == 'E' || c == 'j' || c == 'J' {
			t.scanFloatRest()
			return
		}
		if nonzero {
			// CPython points at the literal's start.
			t.fail(t.line, start-t.lineStart, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
		}
		t.verifyEnd("decimal")
		return
	}
	if c != '.' {
		t.digits(isDigit, "decimal")
	}
	t.scanFloatRest()
}

func (t *tokenizer) scanFloatRest() {
	c := t.peekc(0)
	if c == '.' {
		t.pos++
		if isDigit(t.peekc(0)) {
			t.digits(isDigit, "decimal")
		}
		c = t.peekc(0)
	}
	if c == 'e' || c == 'E' {
		save := t.pos
		t.pos++
		s := t.peekc(0)
		if s == '+' || s == '-' {
			t.pos++
			if !isDigit(t.peekc(0)) {
				t.failBefore("invalid decimal literal")
			}
		} else if !isDigit(s) {
			t.pos = save
			t.verifyEnd("decimal")
			return
		}
		t.digits(isDigit, "decimal")
		c = t.peekc(0)
	}
	if c == 'j' || c == 'J' {
		t.pos++
		t.verifyEnd("imaginary")
		return
	}
	t.verifyEnd("decimal")
}

func (t *tokenizer) scanOp() tokKind {
	src := t.src
	c := src[t.pos]
	c1 := t.peekc(1)
	c2 := t.peekc(2)
	n := 1
	var k tokKind
	switch c {
	case '(':
		k = tLParen
	case ')':
		k = tRParen
	case '[':
		k = tLBrack
	case ']':
		k = tRBrack
	case '{':
		k = tLBrace
	case '}':
		k = tRBrace
	case ':':
		k = tColon
		if c1 == '=' {
			k, n = tColonEqual, 2
		}
	case ',':
		k = tComma
	case ';':
		k = tSemi
	case '+':
		k = tPlus
		if c1 == '=' {
			k, n = tPlusEqual, 2
		}
	case '-':
		k = tMinus
		if c1 == '=' {
			k, n = tMinEqual, 2
		} else if c1 == '>' {
			k, n = tRArrow, 2
		}
	case '*':
		k = tStar
		if c1 == '*' {
			k, n = tDoubleStar, 2
			if c2 == '=' {
				k, n = tDoubleStarEqual, 3
			}
		} else if c1 == '=' {
			k, n = tStarEqual, 2
		}
	case '/':
		k = tSlash
		if c1 == '/' {
			k, n = tDoubleSlash, 2
			if c2 == '=' {
				k, n = tDoubleSlashEqual, 3
			}
		} else if c1 == '=' {
			k, n = tSlashEqual, 2
		}
	case '|':
		k = tVBar
		if c1 == '=' {
			k, n = tVBarEqual, 2
		}
	case '&':
		k = tAmper
		if c1 == '=' {
			k, n = tAmperEqual, 2
		}
	case '<':
		k = tLess
		if c1 == '=' {
			k, n = tLessEqual, 2
		} else if c1 == '<' {
			k, n = tLShift, 2
			if c2 == '=' {
				k, n = tLShiftEqual, 3
			}
		} else if c1 == '>' {
			// "<>" is only valid with barry_as_FLUFL: a token no rule takes.
			k, n = tBadOp, 2
		}
	case '>':
		k = tGreater
		if c1 == '=' {
			k, n = tGreaterEqual, 2
		} else if c1 == '>' {
			k, n = tRShift, 2
			if c2 == '=' {
				k, n = tRShiftEqual, 3
			}
		}
	case '=':
		k = tEqual
		if c1 == '=' {
			k, n = tEqEqual, 2
		}
	case '.':
		k = tDot
		if c1 == '.' && c2 == '.' {
			k, n = tEllipsis, 3
		}
	case '%':
		k = tPercent
		if c1 == '=' {
			k, n = tPercentEqual, 2
		}
	case '!':
		if c1 == '=' {
			k, n = tNotEqual, 2
		} else {
			k = tBadOp
		}
	case '~':
		k = tTilde
	case '^':
		k = tCircumflex
		if c1 == '=' {
			k, n = tCircumflexEqual, 2
		}
	case '@':
		k = tAt
		if c1 == '=' {
			k, n = tAtEqual, 2
		}
	default:
		if c >= 0x80 {
			r, _ := utf8.DecodeRune(src[t.pos:])
			t.failHere("invalid character '" + string(r) + "'")
		}
		// Like CPython, an unknown ASCII character ('$', '?', '`') is an
		// operator token that no rule takes: a syntax error only if the
		// parser gets there.
		k = tBadOp
	}
	t.pos += n
	return k
}

// radixLiteral reads a 0x, 0o or 0b literal from its prefix on: digits of
// the radix (ok), single underscores between them. A decimal digit that is
// not a digit of the radix gets its own message, as in CPython.
func (t *tokenizer) radixLiteral(ok func(byte) bool, kind string) {
	t.pos += 2
	if t.peekc(0) == '_' {
		t.pos++
	}
	if !ok(t.peekc(0)) {
		if isDigit(t.peekc(0)) {
			t.failHere("invalid digit '" + string(t.peekc(0)) + "' in " + kind + " literal")
		}
		t.failBefore("invalid " + kind + " literal")
	}
	t.digits(ok, kind)
	if isDigit(t.peekc(0)) {
		t.failHere("invalid digit '" + string(t.peekc(0)) + "' in " + kind + " literal")
	}
	t.verifyEnd(kind)
}

package rules

import (
	"strconv"
	"unicode/utf8"
)

// decodeTOMLFast decodes a TOML document into the generic table
// toml.Decode gives (tables map[string]any, arrays of tables
// []map[string]any, arrays []any, strings, int64, bool), for the shapes
// rules.toml has: comments, [table] and [[array]] headers with bare or
// quoted keys, key = value with a bare or quoted key, basic, literal and
// multi-line strings, decimal integers, booleans, arrays and one-line
// inline tables. It is several times faster than BurntSushi's reflection.
//
// ok is false for any document it does not handle exactly as
// BurntSushi/toml does -- anything else (floats, dates, dotted keys,
// TOML 1.1 forms, a carriage return, a control character), and every
// invalid document -- so that the caller decodes it with toml.Decode
// instead. TestDecodeTOMLFast compares the two on the embedded catalog
// and on mutations of it.
func decodeTOMLFast(src []byte) (m map[string]any, ok bool) {
	if !utf8.Valid(src) {
		return nil, false
	}
	for _, c := range src {
		if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			return nil, false
		}
	}
	p := &fastTOML{src: src}
	root := newTTable()
	cur := root
	for {
		p.skipSpace()
		if p.i >= len(p.src) {
			break
		}
		switch c := p.src[p.i]; c {
		case '\n':
			p.i++
			continue
		case '#':
			p.skipComment()
			continue
		case '[':
			array := p.peek(1) == '['
			if array {
				p.i += 2
			} else {
				p.i++
			}
			var segs []string
			for {
				p.skipSpace()
				k, ok := p.key()
				if !ok {
					return nil, false
				}
				segs = append(segs, k)
				p.skipSpace()
				if p.peek(0) == '.' {
					p.i++
					continue
				}
				break
			}
			if p.peek(0) != ']' || array && p.peek(1) != ']' {
				return nil, false
			}
			if array {
				p.i += 2
			} else {
				p.i++
			}
			if !p.endOfLine() {
				return nil, false
			}
			t := root
			for _, s := range segs[:len(segs)-1] {
				if n := t.tables[s]; n != nil {
					t = n
				} else if a := t.arrays[s]; a != nil {
					t = a[len(a)-1]
				} else if _, ok := t.m[s]; ok {
					return nil, false // a value
				} else {
					t = t.addTable(s)
				}
			}
			last := segs[len(segs)-1]
			if array {
				a, isArray := t.arrays[last]
				if !isArray {
					if _, ok := t.m[last]; ok {
						return nil, false
					}
				}
				e := newTTable()
				e.explicit = true
				a = append(a, e)
				if t.arrays == nil {
					t.arrays = map[string][]*ttable{}
				}
				t.arrays[last] = a
				list, _ := t.m[last].([]map[string]any)
				t.m[last] = append(list, e.m)
				cur = e
			} else {
				n := t.tables[last]
				if n == nil {
					if _, ok := t.m[last]; ok {
						return nil, false
					}
					n = t.addTable(last)
				} else if n.explicit {
					return nil, false
				}
				n.explicit = true
				cur = n
			}
		default:
			k, ok := p.key()
			if !ok {
				return nil, false
			}
			p.skipSpace()
			if p.peek(0) != '=' {
				return nil, false // a dotted key, or no value
			}
			p.i++
			p.skipSpace()
			v, ok := p.value()
			if !ok || !p.endOfLine() {
				return nil, false
			}
			if _, dup := cur.m[k]; dup {
				return nil, false
			}
			cur.m[k] = v
		}
	}
	return root.m, true
}

// ttable is a table being decoded: its map (the result), and which of its
// keys are tables and arrays of tables (the others are values, inline
// tables and arrays too, that no header may extend).
type ttable struct {
	m        map[string]any
	tables   map[string]*ttable
	arrays   map[string][]*ttable
	explicit bool // defined by its own header
}

func newTTable() *ttable { return &ttable{m: map[string]any{}} }

func (t *ttable) addTable(k string) *ttable {
	n := newTTable()
	if t.tables == nil {
		t.tables = map[string]*ttable{}
	}
	t.tables[k] = n
	t.m[k] = n.m
	return n
}

type fastTOML struct {
	src []byte
	i   int
}

func (p *fastTOML) peek(k int) byte {
	if p.i+k < len(p.src) {
		return p.src[p.i+k]
	}
	return 0
}

func (p *fastTOML) skipSpace() {
	for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t') {
		p.i++
	}
}

func (p *fastTOML) skipComment() {
	for p.i < len(p.src) && p.src[p.i] != '\n' {
		p.i++
	}
}

// endOfLine consumes spaces, a comment and the newline (or the end) that
// must follow a header or a key/value pair.
func (p *fastTOML) endOfLine() bool {
	p.skipSpace()
	if p.peek(0) == '#' {
		p.skipComment()
	}
	if p.i >= len(p.src) {
		return true
	}
	if p.src[p.i] == '\n' {
		p.i++
		return true
	}
	return false
}

// skipBlank skips spaces, newlines and comments, as between the values of
// an array.
func (p *fastTOML) skipBlank() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n':
			p.i++
		case '#':
			p.skipComment()
		default:
			return
		}
	}
}

func isBareKeyByte(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// key reads one key segment: bare, or a one-line basic or literal string.
func (p *fastTOML) key() (string, bool) {
	switch p.peek(0) {
	case '"':
		if p.peek(1) == '"' && p.peek(2) == '"' {
			return "", false
		}
		return p.basicString()
	case '\'':
		if p.peek(1) == '\'' && p.peek(2) == '\'' {
			return "", false
		}
		return p.literalString()
	}
	start := p.i
	for p.i < len(p.src) && isBareKeyByte(p.src[p.i]) {
		p.i++
	}
	if p.i == start {
		return "", false
	}
	return string(p.src[start:p.i]), true
}

// value reads a value.
func (p *fastTOML) value() (any, bool) {
	switch c := p.peek(0); {
	case c == '"':
		if p.peek(1) == '"' && p.peek(2) == '"' {
			return p.multilineBasic()
		}
		return p.basicString()
	case c == '\'':
		if p.peek(1) == '\'' && p.peek(2) == '\'' {
			return p.multilineLiteral()
		}
		return p.literalString()
	case c == '[':
		p.i++
		arr := make([]any, 0, 2)
		for {
			p.skipBlank()
			if p.peek(0) == ']' {
				p.i++
				return arr, true
			}
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			arr = append(arr, v)
			p.skipBlank()
			switch p.peek(0) {
			case ',':
				p.i++
			case ']':
				p.i++
				return arr, true
			default:
				return nil, false
			}
		}
	case c == '{':
		p.i++
		t := map[string]any{}
		p.skipSpace()
		if p.peek(0) == '}' {
			p.i++
			return t, true
		}
		for {
			p.skipSpace()
			k, ok := p.key()
			if !ok {
				return nil, false
			}
			p.skipSpace()
			if p.peek(0) != '=' {
				return nil, false
			}
			p.i++
			p.skipSpace()
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			if _, dup := t[k]; dup {
				return nil, false
			}
			t[k] = v
			p.skipSpace()
			switch p.peek(0) {
			case ',':
				p.i++
			case '}':
				p.i++
				return t, true
			default:
				return nil, false // a newline (TOML 1.1), or junk
			}
		}
	case c == 't':
		return p.word("true", true)
	case c == 'f':
		return p.word("false", false)
	case c >= '0' && c <= '9':
		start := p.i
		for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.i++
		}
		if p.i-start > 1 && p.src[start] == '0' || !p.delimiter() {
			return nil, false // leading zero, float, date, underscore...
		}
		n, err := strconv.ParseInt(string(p.src[start:p.i]), 10, 64)
		if err != nil {
			return nil, false
		}
		return n, true
	}
	return nil, false
}

// delimiter reports whether the byte after a number or a boolean ends it.
func (p *fastTOML) delimiter() bool {
	switch p.peek(0) {
	case 0, ' ', '\t', '\n', ',', ']', '}', '#':
		return true
	}
	return false
}

func (p *fastTOML) word(w string, v bool) (any, bool) {
	if len(p.src)-p.i < len(w) || string(p.src[p.i:p.i+len(w)]) != w {
		return nil, false
	}
	p.i += len(w)
	if !p.delimiter() {
		return nil, false
	}
	return v, true
}

// basicString reads "...", with escapes.
func (p *fastTOML) basicString() (string, bool) {
	p.i++
	start := p.i
	plain := true
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case '"':
			s := string(p.src[start:p.i])
			p.i++
			if plain {
				return s, true
			}
			return unescapeTOML(s, false)
		case '\n':
			return "", false
		case '\\':
			plain = false
			p.i += 2
			continue
		}
		p.i++
	}
	return "", false
}

// literalString reads '...'.
func (p *fastTOML) literalString() (string, bool) {
	p.i++
	start := p.i
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case '\'':
			s := string(p.src[start:p.i])
			p.i++
			return s, true
		case '\n':
			return "", false
		}
		p.i++
	}
	return "", false
}

// multilineBasic reads """...""", its first newline trimmed, line-ending
// backslashes and escapes applied.
func (p *fastTOML) multilineBasic() (string, bool) {
	p.i += 3
	start := p.i
	plain := true
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case '"':
			if p.peek(1) == '"' && p.peek(2) == '"' {
				if p.peek(3) == '"' {
					return "", false // quotes before the closing ones
				}
				s := string(p.src[start:p.i])
				p.i += 3
				if len(s) > 0 && s[0] == '\n' {
					s = s[1:]
				}
				if plain {
					return s, true
				}
				return unescapeTOML(s, true)
			}
		case '\\':
			plain = false
			p.i += 2
			continue
		}
		p.i++
	}
	return "", false
}

// multilineLiteral reads ”'...”', its first newline trimmed.
func (p *fastTOML) multilineLiteral() (string, bool) {
	p.i += 3
	start := p.i
	for p.i < len(p.src) {
		if p.src[p.i] == '\'' && p.peek(1) == '\'' && p.peek(2) == '\'' {
			if p.peek(3) == '\'' {
				return "", false
			}
			s := string(p.src[start:p.i])
			p.i += 3
			if len(s) > 0 && s[0] == '\n' {
				s = s[1:]
			}
			return s, true
		}
		p.i++
	}
	return "", false
}

// unescapeTOML applies the escapes of a basic string (TOML 1.0's: \b \t \n
// \f \r \" \\ \uXXXX \UXXXXXXXX) and, in a multi-line one, line-ending
// backslashes (which remove the whitespace and newlines after them).
func unescapeTOML(s string, multiline bool) (string, bool) {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b = append(b, c)
			continue
		}
		if i+1 >= len(s) {
			return "", false
		}
		i++
		switch s[i] {
		case 'b':
			b = append(b, '\b')
		case 't':
			b = append(b, '\t')
		case 'n':
			b = append(b, '\n')
		case 'f':
			b = append(b, '\f')
		case 'r':
			b = append(b, '\r')
		case '"':
			b = append(b, '"')
		case '\\':
			b = append(b, '\\')
		case 'u', 'U':
			n := 4
			if s[i] == 'U' {
				n = 8
			}
			if i+1+n > len(s) {
				return "", false
			}
			h := s[i+1 : i+1+n]
			for k := 0; k < len(h); k++ {
				if !(h[k] >= '0' && h[k] <= '9' || h[k] >= 'a' && h[k] <= 'f' || h[k] >= 'A' && h[k] <= 'F') {
					return "", false
				}
			}
			r, err := strconv.ParseUint(h, 16, 32)
			if err != nil || !utf8.ValidRune(rune(r)) {
				return "", false
			}
			b = utf8.AppendRune(b, rune(r))
			i += n
		case ' ', '\t', '\n':
			if !multiline {
				return "", false
			}
			// A line-ending backslash: whitespace up to a newline.
			j := i
			nl := false
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n') {
				if s[j] == '\n' {
					nl = true
				}
				j++
			}
			if !nl {
				return "", false
			}
			i = j - 1
		default:
			return "", false
		}
	}
	return string(b), true
}

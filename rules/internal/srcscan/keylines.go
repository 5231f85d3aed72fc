// Package srcscan reads the two source files of the built-in rule catalog
// the way both the catalog generator and the rules package need: the lines
// of a TOML document's keys, and the requirement IDs listed in
// docs/requirements.md. It has no dependencies on the rules package, so
// that the generator builds even when the generated file is stale.
package srcscan

import (
	"strconv"
	"strings"
)

// KeyLines scans a TOML document for the lines (1-based) of its keys and
// table headers, by dotted path with the index of each array-of-tables
// element as a segment: "version", "rule.3", "rule.3.params.suffixes",
// "layout.scope.0.tests". Keys inside inline tables are not listed. It never
// fails: on text it does not understand it records less.
func KeyLines(src []byte) map[string]int {
	s := &keyScanner{src: src, line: 1, kl: map[string]int{}, arrays: map[string]int{}}
	s.scan()
	return s.kl
}

type keyScanner struct {
	src    []byte
	i      int
	line   int
	kl     map[string]int
	arrays map[string]int // resolved array-of-tables path -> elements so far
	table  []string       // resolved path of the current table
}

func (s *keyScanner) peek(k int) byte {
	if s.i+k < len(s.src) {
		return s.src[s.i+k]
	}
	return 0
}

func (s *keyScanner) skipSpace() {
	for s.i < len(s.src) && (s.src[s.i] == ' ' || s.src[s.i] == '\t' || s.src[s.i] == '\r') {
		s.i++
	}
}

func (s *keyScanner) skipLine() {
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		s.i++
	}
}

func (s *keyScanner) scan() {
	for s.i < len(s.src) {
		s.skipSpace()
		switch c := s.peek(0); {
		case c == 0:
			return
		case c == '\n':
			s.i++
			s.line++
		case c == '#':
			s.skipLine()
		case c == '[':
			s.header()
		default:
			s.keyValue()
		}
	}
}

// key reads a dotted key up to (not including) stop characters.
func (s *keyScanner) key() []string {
	var segs []string
	for {
		s.skipSpace()
		c := s.peek(0)
		var seg string
		switch c {
		case '"', '\'':
			quote := c
			start := s.i
			s.i++
			for s.i < len(s.src) && s.src[s.i] != quote && s.src[s.i] != '\n' {
				if quote == '"' && s.src[s.i] == '\\' {
					s.i++
				}
				s.i++
			}
			s.i++
			raw := string(s.src[start:min(s.i, len(s.src))])
			if quote == '"' {
				if u, err := strconv.Unquote(raw); err == nil {
					seg = u
				} else {
					seg = strings.Trim(raw, `"`)
				}
			} else {
				seg = strings.Trim(raw, "'")
			}
		default:
			start := s.i
			for s.i < len(s.src) && isBareKeyChar(s.src[s.i]) {
				s.i++
			}
			seg = string(s.src[start:s.i])
		}
		if seg == "" && c != '"' && c != '\'' {
			return segs
		}
		segs = append(segs, seg)
		s.skipSpace()
		if s.peek(0) != '.' {
			return segs
		}
		s.i++
	}
}

func isBareKeyChar(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (s *keyScanner) header() {
	array := s.peek(1) == '['
	if array {
		s.i += 2
	} else {
		s.i++
	}
	segs := s.key()
	s.skipLine()
	var cur []string
	for n, seg := range segs {
		cur = append(cur, seg)
		p := strings.Join(cur, ".")
		last := n == len(segs)-1
		if last && array {
			idx := s.arrays[p]
			s.arrays[p] = idx + 1
			cur = append(cur, strconv.Itoa(idx))
		} else if cnt := s.arrays[p]; cnt > 0 {
			cur = append(cur, strconv.Itoa(cnt-1))
		}
	}
	s.table = cur
	s.kl[strings.Join(cur, ".")] = s.line
}

func (s *keyScanner) keyValue() {
	segs := s.key()
	s.skipSpace()
	if len(segs) == 0 || s.peek(0) != '=' {
		s.skipLine()
		return
	}
	s.i++
	path := append(append([]string(nil), s.table...), segs...)
	s.kl[strings.Join(path, ".")] = s.line
	s.value()
}

// value skips a value, which may span lines (arrays, multi-line strings).
func (s *keyScanner) value() {
	depth := 0
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\n':
			if depth == 0 {
				return
			}
			s.line++
			s.i++
		case c == '#':
			s.skipLine()
		case c == '[' || c == '{':
			depth++
			s.i++
		case c == ']' || c == '}':
			depth--
			s.i++
		case c == '"' || c == '\'':
			s.str(c)
		default:
			s.i++
		}
	}
}

func (s *keyScanner) str(q byte) {
	if s.peek(1) == q && s.peek(2) == q {
		s.i += 3
		for s.i < len(s.src) {
			if s.src[s.i] == q && s.peek(1) == q && s.peek(2) == q {
				s.i += 3
				// up to two more quotes may close the string
				for k := 0; k < 2 && s.peek(0) == q; k++ {
					s.i++
				}
				return
			}
			if s.src[s.i] == '\n' {
				s.line++
			}
			if q == '"' && s.src[s.i] == '\\' {
				s.i++
				if s.peek(0) == '\n' {
					s.line++
				}
			}
			s.i++
		}
		return
	}
	s.i++
	for s.i < len(s.src) && s.src[s.i] != q && s.src[s.i] != '\n' {
		if q == '"' && s.src[s.i] == '\\' {
			s.i++
		}
		s.i++
	}
	if s.i < len(s.src) && s.src[s.i] == q {
		s.i++
	}
}

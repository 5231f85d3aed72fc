package rules

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
)

// KeyLines maps the keys of a TOML document to the lines (1-based) where
// they are defined, for error messages: BurntSushi/toml reports the line of
// syntax errors but keeps no positions for keys. A key is written as its
// dotted path with the index of each array-of-tables element as a segment:
// "version", "rule.3", "rule.3.params.suffixes", "layout.scope.0.tests".
// Keys inside inline tables are not listed: Line falls back to the nearest
// listed ancestor.
type KeyLines map[string]int

// Line returns the line of key, or of its nearest ancestor that has one, or 0.
func (kl KeyLines) Line(key ...string) int {
	for n := len(key); n > 0; n-- {
		if l, ok := kl[strings.Join(key[:n], ".")]; ok {
			return l
		}
	}
	return 0
}

// ScanKeyLines scans a TOML document for the lines of its keys and table
// headers. It never fails: on text it does not understand it records less.
func ScanKeyLines(src []byte) KeyLines {
	s := &keyScanner{src: src, line: 1, kl: KeyLines{}, arrays: map[string]int{}}
	s.scan()
	return s.kl
}

type keyScanner struct {
	src    []byte
	i      int
	line   int
	kl     KeyLines
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

// StrictDecode decodes a table (as produced by toml.Decode into a map) into
// v and returns the keys of the table that v has no field for, each as its
// path of segments relative to the table. It gives what StrictDecodeSlow
// gives: when every key of the table has a field of a type BurntSushi
// decodes plainly (see decodeFast), it sets the fields directly; otherwise
// (an unknown key, a type mismatch) StrictDecodeSlow reports.
func StrictDecode(table map[string]any, v any) (unknown [][]string, err error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		if decodeFast(table, rv.Elem(), true) {
			decodeFast(table, rv.Elem(), false)
			return nil, nil
		}
	}
	return StrictDecodeSlow(table, v)
}

// StrictDecodeSlow is the reference StrictDecode: the table is re-encoded
// and decoded again so that BurntSushi's MetaData.Undecoded applies to it
// alone.
func StrictDecodeSlow(table map[string]any, v any) (unknown [][]string, err error) {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(table); err != nil {
		return nil, err
	}
	md, err := toml.Decode(buf.String(), v)
	if err != nil {
		return nil, err
	}
	for _, k := range md.Undecoded() {
		unknown = append(unknown, []string(k))
	}
	return unknown, nil
}

var (
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	tomlUnmarshalerType = reflect.TypeFor[toml.Unmarshaler]()
	durationType        = reflect.TypeFor[time.Duration]()
	jsonNumberType      = reflect.TypeFor[json.Number]()
)

// fastFields returns the fields of a struct type by their TOML key (the
// index path of each, through embedded structs), or false when the type
// has a field decodeFast does not handle like BurntSushi (an embedded
// pointer or non-struct, a tagged embedded struct, or two fields of one
// key at any depth).
func fastFields(t reflect.Type) (map[string][]int, bool) {
	if c, ok := fastFieldsCache.Load(t); ok {
		c := c.(cachedFields)
		return c.m, c.ok
	}
	m := map[string][]int{}
	ok := computeFastFields(t, nil, m)
	fastFieldsCache.Store(t, cachedFields{m, ok})
	return m, ok
}

type cachedFields struct {
	m  map[string][]int
	ok bool
}

var fastFieldsCache sync.Map // reflect.Type -> cachedFields

func computeFastFields(t reflect.Type, index []int, out map[string][]int) bool {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("toml")
		tag, _, _ = strings.Cut(tag, ",")
		if f.Anonymous {
			// An untagged embedded struct: its fields are promoted.
			if hasTag || f.Type.Kind() != reflect.Struct {
				return false
			}
			if !computeFastFields(f.Type, append(append([]int(nil), index...), i), out) {
				return false
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		name := f.Name
		if hasTag {
			if tag == "-" {
				continue
			}
			if tag != "" {
				name = tag
			}
		}
		if _, dup := out[name]; dup {
			return false
		}
		out[name] = append(append([]int(nil), index...), i)
	}
	return true
}

// decodeFast decodes TOML data (from toml.Decode into a map) into rv as
// BurntSushi's decoder does, for the plain cases: structs whose keys all
// name a field exactly, pointers, strings, booleans, ints, slices and maps
// with string keys of those. With dry set it changes nothing and reports
// whether the data is such a case: decoding it then cannot fail and leaves
// no key undecoded.
func decodeFast(data any, rv reflect.Value, dry bool) bool {
	t := rv.Type()
	if t == durationType || t == jsonNumberType || t.Implements(textUnmarshalerType) || t.Implements(tomlUnmarshalerType) ||
		reflect.PointerTo(t).Implements(textUnmarshalerType) || reflect.PointerTo(t).Implements(tomlUnmarshalerType) {
		return false
	}
	switch t.Kind() {
	case reflect.Pointer:
		if dry {
			return decodeFast(data, reflect.New(t.Elem()).Elem(), true)
		}
		if rv.IsNil() {
			rv.Set(reflect.New(t.Elem()))
		}
		return decodeFast(data, rv.Elem(), false)
	case reflect.Struct:
		m, ok := data.(map[string]any)
		if !ok {
			return false
		}
		fields, ok := fastFields(t)
		if !ok {
			return false
		}
		for k, d := range m {
			i, ok := fields[k]
			if !ok {
				return false // unknown, or matched case-insensitively
			}
			if !decodeFast(d, rv.FieldByIndex(i), dry) {
				return false
			}
		}
		return true
	case reflect.Map:
		if t.Key().Kind() != reflect.String || t.Key() != reflect.TypeFor[string]() {
			return false
		}
		m, ok := data.(map[string]any)
		if !ok {
			return false
		}
		if dry {
			for _, d := range m {
				if !decodeFast(d, reflect.New(t.Elem()).Elem(), true) {
					return false
				}
			}
			return true
		}
		if rv.IsNil() {
			rv.Set(reflect.MakeMap(t))
		}
		for k, d := range m {
			ev := reflect.New(t.Elem()).Elem()
			decodeFast(d, ev, false)
			rv.SetMapIndex(reflect.ValueOf(k), ev)
		}
		return true
	case reflect.Slice:
		dv := reflect.ValueOf(data)
		if dv.Kind() != reflect.Slice {
			return false
		}
		n := dv.Len()
		if dry {
			for i := 0; i < n; i++ {
				if !decodeFast(dv.Index(i).Interface(), reflect.New(t.Elem()).Elem(), true) {
					return false
				}
			}
			return true
		}
		if rv.IsNil() || rv.Cap() < n {
			rv.Set(reflect.MakeSlice(t, n, n))
		}
		rv.SetLen(n)
		for i := 0; i < n; i++ {
			decodeFast(dv.Index(i).Interface(), rv.Index(i), false)
		}
		return true
	case reflect.String:
		s, ok := data.(string)
		if ok && !dry {
			rv.SetString(s)
		}
		return ok
	case reflect.Bool:
		b, ok := data.(bool)
		if ok && !dry {
			rv.SetBool(b)
		}
		return ok
	case reflect.Int, reflect.Int64:
		n, ok := data.(int64)
		if ok && !dry {
			rv.SetInt(n)
		}
		return ok
	}
	return false
}

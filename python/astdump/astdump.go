// Package astdump prints a Python syntax tree in tilegym-lint's canonical
// JSON form, byte for byte the same as tools/pyastdump.py prints CPython's
// tree, so the two can be compared with a plain byte comparison.
//
// # Canonical form
//
// The output is compact JSON (no spaces: separators "," and ":") on one line.
// Every string is written exactly as Python's json.dumps(s, ensure_ascii=True)
// writes it: \" \\ \n \r \t \b \f, other ASCII control characters and DEL as
// \u00xx, every non-ASCII code point as \uxxxx (lowercase hex), astral code
// points as a UTF-16 surrogate pair and lone surrogates (stored WTF-8 encoded
// in Go strings: ED A0 80 .. ED BF BF) as \udxxx. So a str holding the two
// surrogates U+D83D U+DE00 prints like the single code point U+1F600.
//
// A node is an object: "_type" first (the CPython class name: "Expr" for
// ast.ExprStmt, "comprehension", "arguments", "arg", "keyword", "alias",
// "withitem", "match_case" for the lower-case classes), then every field in
// CPython's _fields order (the order of the `py` struct tags), then, for
// classes that have position attributes (Go: embed ast.Attrs), "lineno",
// "col_offset", "end_lineno", "end_col_offset" in that order. The layout is
// Python 3.12's (FunctionDef, AsyncFunctionDef and ClassDef end with
// "type_params"); pyastdump.py pads older Pythons' trees.
//
// Field values: a node is an object; a list is an array (a nil slice is []);
// an absent optional value (nil interface, nil pointer) is null; an
// identifier or other string is a string; an int is a number. Operator and
// context enums are field-less nodes: {"_type":"Load"}, {"_type":"Add"},
// {"_type":"Eq"}, {"_type":"And"}, {"_type":"USub"}...
//
// Constant.Value and MatchSingleton.Value (the fields of type any) are typed
// one-key objects:
//
//	None      {"None":null}
//	bool      {"bool":true} or {"bool":false}
//	int       {"int":"123"}                  decimal, exact
//	float     {"float":"3ff0000000000000"}   16 lowercase hex digits of the IEEE-754 binary64 bits
//	complex   {"complex":"<imag bits>"}      when the real part is +0.0 (always so for literals),
//	          {"complex":"<real bits>,<imag bits>"} otherwise
//	str       {"str":"..."}
//	bytes     {"bytes":"00ff"}               lowercase hex
//	Ellipsis  {"Ellipsis":null}
//
// A rejected file is {"error":{"msg":"...","lineno":L,"offset":C}}; the
// position is informational (see WriteError): for agreement only the fact
// that a file is rejected matters.
package astdump

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// Append appends the canonical JSON of f's module to b. A nil module dumps as
// an empty module. It returns an error, along with the output so far, if the
// tree holds a value the canonical form cannot express.
func Append(b []byte, f *ast.File) ([]byte, error) {
	m := &ast.Module{}
	if f != nil && f.Module != nil {
		m = f.Module
	}
	return AppendNode(b, m)
}

// AppendNode appends the canonical JSON of one node (a pointer to an ast
// struct, or an enum value such as ast.Load).
func AppendNode(b []byte, node any) ([]byte, error) {
	e := encoder{buf: b}
	e.value(reflect.ValueOf(node), false)
	return e.buf, e.err
}

// AppendError appends the canonical line body for a file the parser
// rejected: {"error":{"msg":M,"lineno":L,"offset":C}}. A line or col <= 0
// is written as null.
func AppendError(b []byte, msg string, line, col int) []byte {
	b = append(b, `{"error":{"msg":`...)
	b = AppendString(b, msg)
	b = append(b, `,"lineno":`...)
	b = appendOptInt(b, line)
	b = append(b, `,"offset":`...)
	b = appendOptInt(b, col)
	return append(b, "}}"...)
}

func appendOptInt(b []byte, n int) []byte {
	if n <= 0 {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(n), 10)
}

// pyNames maps Go type names to CPython class names where they differ.
var pyNames = map[string]string{
	"ExprStmt":      "Expr",
	"Comprehension": "comprehension",
	"Arguments":     "arguments",
	"Arg":           "arg",
	"Keyword":       "keyword",
	"Alias":         "alias",
	"WithItem":      "withitem",
	"MatchCase":     "match_case",
}

var (
	attrsType    = reflect.TypeOf(ast.Attrs{})
	stringerType = reflect.TypeOf((*fmt.Stringer)(nil)).Elem()
)

type fieldInfo struct {
	index  int
	prefix string // `,"name":`
	kind   fieldKind
}

type fieldKind int

const (
	kindGeneric  fieldKind = iota
	kindConstant           // field of type any: typed constant
)

type typeInfo struct {
	open     string // `{"_type":"Name"`
	fields   []fieldInfo
	attrsIdx int // index of the embedded ast.Attrs, or -1
}

var typeCache sync.Map // reflect.Type (struct) -> *typeInfo

func infoFor(t reflect.Type) *typeInfo {
	if ti, ok := typeCache.Load(t); ok {
		return ti.(*typeInfo)
	}
	name := t.Name()
	if py, ok := pyNames[name]; ok {
		name = py
	}
	ti := &typeInfo{attrsIdx: -1}
	ti.open = `{"_type":` + string(AppendString(nil, name))
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous && sf.Type == attrsType {
			ti.attrsIdx = i
			continue
		}
		tag, ok := sf.Tag.Lookup("py")
		if !ok {
			continue
		}
		fi := fieldInfo{index: i, prefix: "," + string(AppendString(nil, tag)) + ":"}
		if sf.Type.Kind() == reflect.Interface && sf.Type.NumMethod() == 0 {
			fi.kind = kindConstant
		}
		ti.fields = append(ti.fields, fi)
	}
	v, _ := typeCache.LoadOrStore(t, ti)
	return v.(*typeInfo)
}

type encoder struct {
	buf []byte
	err error
}

func (e *encoder) fail(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf(format, args...)
	}
	e.buf = append(e.buf, `{"unknown":"unsupported value"}`...)
}

// value writes a field value or list element.
func (e *encoder) value(v reflect.Value, constant bool) {
	if constant {
		e.constant(v)
		return
	}
	switch v.Kind() {
	case reflect.Invalid:
		e.buf = append(e.buf, "null"...)
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return
		}
		e.value(v.Elem(), false)
	case reflect.Struct:
		e.node(v)
	case reflect.Slice:
		e.buf = append(e.buf, '[')
		for i, n := 0, v.Len(); i < n; i++ {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.value(v.Index(i), false)
		}
		e.buf = append(e.buf, ']')
	case reflect.String:
		e.buf = AppendString(e.buf, v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type().Implements(stringerType) {
			// Operator / context enum: a field-less node.
			e.buf = append(e.buf, `{"_type":`...)
			e.buf = AppendString(e.buf, v.Interface().(fmt.Stringer).String())
			e.buf = append(e.buf, '}')
			return
		}
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	default:
		e.fail("astdump: cannot dump %s", v.Type())
	}
}

func (e *encoder) node(v reflect.Value) {
	ti := infoFor(v.Type())
	e.buf = append(e.buf, ti.open...)
	for i := range ti.fields {
		f := &ti.fields[i]
		e.buf = append(e.buf, f.prefix...)
		e.value(v.Field(f.index), f.kind == kindConstant)
	}
	if ti.attrsIdx >= 0 {
		var a *ast.Attrs
		if f := v.Field(ti.attrsIdx); f.CanAddr() {
			a = f.Addr().Interface().(*ast.Attrs)
		} else {
			c := f.Interface().(ast.Attrs)
			a = &c
		}
		e.buf = append(e.buf, `,"lineno":`...)
		e.buf = strconv.AppendInt(e.buf, int64(a.Lineno), 10)
		e.buf = append(e.buf, `,"col_offset":`...)
		e.buf = strconv.AppendInt(e.buf, int64(a.ColOffset), 10)
		e.buf = append(e.buf, `,"end_lineno":`...)
		e.buf = strconv.AppendInt(e.buf, int64(a.EndLineno), 10)
		e.buf = append(e.buf, `,"end_col_offset":`...)
		e.buf = strconv.AppendInt(e.buf, int64(a.EndColOffset), 10)
	}
	e.buf = append(e.buf, '}')
}

// constant writes a Constant or MatchSingleton value.
func (e *encoder) constant(v reflect.Value) {
	var c any
	if v.IsValid() && !(v.Kind() == reflect.Interface && v.IsNil()) {
		c = v.Interface()
	}
	var ok bool
	e.buf, ok = appendConstant(e.buf, c)
	if !ok && e.err == nil {
		e.err = fmt.Errorf("astdump: unsupported constant value of type %T", c)
	}
}

func appendConstant(b []byte, c any) ([]byte, bool) {
	switch c := c.(type) {
	case nil:
		return append(b, `{"None":null}`...), true
	case bool:
		if c {
			return append(b, `{"bool":true}`...), true
		}
		return append(b, `{"bool":false}`...), true
	case *big.Int:
		if c == nil {
			break
		}
		b = append(b, `{"int":"`...)
		b = c.Append(b, 10)
		return append(b, `"}`...), true
	case int:
		return appendIntConst(b, int64(c)), true
	case int64:
		return appendIntConst(b, c), true
	case float64:
		b = append(b, `{"float":"`...)
		b = appendBits(b, c)
		return append(b, `"}`...), true
	case complex128:
		b = append(b, `{"complex":"`...)
		if math.Float64bits(real(c)) != 0 {
			b = appendBits(b, real(c))
			b = append(b, ',')
		}
		b = appendBits(b, imag(c))
		return append(b, `"}`...), true
	case string:
		b = append(b, `{"str":`...)
		b = AppendString(b, c)
		return append(b, '}'), true
	case ast.Bytes:
		return appendBytesConst(b, c), true
	case []byte:
		return appendBytesConst(b, c), true
	case ast.Ellipsis, *ast.Ellipsis:
		return append(b, `{"Ellipsis":null}`...), true
	}
	b = append(b, `{"unknown":`...)
	b = AppendString(b, fmt.Sprintf("%T", c))
	return append(b, '}'), false
}

func appendIntConst(b []byte, n int64) []byte {
	b = append(b, `{"int":"`...)
	b = strconv.AppendInt(b, n, 10)
	return append(b, `"}`...)
}

const hexDigits = "0123456789abcdef"

func appendBits(b []byte, f float64) []byte {
	u := math.Float64bits(f)
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, hexDigits[(u>>uint(shift))&0xf])
	}
	return b
}

func appendBytesConst(b []byte, p []byte) []byte {
	b = append(b, `{"bytes":"`...)
	for _, c := range p {
		b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
	}
	return append(b, `"}`...)
}

// AppendString appends s (WTF-8) as a JSON string exactly as Python's
// json.dumps(s, ensure_ascii=True) writes the corresponding str. Bytes that
// are neither UTF-8 nor WTF-8 surrogates (never produced for a Python str)
// are written as \ufffd.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0 // start of a run of ASCII bytes written verbatim
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = appendU(b, rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// WTF-8 surrogate: ED A0..BF 80..BF.
			if c == 0xED && i+2 < len(s) &&
				s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
				r = 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				size = 3
			} else {
				r = utf8.RuneError
			}
		}
		if r > 0xFFFF {
			r -= 0x10000
			b = appendU(b, 0xD800+(r>>10))
			b = appendU(b, 0xDC00+(r&0x3FF))
		} else {
			b = appendU(b, r)
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

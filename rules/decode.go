package rules

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// typeError is a value of the wrong type for the field it is decoded into.
type typeError struct {
	key []string // relative to the decoded table; array elements by index
	msg string
}

// strictDecode sets the fields of the struct v points to from table, a
// table as BurntSushi/toml decodes it into a map[string]any. A key names
// the field whose toml tag (or, untagged, whose Go name) is exactly the
// key; the fields of an untagged embedded struct count as the outer
// struct's. It returns the keys that name no field (the outermost only,
// each as its path relative to table) and the values of a type their field
// cannot hold, both in key order; every other field is set. An array
// replaces a field's slice; a table adds to a field's map.
func strictDecode(table map[string]any, v any) (unknown [][]string, known [][]string, errs []*typeError) {
	d := &decoder{}
	d.value(table, reflect.ValueOf(v).Elem(), nil)
	return d.unknown, d.known, d.errs
}

type decoder struct {
	unknown [][]string
	known   [][]string // per unknown key, the keys its table takes (to suggest one)
	errs    []*typeError
}

func (d *decoder) value(data any, rv reflect.Value, key []string) {
	switch rv.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			rv.Set(reflect.New(rv.Type().Elem()))
		}
		d.value(data, rv.Elem(), key)
	case reflect.Struct:
		m, ok := data.(map[string]any)
		if !ok {
			d.mismatch(key, rv, data)
			return
		}
		fields := structFields(rv.Type())
		for _, k := range slices.Sorted(maps.Keys(m)) {
			index, ok := fields[k]
			if !ok {
				d.unknown = append(d.unknown, with(key, k))
				d.known = append(d.known, slices.Sorted(maps.Keys(fields)))
				continue
			}
			d.value(m[k], rv.FieldByIndex(index), with(key, k))
		}
	case reflect.Map:
		m, ok := data.(map[string]any)
		if !ok || rv.Type().Key().Kind() != reflect.String {
			d.mismatch(key, rv, data)
			return
		}
		if rv.IsNil() {
			rv.Set(reflect.MakeMap(rv.Type()))
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			e := reflect.New(rv.Type().Elem()).Elem()
			n := len(d.errs)
			if d.value(m[k], e, with(key, k)); len(d.errs) == n {
				rv.SetMapIndex(reflect.ValueOf(k).Convert(rv.Type().Key()), e)
			}
		}
	case reflect.Slice:
		dv := reflect.ValueOf(data)
		if data == nil || dv.Kind() != reflect.Slice {
			d.mismatch(key, rv, data)
			return
		}
		s := reflect.MakeSlice(rv.Type(), dv.Len(), dv.Len())
		n := len(d.errs)
		for i := range dv.Len() {
			d.value(dv.Index(i).Interface(), s.Index(i), with(key, strconv.Itoa(i)))
		}
		if len(d.errs) == n {
			rv.Set(s)
		}
	case reflect.String:
		s, ok := data.(string)
		if !ok {
			d.mismatch(key, rv, data)
			return
		}
		rv.SetString(s)
	case reflect.Bool:
		b, ok := data.(bool)
		if !ok {
			d.mismatch(key, rv, data)
			return
		}
		rv.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := data.(int64)
		if !ok {
			d.mismatch(key, rv, data)
			return
		}
		if rv.OverflowInt(n) {
			d.errs = append(d.errs, &typeError{key, fmt.Sprintf("%d is out of range for %s", n, rv.Type())})
			return
		}
		rv.SetInt(n)
	case reflect.Float32, reflect.Float64:
		switch n := data.(type) {
		case float64:
			rv.SetFloat(n)
		case int64:
			rv.SetFloat(float64(n))
		default:
			d.mismatch(key, rv, data)
		}
	case reflect.Interface:
		if rv.NumMethod() != 0 {
			d.mismatch(key, rv, data)
			return
		}
		rv.Set(reflect.ValueOf(data))
	default:
		d.mismatch(key, rv, data)
	}
}

func (d *decoder) mismatch(key []string, rv reflect.Value, data any) {
	d.errs = append(d.errs, &typeError{key, fmt.Sprintf("want %s, got %s", wantName(rv.Type()), tomlTypeName(data))})
}

// wantName names what a field of type t holds, in TOML's terms.
func wantName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "a table"
	case reflect.Slice:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a value of Go type " + t.String() + " (which the catalog cannot hold)"
}

// tomlTypeName names the TOML type of a decoded value.
func tomlTypeName(data any) string {
	switch data.(type) {
	case map[string]any:
		return "a table"
	case []map[string]any, []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	}
	return fmt.Sprintf("a %T", data)
}

// structFields maps the keys of a struct type to the index paths of their
// fields, the fields of untagged embedded structs (not pointers) included;
// a field of the outer struct hides an embedded one of the same key, and
// an earlier embedded struct a later one.
func structFields(t reflect.Type) map[string][]int {
	out := map[string][]int{}
	var embedded []int
	for i := range t.NumField() {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("toml")
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && !hasTag && f.Type.Kind() == reflect.Struct {
			embedded = append(embedded, i)
			continue
		}
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = []int{i}
	}
	for _, e := range embedded {
		for k, index := range structFields(t.Field(e).Type) {
			if _, hidden := out[k]; !hidden {
				out[k] = append([]int{e}, index...)
			}
		}
	}
	return out
}

func with(key []string, k string) []string {
	return append(append(make([]string, 0, len(key)+1), key...), k)
}

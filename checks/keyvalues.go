package checks

// The values at a dotted key of a JSON or TOML document.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
)

// A keyValue is a value found at a key, with the key's concrete path (a
// "*" replaced by the key it stood for).
type keyValue struct {
	path []string
	v    any
}

// keyValues returns the values at a dotted key of a decoded document ("*"
// any key; a list on the way is gone through element by element), and
// whether the key is there; a list at the end gives its elements.
func keyValues(v any, key, at []string) ([]keyValue, bool) {
	if len(key) == 0 {
		var l []any
		switch x := v.(type) {
		case []any:
			l = x
		case []map[string]any:
			for _, e := range x {
				l = append(l, e)
			}
		default:
			return []keyValue{{at, v}}, true
		}
		out := make([]keyValue, len(l))
		for i, e := range l {
			out[i] = keyValue{at, e}
		}
		return out, true
	}
	var out []keyValue
	found := false
	var list []any
	switch x := v.(type) {
	case map[string]any:
		var ks []string
		if key[0] == "*" {
			ks = slices.Sorted(mapKeys(x))
		} else if _, ok := x[key[0]]; ok {
			ks = []string{key[0]}
		}
		for _, k := range ks {
			vs, ok := keyValues(x[k], key[1:], append(slices.Clip(at), k))
			out = append(out, vs...)
			found = found || ok
		}
		return out, found
	case []any:
		list = x
	case []map[string]any:
		for _, e := range x {
			list = append(list, e)
		}
	}
	for _, e := range list {
		vs, ok := keyValues(e, key, at)
		out = append(out, vs...)
		found = found || ok
	}
	return out, found
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// scalar is a key's value as text (a table or list: its JSON).
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	case map[string]any, []any:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return fmt.Sprint(v)
}

// keyLine finds the line of a key's last part in a JSON or TOML file's
// text (after its earlier parts, when they are found): 1 if not found.
func keyLine(data []byte, key []string, value string) int {
	off := 0
	for i, k := range key {
		q := regexp.QuoteMeta(k)
		re := regexp.MustCompile(`(?m)(?:"` + q + `"\s*:|^\s*` + q + `\s*=|^\s*\[(?:[^\]]*\.)?` + q + `\]|\b` + q + `\s*=)`)
		loc := re.FindIndex(data[off:])
		if loc == nil {
			break
		}
		off += loc[0]
		if i == len(key)-1 && value != "" {
			if j := bytes.Index(data[off:], []byte(value)); j >= 0 {
				off += j
			}
		}
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

package checks

// Small helpers over lists of strings the kinds share.

import (
	"sort"
	"strings"
)

// firstOr returns the first string of a list, or def.
func firstOr(list []string, def string) string {
	if len(list) > 0 {
		return list[0]
	}
	return def
}

// uniq returns the distinct strings of a list, sorted.
func uniq(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// quoteList renders ["a", "b"] as `"a", "b"`.
func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = `"` + x + `"`
	}
	return strings.Join(q, ", ")
}

package checker

import (
	"fmt"
	"strings"

	"github.com/tilegym/tilegym-lint/rules"
)

// checkPlaceholders rejects, after a catalog loaded, every rule whose
// message has an unbalanced brace or uses a {placeholder} its kind does
// not fill (Analyzer.Placeholders): it would be printed as written.
func checkPlaceholders(cat *rules.Catalog, err error) (*rules.Catalog, error) {
	if err != nil {
		return nil, err
	}
	var errs rules.ErrorList
	for _, r := range cat.Rules {
		a := Kind(r.Kind)
		if a == nil || a.Placeholders == nil {
			continue
		}
		names, perr := messagePlaceholders(r.Message)
		if perr != "" {
			errs = append(errs, &rules.LoadError{File: cat.File, Line: r.Line,
				Msg: fmt.Sprintf("rule %s: message %q %s; write a placeholder as {name}", r.ID, r.Message, perr)})
			continue
		}
		for _, n := range names {
			if !containsString(a.Placeholders, n) {
				errs = append(errs, &rules.LoadError{File: cat.File, Line: r.Line,
					Msg: fmt.Sprintf("rule %s: message uses {%s}, which kind %q does not fill; it fills %s",
						r.ID, n, r.Kind, braced(a.Placeholders))})
			}
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return cat, nil
}

// messagePlaceholders returns the {names} of a message template in order,
// or a description of its first unbalanced brace.
func messagePlaceholders(msg string) (names []string, problem string) {
	for i := 0; i < len(msg); i++ {
		switch msg[i] {
		case '}':
			return nil, fmt.Sprintf("has a '}' with no '{' at byte %d", i)
		case '{':
			j := strings.IndexAny(msg[i+1:], "{}")
			if j < 0 || msg[i+1+j] == '{' {
				return nil, fmt.Sprintf("has a '{' with no '}' at byte %d", i)
			}
			name := msg[i+1 : i+1+j]
			if name == "" || strings.ContainsAny(name, " \t\n") {
				return nil, fmt.Sprintf("has an empty or spaced placeholder {%s} at byte %d", name, i)
			}
			names = append(names, name)
			i += 1 + j
		}
	}
	return names, ""
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// braced lists names as {a}, {b}.
func braced(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "{" + n + "}"
	}
	return strings.Join(out, ", ")
}

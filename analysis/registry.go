package analysis

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/rules"
)

// A Registry holds the check kinds of a driver by name, fixed when it is
// made (NewRegistry): a catalog's rules are validated against them.
type Registry[R any] struct {
	kinds  map[string]*Analyzer[R]
	byName []*Analyzer[R] // sorted by name
}

// NewRegistry returns the registry of the given check kinds; an
// analyzer's Name is the kind name the catalog uses. An analyzer with no
// name, or two under one name, panics: a programming error caught by any
// test.
func NewRegistry[R any](kinds ...*Analyzer[R]) *Registry[R] {
	g := &Registry[R]{kinds: map[string]*Analyzer[R]{}}
	for _, a := range kinds {
		if a == nil || a.Name == "" {
			panic("analysis: NewRegistry: analyzer with no name")
		}
		if _, ok := g.kinds[a.Name]; ok {
			panic("analysis: NewRegistry: two analyzers named " + a.Name)
		}
		g.kinds[a.Name] = a
		g.byName = append(g.byName, a)
	}
	sort.Slice(g.byName, func(i, j int) bool { return g.byName[i].Name < g.byName[j].Name })
	return g
}

// Kinds returns the check kinds sorted by name.
func (g *Registry[R]) Kinds() []*Analyzer[R] { return slices.Clone(g.byName) }

// Kind returns the check kind with the given name, or nil.
func (g *Registry[R]) Kind(name string) *Analyzer[R] { return g.kinds[name] }

// KindParams resolves a kind name for rules.Load: the constructor of the
// kind's params struct (nil when it takes none) and whether it exists.
func (g *Registry[R]) KindParams(kind string) (func() any, bool) {
	a := g.Kind(kind)
	if a == nil {
		return nil, false
	}
	return a.Params, true
}

// LoadCatalog loads a rule catalog against the registry's kinds.
func (g *Registry[R]) LoadCatalog(data []byte, filename string) (*rules.Catalog, error) {
	return g.checkPlaceholders(rules.Load(data, filename, g.KindParams))
}

// LoadBuiltinCatalog loads the built-in catalog against the registry's kinds.
func (g *Registry[R]) LoadBuiltinCatalog() (*rules.Catalog, error) {
	return g.checkPlaceholders(rules.LoadBuiltin(g.KindParams))
}

// checkPlaceholders rejects, after a catalog loaded, every rule whose
// message or text has an unbalanced brace or uses a {placeholder} its kind
// does not fill (Analyzer.Placeholders): it would be printed as written;
// and every rule whose texts are not the ones its kind asks of it
// (Analyzer.Texts, TextsFor): a missing one would render empty.
func (g *Registry[R]) checkPlaceholders(cat *rules.Catalog, err error) (*rules.Catalog, error) {
	if err != nil {
		return nil, err
	}
	var errs rules.ErrorList
	for _, r := range cat.Rules {
		a := g.Kind(r.Kind)
		if a == nil || a.Placeholders == nil {
			continue
		}
		fail := func(format string, args ...any) {
			errs = append(errs, &rules.LoadError{File: cat.File, Line: r.Line, Msg: fmt.Sprintf("rule %s: ", r.ID) + fmt.Sprintf(format, args...)})
		}
		needed := a.Texts
		if a.TextsFor != nil {
			needed = a.TextsFor(r)
		}
		templates := []struct{ what, tmpl string }{{"message", r.Message}}
		for _, name := range slices.Sorted(maps.Keys(r.Texts)) {
			switch {
			case !slices.Contains(a.Texts, name):
				fail("texts.%s is not a text kind %q renders (it renders %s)", name, r.Kind, listOr(a.Texts))
			case !slices.Contains(needed, name):
				fail("texts.%s is not a text kind %q renders for this rule (with its params it renders %s); remove it", name, r.Kind, listOr(needed))
			}
			templates = append(templates, struct{ what, tmpl string }{"texts." + name, r.Texts[name]})
		}
		for _, name := range needed {
			if !slices.Contains(a.Texts, name) {
				fail("kind %q asks for texts.%s, which is not among its Texts", r.Kind, name)
			} else if _, ok := r.Texts[name]; !ok {
				fail("no texts.%s: kind %q renders it into the message; add it to [rule.texts]", name, r.Kind)
			}
		}
		for _, t := range templates {
			names, perr := MessagePlaceholders(t.tmpl)
			if perr != "" {
				fail("%s %q %s; write a placeholder as {name}", t.what, t.tmpl, perr)
				continue
			}
			for _, n := range names {
				if !slices.Contains(a.Placeholders, n) {
					fail("%s uses {%s}, which kind %q does not fill; it fills %s", t.what, n, r.Kind, braced(a.Placeholders))
				}
			}
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return cat, nil
}

// MessagePlaceholders returns the {names} of a message template in order,
// or a description of its first unbalanced brace.
func MessagePlaceholders(msg string) (names []string, problem string) {
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

// listOr lists names, or says none.
func listOr(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// braced lists names as {a}, {b}.
func braced(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "{" + n + "}"
	}
	return strings.Join(out, ", ")
}

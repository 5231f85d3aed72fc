package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/python/requires"
)

// A List is a named list of the catalog ([lists]): the strings a rule's
// constraint tests a value against (where.X.in / not-in). An item is in
// the list always, or only in the versions of a dependency its gates
// name (`{ when = "cuda-tile >= 1.3", values = [...] }`): which of them
// the checked repository may run with is what its packaging files
// declare (see Member).
type List struct {
	Name  string
	Items []ListItem
	index map[string][]int // the items of each value
}

// A ListItem is one value of a list and the gates it is in the list under.
type ListItem struct {
	Value string
	When  []Gate // all hold; none: always in the list
}

// A Gate is a version range of a dependency: "cuda-tile >= 1.3".
type Gate struct {
	Dep   string // normalized (requires.NormalizeName)
	Range requires.Range
	Text  string // as written
}

// Membership is whether a value is in a list, for the versions a
// repository admits.
type Membership int

const (
	// NotMember: in none of the versions.
	NotMember Membership = iota
	// Member: in every one.
	Member
	// MaybeMember: in some of them only (or the repository declares no
	// version of a dependency a gate names).
	MaybeMember
)

// Member tells whether value is in the list when the repository's
// declarations admit the versions admitted(dep) of each dependency (All
// when it declares none). A gate holds for sure when every admitted
// version is in its range, not at all when none is; else maybe.
func (l *List) Member(value string, admitted func(dep string) requires.Range) Membership {
	out := NotMember
	if l == nil {
		return out
	}
	for _, i := range l.index[value] {
		m := Member
		for _, g := range l.Items[i].When {
			a := requires.All
			if admitted != nil {
				a = admitted(g.Dep)
			}
			switch {
			case a.Within(g.Range):
			case a.Disjoint(g.Range):
				m = NotMember
			default:
				if m == Member {
					m = MaybeMember
				}
			}
			if m == NotMember {
				break
			}
		}
		if m == Member {
			return Member
		}
		if m == MaybeMember {
			out = MaybeMember
		}
	}
	return out
}

// Values returns every value of the list, gated or not, in file order
// without repeats.
func (l *List) Values() []string {
	var out []string
	for _, it := range l.Items {
		if !slices.Contains(out, it.Value) {
			out = append(out, it.Value)
		}
	}
	return out
}

func (l *List) reindex() {
	l.index = map[string][]int{}
	for i, it := range l.Items {
		l.index[it.Value] = append(l.index[it.Value], i)
	}
}

// ParseGate parses a gate: a dependency's name and a PEP 440 specifier
// set, "cuda-tile >= 1.3" or "cuda-tile >=1.1, <1.4". Extras, URLs and
// markers have no meaning in a gate, and a gate names a version.
func ParseGate(s string) (Gate, error) {
	if strings.ContainsAny(s, "[@;") {
		return Gate{}, fmt.Errorf("gate %q: want a dependency and a version range, such as \"cuda-tile >= 1.3\" (no extras, URL or marker)", s)
	}
	req, err := requires.ParseRequirement(s)
	if err != nil {
		return Gate{}, fmt.Errorf("gate %q: %v", s, err)
	}
	if req.Range == requires.All {
		return Gate{}, fmt.Errorf("gate %q names no version: write a range such as \"%s >= 1.3\"", s, req.Name)
	}
	if req.Range.Empty() {
		return Gate{}, fmt.Errorf("gate %q: no version is in the range", s)
	}
	return Gate{Dep: req.Name, Range: req.Range, Text: strings.TrimSpace(s)}, nil
}

// loadLists decodes the [lists] table. Each list is an array, or a table
// { when = "gate", values = [...] } whose gate applies to every item; an
// item is a string, or a table { when = "gate", value = "x" } or
// { when = "gate", values = ["x", "y"] }.
func loadLists(val any, kl KeyLines, filename string, errs *ErrorList) map[string]*List {
	t, ok := val.(map[string]any)
	if !ok {
		*errs = append(*errs, &LoadError{File: filename, Line: kl.Line("lists"), Msg: "lists: want a table of lists"})
		return nil
	}
	out := map[string]*List{}
	for _, name := range slices.Sorted(maps.Keys(t)) {
		line := kl.Line("lists", name)
		fail := func(format string, args ...any) {
			*errs = append(*errs, &LoadError{File: filename, Line: line, Msg: fmt.Sprintf("lists.%s: ", name) + fmt.Sprintf(format, args...)})
		}
		l := &List{Name: name}
		var outer []Gate
		items, isArray := t[name].([]any)
		if tab, isTable := t[name].(map[string]any); isTable {
			var err error
			if outer, items, err = gatedTable(tab, "values"); err != nil {
				fail("%v", err)
				continue
			}
		} else if !isArray {
			fail("want a list of strings, or a table { when = \"dep >= version\", values = [...] }")
			continue
		}
		bad := false
		for i, it := range items {
			switch v := it.(type) {
			case string:
				l.Items = append(l.Items, ListItem{Value: v, When: outer})
			case map[string]any:
				gates, values, err := gatedTable(v, "value", "values")
				if err != nil {
					fail("item %d: %v", i+1, err)
					bad = true
					continue
				}
				for _, x := range values {
					s, ok := x.(string)
					if !ok {
						fail("item %d: values are strings", i+1)
						bad = true
						break
					}
					l.Items = append(l.Items, ListItem{Value: s, When: append(slices.Clone(outer), gates...)})
				}
			default:
				fail("item %d: want a string or a table { when = \"dep >= version\", values = [...] }", i+1)
				bad = true
			}
		}
		if bad {
			continue
		}
		l.reindex()
		out[name] = l
	}
	return out
}

// gatedTable decodes a table with a gate: when, and the values under one
// of keys (value: one string; values: a list).
func gatedTable(t map[string]any, keys ...string) ([]Gate, []any, error) {
	var values []any
	found := ""
	for _, k := range slices.Sorted(maps.Keys(t)) {
		switch {
		case k == "when":
		case slices.Contains(keys, k):
			if found != "" {
				return nil, nil, fmt.Errorf("give one of %s", strings.Join(keys, " and "))
			}
			found = k
			if k == "value" {
				values = []any{t[k]}
			} else if vs, ok := t[k].([]any); ok {
				values = vs
			} else {
				return nil, nil, fmt.Errorf("%s: want a list", k)
			}
		default:
			return nil, nil, fmt.Errorf("unknown key %q%s", k, DidYouMean(k, append([]string{"when"}, keys...)))
		}
	}
	if found == "" {
		return nil, nil, fmt.Errorf("no %s", strings.Join(keys, " or "))
	}
	w, ok := t["when"].(string)
	if !ok {
		return nil, nil, fmt.Errorf("want when = \"dep >= version\" (a string), the versions the values are in the list for")
	}
	g, err := ParseGate(w)
	if err != nil {
		return nil, nil, err
	}
	return []Gate{g}, values, nil
}

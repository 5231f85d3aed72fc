package analysis

import (
	"strings"
	"testing"
)

func TestNewRegistry(t *testing.T) {
	b := &Analyzer[int]{Name: "b"}
	a := &Analyzer[int]{Name: "a"}
	g := NewRegistry(b, a)
	var names []string
	for _, k := range g.Kinds() {
		names = append(names, k.Name)
	}
	if got := strings.Join(names, " "); got != "a b" {
		t.Errorf("Kinds() = %s, want a b (sorted by name)", got)
	}
	if g.Kind("b") != b || g.Kind("c") != nil {
		t.Errorf("Kind: b -> %v, c -> %v", g.Kind("b"), g.Kind("c"))
	}
	g.Kinds()[0] = b // the caller's copy
	if g.Kinds()[0] != a {
		t.Error("Kinds() returned the registry's own slice")
	}
	for name, list := range map[string][]*Analyzer[int]{
		"no name":  {{}},
		"nil":      {nil},
		"two of a": {a, {Name: "a"}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: NewRegistry did not panic", name)
				}
			}()
			NewRegistry(list...)
		}()
	}
}

package checker

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// dispatchTable loads a dispatch file alone and returns it with its table.
func dispatchTable(t *testing.T, src string) (*File, *OpTable) {
	t.Helper()
	cat := catalog(t)
	repo, err := Load(&MapSource{Dir: "x", Files: map[string]string{opsPy: src}}, BuildLayout(cat.Layout, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	f := repo.Files[opsPy]
	if f == nil || f.AST == nil {
		t.Fatalf("%s does not parse", opsPy)
	}
	return f, BuildOpTable(repo)
}

// TestChangedStubs: which ops a change to a dispatch file concerns, told
// from its two versions alone.
func TestChangedStubs(t *testing.T) {
	const base = `"""Ops."""
from typing import Optional
from tilegym.backend import dispatch

LIMIT = 4


@dispatch("a")
def a(x, out: Optional[int] = None, **kwargs):
    raise NotImplementedError


# tilegym-lint: skip-step=5 reason="later"
@dispatch("b")
def b(x, **kwargs):
    raise NotImplementedError
`
	for _, tc := range []struct {
		name string
		head string
		want []string // nil: must be checked whole
	}{
		{"same", base, []string{}},
		{"edit a stub", strings.Replace(base, "def a(x,", "def a(y,", 1), []string{"a"}},
		{"edit the comment above a stub", strings.Replace(base, `reason="later"`, `reason="never"`, 1), []string{"b"}},
		{"add a stub", base + "\n\n@dispatch(\"c\")\ndef c(**kwargs):\n    raise NotImplementedError\n", []string{"c"}},
		{"remove a stub", strings.Replace(base, `@dispatch("b")`, "", 1), []string{"b"}},
		{"add an import", strings.Replace(base, "from typing import Optional\n", "from typing import Optional\nimport os\n", 1), []string{}},
		{"rebind a name a stub uses", strings.Replace(base, "from typing import Optional\n", "from collections import OrderedDict as Optional\n", 1), []string{"a"}},
		{"change a constant", strings.Replace(base, "LIMIT = 4", "LIMIT = 5", 1), []string{}},
		{"change the docstring", strings.Replace(base, `"""Ops."""`, `"""The ops."""`, 1), []string{}},
		{"a call", strings.Replace(base, "LIMIT = 4", "LIMIT = 4\nprint(LIMIT)", 1), nil},
		{"a star import", strings.Replace(base, "import os", "", 1) + "from os import *\n", nil},
		{"statements moved", strings.Replace(strings.Replace(base, "LIMIT = 4\n", "", 1), "from typing", "LIMIT = 4\nfrom typing", 1), nil},
		{"a stub under an if", strings.Replace(base, "@dispatch(\"b\")\ndef b(x, **kwargs):\n    raise NotImplementedError\n", "if True:\n    @dispatch(\"b\")\n    def b(x, **kwargs):\n        raise NotImplementedError\n", 1), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bf, bt := dispatchTable(t, base)
			hf, ht := dispatchTable(t, tc.head)
			got, ok := changedStubs(hf, bf, ht, bt)
			if tc.want == nil {
				if ok {
					t.Errorf("ops %v, want a whole check", got)
				}
				return
			}
			if !ok {
				t.Fatalf("a whole check, want ops %v", tc.want)
			}
			names := []string{}
			for op := range got {
				names = append(names, op)
			}
			sort.Strings(names)
			if diff := cmp.Diff(tc.want, names); diff != "" {
				t.Errorf("ops (-want +got):\n%s", diff)
			}
		})
	}
}

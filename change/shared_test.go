package change

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/source"
)

// dispatchTable loads a dispatch file alone and returns it with its table.
func dispatchTable(t *testing.T, src string) (*source.File, *optable.OpTable) {
	t.Helper()
	cat := testrepo.Catalog(t)
	repo, err := load.Load(&testrepo.MapSource{Dir: "x", Files: map[string]string{opsPy: src}}, config.NewSetup(cat, nil))
	if err != nil {
		t.Fatal(err)
	}
	f := repo.Files[opsPy]
	if f == nil || f.AST == nil {
		t.Fatalf("%s does not parse", opsPy)
	}
	return f, optable.BuildOpTable(repo)
}

// checkScoped compares what a shared file's change concerns (got, ok) with
// want (nil: the change must be checked whole).
func checkScoped(t *testing.T, what string, got map[string]bool, ok bool, want []string) {
	t.Helper()
	if want == nil {
		if ok {
			t.Errorf("%s %v, want a whole check", what, got)
		}
		return
	}
	if !ok {
		t.Fatalf("a whole check, want %s %v", what, want)
	}
	names := []string{}
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
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
			checkScoped(t, "ops", got, ok, tc.want)
		})
	}
}

// initTable loads a cuTile __init__.py alone and returns its table.
func initTable(t *testing.T, src string) *optable.OpTable {
	t.Helper()
	cat := testrepo.Catalog(t)
	repo, err := load.Load(&testrepo.MapSource{Dir: "x", Files: map[string]string{initPy: src}}, config.NewSetup(cat, nil))
	if err != nil {
		t.Fatal(err)
	}
	if f := repo.Files[initPy]; f == nil || f.AST == nil {
		t.Fatalf("%s does not parse", initPy)
	}
	return optable.BuildOpTable(repo)
}

// TestInitChangeWords: the names a change to a cuTile __init__ concerns,
// told from its two versions alone.
func TestInitChangeWords(t *testing.T) {
	const base = `from tilegym.backend import is_backend_available

if is_backend_available("cutile"):
    from . import gelu
    from . import softmax
    from .experimental import mhc

    from .softmax import softmax

    __all__ = ["softmax"]
`
	for _, tc := range []struct {
		name    string
		head    string
		touched []LineRange // lines the change touches in head, besides those edited
		want    []string    // nil: must be checked whole
	}{
		{"same", base, nil, []string{}},
		{"add a module", strings.Replace(base, "    from . import softmax\n", "    from . import relu\n    from . import softmax\n", 1), nil, []string{"relu"}},
		{"export a function", strings.Replace(base, `["softmax"]`, `["softmax", "gelu"]`, 1), nil, []string{"gelu"}},
		{"a sub-package module", strings.Replace(base, "from .experimental import mhc", "from .experimental.mhc import mhc_apply", 1), nil, []string{"experimental", "mhc", "mhc_apply"}},
		{"a touched line", base, []LineRange{{4, 4}}, []string{"gelu"}},
		{"misorder", strings.Replace(base, "    from . import gelu\n    from . import softmax\n", "    from . import softmax\n    from . import gelu\n", 1), nil, []string{"gelu", "softmax"}},
		{"a noqa of another linter", strings.Replace(base, "import gelu\n", "import gelu  # noqa: F401\n", 1), nil, []string{}},
		{"a noqa of ours", strings.Replace(base, "import gelu\n", "import gelu  # noqa: TG302\n", 1), nil, nil},
		{"a bare noqa", strings.Replace(base, "import gelu\n", "import gelu  # noqa\n", 1), nil, nil},
		{"no function imports any more", strings.Replace(strings.Replace(base, "    from .softmax import softmax\n", "", 1), "    from .experimental import mhc\n", "", 1), nil, nil},
		{"no backend block", strings.Replace(strings.Replace(base, "if is_backend_available(\"cutile\"):\n", "", 1), "\n    ", "\n", -1), nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := &Change{Lines: map[string][]LineRange{}, Whole: map[string]bool{}}
			ch.Lines[initPy] = append(tc.touched, LineRange{100, 100})
			got, ok := initChangeWords(ch, initPy, initTable(t, tc.head), initTable(t, base))
			checkScoped(t, "names", got, ok, tc.want)
		})
	}
}

// TestTouchedOpsInitModule: a touched __init__ entry names an op's module
// relative to its package, and only the ops of that cuTile package.
func TestTouchedOpsInitModule(t *testing.T) {
	cat := testrepo.Catalog(t)
	files := map[string]string{
		opsPy:                                "from tilegym.backend import dispatch\n\n\n@dispatch(\"relu2\")\ndef relu2(x, **kwargs):\n    raise NotImplementedError\n",
		"src/tilegym/ops/cutile/__init__.py": "from tilegym.backend import is_backend_available\n\nif is_backend_available(\"cutile\"):\n    from . import activation\n",
		"src/tilegym/ops/cutile/activation/__init__.py": "from . import kernels\n",
		"src/tilegym/ops/cutile/activation/kernels.py":  "from tilegym.backend import register_impl\n\n\n@register_impl(\"relu2\", backend=\"cutile\")\ndef relu2(x, **kwargs):\n    return x\n",
		"src/tilegym/suites/demo/cutile/__init__.py":    "from . import kernels\n",
		"src/tilegym/suites/demo/cutile/kernels.py":     "x = 1\n",
		"src/tilegym/suites/demo/ops.py":                "from tilegym.backend import dispatch\n",
		"src/tilegym/suites/demo/__init__.py":           "",
	}
	repo, err := load.Load(&testrepo.MapSource{Dir: "x", Files: files}, config.NewSetup(cat, nil))
	if err != nil {
		t.Fatal(err)
	}
	tab := optable.BuildOpTable(repo)
	for _, tc := range []struct {
		file string
		want bool
	}{
		{"src/tilegym/ops/cutile/activation/__init__.py", true}, // from . import kernels: relu2's module
		{"src/tilegym/suites/demo/cutile/__init__.py", false},   // another package's kernels
	} {
		ch := &Change{Lines: map[string][]LineRange{tc.file: {{1, 1}}}, Whole: map[string]bool{}}
		if got := TouchedOps(tab, ch)["relu2"]; got != tc.want {
			t.Errorf("%s line 1 touched: relu2 touched = %v, want %v", tc.file, got, tc.want)
		}
	}
}

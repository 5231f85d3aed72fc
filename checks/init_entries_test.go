package checks_test

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/checks/checkstest"
	"github.com/tilegym/tilegym-lint/optable"
)

// TestInitEntryEdits: the Step 3 entries `tilegym-lint new` writes, from
// the fixes of TG301, TG303 and TG304, on __init__.py files laid out as
// TileGym's core package and its suites lay them out.
func TestInitEntryEdits(t *testing.T) {
	const core = "src/tilegym/ops/cutile/__init__.py"
	const suite = "src/tilegym/suites/demo/cutile/__init__.py"
	cases := []struct {
		name, path, init string
		blocked          bool
		want             string // the fixed file; "" when ok must be false
	}{
		{
			name: "core, __all__ one per line", path: core, blocked: true,
			init: "from tilegym.backend import is_backend_available\n\nif is_backend_available(\"cutile\"):\n    from . import aaa\n    from . import zzz\n\n    from .aaa import aaa\n    from .zzz import zzz\n\n    __all__ = [\n        \"aaa\",\n        \"zzz\",\n    ]\n",
			want: "from tilegym.backend import is_backend_available\n\nif is_backend_available(\"cutile\"):\n    from . import aaa\n    from . import my_op\n    from . import zzz\n\n    from .aaa import aaa\n    from .my_op import my_op\n    from .zzz import zzz\n\n    __all__ = [\n        \"aaa\",\n        \"my_op\",\n        \"zzz\",\n    ]\n",
		},
		{
			name: "core, sorted __all__ on one line", path: core, blocked: true,
			init: "from tilegym.backend import is_backend_available\n\nif is_backend_available(\"cutile\"):\n    from . import zzz\n    from .zzz import zzz\n\n    __all__ = [\"aaa\", \"zzz\"]\n",
			want: "from tilegym.backend import is_backend_available\n\nif is_backend_available(\"cutile\"):\n    from . import my_op\n    from . import zzz\n    from .my_op import my_op\n    from .zzz import zzz\n\n    __all__ = [\"aaa\", \"my_op\", \"zzz\"]\n",
		},
		{
			// The module and function imports insert at one place: one fix,
			// the module import first, with the noqa the others carry.
			name: "suite, noqa, no function import, no __all__", path: suite,
			init: "\"\"\"Demo.\"\"\"\n\nfrom . import aaa  # noqa: F401\n",
			want: "\"\"\"Demo.\"\"\"\n\nfrom . import aaa  # noqa: F401\nfrom . import my_op  # noqa: F401\nfrom .my_op import my_op\n",
		},
		{
			// A noqa as package directive reads it, however spaced or cased.
			name: "suite, noqa written tight", path: suite,
			init: "\"\"\"Demo.\"\"\"\n\nfrom . import aaa  #NOQA:F401\n",
			want: "\"\"\"Demo.\"\"\"\n\nfrom . import aaa  #NOQA:F401\nfrom . import my_op  #NOQA:F401\nfrom .my_op import my_op\n",
		},
		{
			name: "everything there", path: core, blocked: true,
			init: "from tilegym.backend import is_backend_available\n\nif is_backend_available(\"cutile\"):\n    from . import my_op\n    from .my_op import my_op\n\n    __all__ = [\"my_op\"]\n",
			want: "from tilegym.backend import is_backend_available\n\nif is_backend_available(\"cutile\"):\n    from . import my_op\n    from .my_op import my_op\n\n    __all__ = [\"my_op\"]\n",
		},
		{
			// Nothing to place an import after or before.
			name: "suite importing nothing", path: suite,
			init: "\"\"\"Demo.\"\"\"\n",
		},
	}
	for _, c := range cases {
		dir := c.path[:len(c.path)-len("/__init__.py")]
		repo := checkstest.LoadFiles(t, map[string]string{c.path: c.init, dir + "/my_op.py": "", dir + "/aaa.py": "", dir + "/zzz.py": ""})
		var in *optable.Init
		for _, x := range optable.BuildOpTable(repo).Inits {
			if x.File.Path == c.path {
				in = x
			}
		}
		if in == nil {
			t.Fatalf("%s: no init", c.name)
		}
		edits, ok := checks.InitEntryEdits(in, c.blocked, "my_op", "my_op")
		if ok != (c.want != "") {
			t.Errorf("%s: ok = %v", c.name, ok)
			continue
		}
		if !ok {
			continue
		}
		if c.name == "suite, noqa, no function import, no __all__" && len(edits) != 1 {
			t.Errorf("%s: %d edits, want the two insertions merged into one", c.name, len(edits))
		}
		sort.Slice(edits, func(i, j int) bool { return edits[i].Start.Before(edits[j].Start) })
		got := applyFix(c.init, edits)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: fixed file (-want +got):\n%s", c.name, diff)
		}
	}
}

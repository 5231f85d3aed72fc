package checks_test

import (
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/checks/checkstest"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
)

// applyFix applies the edits of a fix to a source (edits of one file, in
// any order, not overlapping).
func applyFix(src string, edits []analysis.TextEdit) string {
	lines := strings.SplitAfter(src, "\n")
	off := func(p int, col int) int {
		n := 0
		for i := 0; i < p-1 && i < len(lines); i++ {
			n += len(lines[i])
		}
		return n + col
	}
	// Apply from the end so offsets stay valid.
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		s, end := off(e.Start.Line, e.Start.Col), off(e.End.Line, e.End.Col)
		src = src[:s] + e.NewText + src[end:]
	}
	return src
}

func TestCuTileInitFixes(t *testing.T) {
	core := &checks.InitParams{BlockScopes: []string{"core"}}
	cases := []struct {
		dir  string
		rule string
		want string
	}{
		{fixtureset.Materialize(t, "tg301-missing-module-import"), "TG301", `if is_backend_available("cutile"):  # want: TG301 "add \"from \. import activation\" to the ` + "`" + `if is_backend_available\(\"cutile\"\)` + "`" + ` block"` + "\n    from . import activation\n    from . import silu_and_mul\n"},
		{fixtureset.Materialize(t, "tg303-missing-function-import"), "TG303", "    from . import softmax\n    from .softmax import softmax\n"},
		{fixtureset.Materialize(t, "tg302-module-import-order"), "TG302", `    from . import reductions  # want: TG302 "\"from \. import reductions\" comes after \"from \. import softmax\"; keep the module imports in alphabetical order"` + "\n    from . import softmax\n"},
	}
	for _, c := range cases {
		repo := checkstest.Load(t, c.dir)
		ds := checkstest.Check(t, repo, checkstest.Rule(t, c.rule, core))
		if len(ds) != 1 {
			t.Fatalf("%s: %d findings", c.dir, len(ds))
		}
		if len(ds[0].Fixes) != 1 {
			t.Fatalf("%s: no fix", c.dir)
		}
		src := string(repo.File(ds[0].File).Src)
		fixed := applyFix(src, ds[0].Fixes[0].Edits)
		if !strings.Contains(fixed, c.want) {
			t.Errorf("%s: fixed source lacks %q:\n%s", c.dir, c.want, fixed)
		}
	}
	// The fixed order is accepted.
	ds := checkstest.Check(t, checkstest.Load(t, "../fixtures/good"), checkstest.Rule(t, "TG302", core))
	if len(ds) != 0 {
		t.Errorf("good: %v", ds)
	}
}

func TestCuTileInitSuiteWithoutBlock(t *testing.T) {
	// fixtures/good's suite imports its modules at the top level: fine when
	// the block is required only in the core scope, a finding when required
	// everywhere.
	good := checkstest.Load(t, "../fixtures/good")
	if ds := checkstest.Check(t, good, checkstest.Rule(t, "TG301", &checks.InitParams{BlockScopes: []string{"core"}})); len(ds) != 0 {
		t.Errorf("core-only block: %d findings", len(ds))
	}
	ds := checkstest.Run(t, good, checkstest.Rule(t, "TG301", &checks.InitParams{BlockScopes: []string{"core", "suites"}}))
	if len(ds) != 1 || ds[0].Op != "demo.scale" {
		t.Errorf("block everywhere: %+v", ds)
	}
}

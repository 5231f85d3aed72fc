package checker

import (
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// runKindOn runs one kind with one rule over a fixture directory.
func runKindOn(t *testing.T, dir string, a *checks.Analyzer, params any) []analysis.Diagnostic {
	t.Helper()
	return runKind(t, loadTestRepo(t, dir), a, params, "{op}")
}

// runKind runs one kind with one rule, whose message is msg, over a repository.
func runKind(t *testing.T, repo *optable.Repo, a *checks.Analyzer, params any, msg string) []analysis.Diagnostic {
	t.Helper()
	tab := optable.BuildOpTable(repo)
	rule := &rules.Rule{ID: "TGX", Kind: a.Name, Message: msg, Params: params}
	var got []analysis.Diagnostic
	pass := &checks.Pass{Analyzer: a, Repo: repo, Rules: []*rules.Rule{rule},
		ResultOf: map[*checks.Analyzer]any{optable.OpTableAnalyzer: tab},
		Report:   func(d analysis.Diagnostic) { got = append(got, d) }}
	if _, err := a.Run(pass); err != nil {
		t.Fatal(err)
	}
	return got
}

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
	cases := []struct {
		dir  string
		kind *checks.Analyzer
		want string
	}{
		{fixtureset.Materialize(t, "tg301-missing-module-import"), checks.InitModuleImportAnalyzer, `if is_backend_available("cutile"):  # want: TG301 "add \"from \. import activation\" to the if is_backend_available\(\"cutile\"\) block"` + "\n    from . import activation\n    from . import silu_and_mul\n"},
		{fixtureset.Materialize(t, "tg303-missing-function-import"), checks.InitFunctionImportAnalyzer, "    from . import softmax\n    from .softmax import softmax\n"},
		{fixtureset.Materialize(t, "tg302-module-import-order"), checks.InitOrderAnalyzer, `    from . import reductions  # want: TG302 "\"from \. import reductions\" comes after \"from \. import softmax\"; keep the module imports in alphabetical order"` + "\n    from . import softmax\n"},
	}
	for _, c := range cases {
		ds := runKindOn(t, c.dir, c.kind, &checks.InitParams{BlockScopes: []string{"core"}})
		if len(ds) != 1 {
			t.Fatalf("%s: %d findings", c.dir, len(ds))
		}
		if len(ds[0].Fixes) != 1 {
			t.Fatalf("%s: no fix", c.dir)
		}
		repo := loadTestRepo(t, c.dir)
		src := string(repo.File(ds[0].File).Src)
		fixed := applyFix(src, ds[0].Fixes[0].Edits)
		if !strings.Contains(fixed, c.want) {
			t.Errorf("%s: fixed source lacks %q:\n%s", c.dir, c.want, fixed)
		}
	}
	// The fixed order is accepted.
	ds := runKindOn(t, "../fixtures/good", checks.InitOrderAnalyzer, &checks.InitParams{BlockScopes: []string{"core"}})
	if len(ds) != 0 {
		t.Errorf("good: %v", ds)
	}
}

func TestCuTileInitSuiteWithoutBlock(t *testing.T) {
	// fixtures/good's suite imports its modules at the top level: fine when
	// the block is required only in the core scope, a finding when required
	// everywhere.
	if ds := runKindOn(t, "../fixtures/good", checks.InitModuleImportAnalyzer, &checks.InitParams{BlockScopes: []string{"core"}}); len(ds) != 0 {
		t.Errorf("core-only block: %d findings", len(ds))
	}
	ds := runKindOn(t, "../fixtures/good", checks.InitModuleImportAnalyzer, &checks.InitParams{BlockScopes: []string{"core", "suites"}})
	if len(ds) != 1 || ds[0].Op != "demo.scale" {
		t.Errorf("block everywhere: %+v", ds)
	}
}

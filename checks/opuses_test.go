package checks_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/internal/corpus"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
)

// The backend modules of bench-op-call in rules.toml, and a module pattern
// that every public name is under.
var opUseModules = [][]string{
	{"tilegym.ops.cutile", "tilegym.ops.triton", "tilegym.ops.tilecpp", "tilegym.ops.cutile_rs", "tilegym.suites.*.cutile"},
	{"tilegym", "torch"},
}

// backendModuleUses and publicCalls (looked up in a per-file index) answer what the walks of the file they replace answer, for every
// test and benchmark file of every fixture, of TileGym and of a file
// serving 30 ops.
func TestOpUsesMatchScans(t *testing.T) {
	corpus.Agree(t, "questions", 10000, func(repo *optable.Repo, _ *layout.Layout) ([]string, int) {
		tab := optable.BuildOpTable(repo)
		var diffs []string
		n := 0
		for _, modules := range opUseModules {
			d, k := checks.OpUseMismatches(tab, modules)
			diffs, n = append(diffs, d...), n+k
		}
		return diffs, n
	}, manyServedTree(t, 30))
}

// Asking how a benchmark file uses each op's backend modules and where it
// calls the op allocates about as much per op with 800 ops served by one
// file (importing each) as with 200: walking the file per op made
// bench-op-call quadratic in the ops of a shared benchmark file. The calls matched per
// op are counted too (matching allocates nothing). No time is measured.
func TestOpUsesAllocLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("builds trees of a thousand ops")
	}
	perOp := func(n int) (bytes, calls float64) {
		dir := manyServedTree(t, n)
		// And an import of each op, as a benchmark timing several does.
		var imports strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&imports, "from tilegym.ops import used_%d\n", i)
		}
		testrepo.ReplaceInFile(t, dir, "tests/benchmark/bench_used_0.py", "import triton\n", "import triton\n"+imports.String())
		repo, _ := corpus.Load(t, dir)
		tab := optable.BuildOpTable(repo)
		var before, after runtime.MemStats
		start := checks.CallsExamined()
		runtime.ReadMemStats(&before)
		reached := checks.OpUseQueries(tab, opUseModules[0])
		runtime.ReadMemStats(&after)
		if reached < n {
			t.Fatalf("%d of %d ops called by their benchmark", reached, n)
		}
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n), float64(checks.CallsExamined()-start) / float64(n)
	}
	small, smallCalls := perOp(200)
	large, largeCalls := perOp(800)
	t.Logf("per op: %.0f bytes and %.1f calls examined with 200 ops, %.0f and %.1f with 800", small, smallCalls, large, largeCalls)
	if large > 1.2*small {
		t.Errorf("backendModuleUses and publicCalls allocate %.0f bytes per op with 800 ops served by one file, %.0f with 200", large, small)
	}
	if largeCalls > 1.2*smallCalls {
		t.Errorf("publicCalls examines %.1f calls per op with 800 ops served by one file, %.1f with 200", largeCalls, smallCalls)
	}
}

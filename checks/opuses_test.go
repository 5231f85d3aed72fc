package checks_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/source"
)

// The parameters of bench-reference and bench-op-call in rules.toml, and
// a module pattern that every public name is under.
var (
	opUseRegister = []string{"tilegym.backend.register_impl", "tilegym.register_impl"}
	opUseModules  = [][]string{
		{"tilegym.ops.cutile", "tilegym.ops.triton", "tilegym.ops.tilecpp", "tilegym.ops.cutile_rs", "tilegym.suites.*.cutile"},
		{"tilegym", "torch"},
	}
)

// reaches, backendModuleUses and publicCalls (looked up in a per-file
// index) answer what the walks of the file they replace answer, for every
// test and benchmark file of every fixture, of TileGym and of a file
// serving 30 ops.
func TestOpUsesMatchScans(t *testing.T) {
	cat := testrepo.Catalog(t)
	n := 0
	for _, dir := range append(fixtureset.Dirs(t), "/work/tilegym", manyServedTree(t, 30)) {
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		lay := config.BuildLayout(&cat.Layout, nil)
		repo, err := load.Load(&source.DiskSource{Dir: dir}, lay, nil)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		tab := optable.BuildOpTable(repo)
		for _, modules := range opUseModules {
			diffs, k := checks.OpUseMismatches(tab, opUseRegister, modules)
			n += k
			for _, d := range diffs {
				t.Errorf("%s: %s", dir, d)
			}
		}
	}
	if n < 10000 {
		t.Errorf("compared %d questions; the fixtures hold more", n)
	}
}

// Asking whether a benchmark file reaches each op it serves, how it uses
// the op's backend modules and where it calls it allocates about as much
// per op with 800 ops served by one file (importing each) as with 200:
// walking the file per op made bench-reference and bench-op-call
// quadratic in the ops of a shared benchmark file. The calls matched per
// op are counted too (matching allocates nothing). No time is measured.
func TestOpUsesAllocLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("builds trees of a thousand ops")
	}
	cat := testrepo.Catalog(t)
	perOp := func(n int) (bytes, calls float64) {
		dir := manyServedTree(t, n)
		// And an import of each op, as a benchmark timing several does.
		var imports strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&imports, "from tilegym.ops import used_%d\n", i)
		}
		testrepo.ReplaceInFile(t, dir, "tests/benchmark/bench_used_0.py", "import triton\n", "import triton\n"+imports.String())
		lay := config.BuildLayout(&cat.Layout, nil)
		repo, err := load.Load(&source.DiskSource{Dir: dir}, lay, nil)
		if err != nil {
			t.Fatal(err)
		}
		tab := optable.BuildOpTable(repo)
		var before, after runtime.MemStats
		start := checks.CallsExamined()
		runtime.ReadMemStats(&before)
		reached := checks.OpUseQueries(tab, opUseRegister, opUseModules[0])
		runtime.ReadMemStats(&after)
		if reached < n {
			t.Fatalf("%d of %d ops reached by their benchmark", reached, n)
		}
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n), float64(checks.CallsExamined()-start) / float64(n)
	}
	small, smallCalls := perOp(200)
	large, largeCalls := perOp(800)
	t.Logf("per op: %.0f bytes and %.1f calls examined with 200 ops, %.0f and %.1f with 800", small, smallCalls, large, largeCalls)
	if large > 1.2*small {
		t.Errorf("reaches, backendModuleUses and publicCalls allocate %.0f bytes per op with 800 ops served by one file, %.0f with 200", large, small)
	}
	if largeCalls > 1.2*smallCalls {
		t.Errorf("publicCalls examines %.1f calls per op with 800 ops served by one file, %.1f with 200", largeCalls, smallCalls)
	}
}

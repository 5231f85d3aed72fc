package checks_test

import (
	"fmt"
	"math/rand"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/internal/corpus"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
)

// The kernel-module kind finds the __init__.py exporting a module among
// its ancestor directories' inits; the scan of every init it replaces must
// agree for every file of every fixture and of TileGym (and for paths one
// level deeper, under each file's would-be package).
func TestExportingInitMatchesScan(t *testing.T) {
	corpus.Agree(t, "paths", 1000, func(repo *optable.Repo, _ *layout.Layout) ([]string, int) {
		var paths []string
		for _, p := range repo.Paths {
			paths = append(paths, p, strings.TrimSuffix(p, ".py")+"/sub.py")
		}
		return checks.ExportingInitMismatches(optable.BuildOpTable(repo), paths), len(paths)
	})
}

// Finding the __init__.py that exports each of a package's modules
// allocates about as much per module with 800 modules as with 200: copying
// every init's imports per module made the kernel-module kind quadratic
// in a package's modules. No time is measured.
func TestExportingInitAllocLinear(t *testing.T) {
	perModule := func(n int) float64 {
		dir := manyOpsOnePackage(t, n)
		repo, _ := corpus.Load(t, dir)
		tab := optable.BuildOpTable(repo)
		var paths []string
		for _, p := range repo.Paths {
			if strings.HasPrefix(p, "src/tilegym/ops/cutile/gen_") {
				paths = append(paths, p)
			}
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		found := checks.ExportingInits(tab, paths)
		runtime.ReadMemStats(&after)
		if found != n {
			t.Fatalf("%d of %d modules found exported", found, n)
		}
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
	}
	small, large := perModule(200), perModule(800)
	t.Logf("%.0f bytes per module with 200, %.0f with 800", small, large)
	if large > 1.2*small {
		t.Errorf("finding the exporting init allocates %.0f bytes per module with 800 modules, %.0f with 200", large, small)
	}
}

// The init-* kinds look an op's imports and __all__ entries up in an index
// of each __init__.py; the scans they replaced must agree on every fixture
// and on TileGym, for each op's names and every name the inits hold.
func TestInitLookupsMatchScans(t *testing.T) {
	corpus.Agree(t, "lookups", 1000, func(repo *optable.Repo, lay *layout.Layout) ([]string, int) {
		return checks.InitLookupMismatches(optable.BuildOpTable(repo), lay)
	})
}

// misnamedBenchFunc and namedAfterOther (each op's names expanded once,
// counted once per file) agree with the scans they replace for every op
// and every test and benchmark file serving it, on every fixture and on
// TileGym, and on a benchmark file serving many ops.
func TestNameLookupsMatchScans(t *testing.T) {
	corpus.Agree(t, "pairs", 250, func(repo *optable.Repo, lay *layout.Layout) ([]string, int) {
		return checks.NameLookupMismatches(optable.BuildOpTable(repo), lay)
	}, manyServedTree(t, 30))
}

// manyServedTree writes fixtures/good with n more ops and one benchmark
// file named after the first, with a benchmark function per op, one named
// after none and one a variant of the last (bench_<op>_fwd).
func manyServedTree(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	testrepo.CopyDir(t, "../fixtures/good", dir)
	var stubs, bench strings.Builder
	bench.WriteString("import tilegym\nimport triton\n")
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("used_%d", i)
		fmt.Fprintf(&stubs, "\n\n@dispatch(%q)\ndef %s(x, out=None, **kwargs):\n    raise NotImplementedError\n", name, name)
		fmt.Fprintf(&bench, "\n\n@triton.testing.perf_report([])\ndef bench_%s(backend):\n    return tilegym.ops.%s(1, backend=backend)\n", name, name)
	}
	last := fmt.Sprintf("used_%d", n-1)
	fmt.Fprintf(&bench, "\n\n@triton.testing.perf_report([])\ndef bench_other(backend):\n    return tilegym.ops.%s(1, backend=backend)\n", last)
	fmt.Fprintf(&bench, "\n\n@triton.testing.perf_report([])\ndef bench_%s_fwd(backend):\n    return tilegym.ops.%s(1, backend=backend)\n", last, last)
	testrepo.AppendFile(t, dir, "src/tilegym/ops/ops.py", stubs.String())
	testrepo.WriteFile(t, dir, "tests/benchmark/bench_used_0.py", bench.String())
	return dir
}

// Judging the names of a benchmark file's functions for each op it serves
// allocates about as much per op with 800 ops served as with 200:
// expanding every other served op's names per op made the name kinds
// quadratic in the ops of a shared test or benchmark file. No time is
// measured.
func TestNameLookupsAllocLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("builds trees of a thousand ops")
	}
	perOp := func(n int) float64 {
		dir := manyServedTree(t, n)
		repo, lay := corpus.Load(t, dir)
		tab := optable.BuildOpTable(repo)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		checks.NameLookups(tab, lay)
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
	}
	small, large := perOp(200), perOp(800)
	t.Logf("%.0f bytes per op with 200 ops, %.0f with 800", small, large)
	if large > 1.2*small {
		t.Errorf("the name lookups allocate %.0f bytes per op with 800 ops served by one file, %.0f with 200", large, small)
	}
}

// init-order builds the sorting fix of an __init__.py once, also when it
// has none (imports not one per line): building it again for each
// misplaced import split the whole file each time, quadratic in the
// imports. Per finding, 1,600 misplaced imports allocate about as much as
// 400. No time is measured.
func TestInitOrderAllocLinear(t *testing.T) {
	perFinding := func(n int) float64 {
		dir := t.TempDir()
		testrepo.CopyDir(t, "../fixtures/good", dir)
		var b strings.Builder
		b.WriteString("from tilegym.backend import is_backend_available\n\nif is_backend_available(\"cutile\"):\n")
		for i := n - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "    from . import m%05d\n    from .m%05d import f%05d\n", i, i, i)
		}
		testrepo.WriteFile(t, dir, "src/tilegym/ops/cutile/__init__.py", b.String())
		repo, lay := corpus.Load(t, dir)
		tab := optable.BuildOpTable(repo)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		found := checks.InitOrderFindings(tab, lay)
		runtime.ReadMemStats(&after)
		if len(found) < n/2 {
			t.Fatalf("%d findings for %d imports in reverse order", len(found), n)
		}
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(found))
	}
	small, large := perFinding(400), perFinding(1600)
	t.Logf("%.0f bytes per finding with 400 imports, %.0f with 1600", small, large)
	if large > 1.2*small {
		t.Errorf("init-order allocates %.0f bytes per finding with 1600 misplaced imports, %.0f with 400", large, small)
	}
}

// classMethod (an index of each class's methods) finds what a scan of
// the class body finds, for every method of every class of the corpus.
func TestClassMethodMatchesScan(t *testing.T) {
	n := 0
	for _, f := range testrepo.CorpusFiles(t) {
		diffs, k := checks.ClassMethodMismatches(f)
		n += k
		for _, d := range diffs {
			t.Error(d)
		}
	}
	if n < 100 {
		t.Errorf("compared %d methods; the corpus holds more", n)
	}
}

// longestOrdered (a Fenwick tree) marks the same subsequence as the scan
// of every pair, and greatestBefore/leastAfter find the neighbours the
// scans found, on random lists with many repeated values.
func TestLongestOrderedMatchesScan(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for trial := 0; trial < 3000; trial++ {
		n := r.Intn(40)
		xs := make([]string, n)
		for i := range xs {
			xs[i] = string(rune('a' + r.Intn(1+trial%12)))
		}
		if got, want := checks.LongestOrdered(xs), checks.LongestOrderedScan(xs); !reflect.DeepEqual(got, want) {
			t.Fatalf("longestOrdered(%q) = %v, the scan %v", xs, got, want)
		}
		g, l := checks.GreatestBefore(xs), checks.LeastAfter(xs)
		for i := range xs {
			wg, wl := -1, -1
			for j := 0; j < i; j++ {
				if wg < 0 || xs[j] > xs[wg] {
					wg = j
				}
			}
			for j := i + 1; j < n; j++ {
				if wl < 0 || xs[j] < xs[wl] {
					wl = j
				}
			}
			if g[i] != wg || l[i] != wl {
				t.Fatalf("%q at %d: greatest before %d, least after %d; want %d, %d", xs, i, g[i], l[i], wg, wl)
			}
		}
	}
}

// manyOpsOnePackage writes fixtures/good with n more ops, each with its
// stub and cuTile module, all imported by the one cuTile __init__.py, out
// of order (the last first), and listed in its __all__.
func manyOpsOnePackage(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	testrepo.CopyDir(t, "../fixtures/good", dir)
	var stubs, mods, funcs, all strings.Builder
	for i := n - 1; i >= 0; i-- {
		name := fmt.Sprintf("gen_%05d", i)
		fmt.Fprintf(&stubs, "\n\n@dispatch(%q)\ndef %s(x: torch.Tensor, out: Optional[torch.Tensor] = None, **kwargs: Any):\n    \"\"\"\n    Op.\n\n    Args:\n        x: input\n        out: output\n\n    Returns:\n        y\n    \"\"\"\n    raise NotImplementedError\n", name, name)
		fmt.Fprintf(&mods, "    from . import %s\n", name)
		fmt.Fprintf(&funcs, "    from .%s import %s\n", name, name)
		fmt.Fprintf(&all, "        %q,\n", name)
		testrepo.WriteFile(t, dir, "src/tilegym/ops/cutile/"+name+".py", "from tilegym.backend import register_impl\n\n\n@register_impl(\""+name+"\", backend=\"cutile\")\ndef "+name+"(x, out=None, **kwargs):\n    return x\n")
	}
	testrepo.AppendFile(t, dir, "src/tilegym/ops/ops.py", stubs.String())
	testrepo.WriteFile(t, dir, "src/tilegym/ops/cutile/__init__.py", "from tilegym.backend import is_backend_available\n\nif is_backend_available(\"cutile\"):\n"+
		"    from . import activation\n    from . import silu_and_mul\n    from . import softmax\n"+mods.String()+
		"    from .silu_and_mul import silu_and_mul\n    from .softmax import softmax\n"+funcs.String()+
		"\n    __all__ = [\n        \"silu_and_mul\",\n        \"softmax\",\n"+all.String()+"    ]\n")
	return dir
}

// The init-* kinds' lookups allocate about as much per op with 800 ops in
// one cuTile package as with 200: copying the package's imports for each op
// (loadsPart) made them quadratic in the ops of a package. No time is
// measured.
func TestInitKindsAllocLinearInPackageOps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds trees of a few thousand files")
	}
	perOp := func(n int) float64 {
		dir := manyOpsOnePackage(t, n)
		repo, lay := corpus.Load(t, dir)
		tab := optable.BuildOpTable(repo)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		found := checks.LookUpInitChains(tab, lay)
		runtime.ReadMemStats(&after)
		if found < n {
			t.Fatalf("%d of %d ops found imported and listed", found, n)
		}
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
	}
	small, large := perOp(200), perOp(800)
	t.Logf("%.0f bytes per op with 200 ops, %.0f with 800", small, large)
	if large > 1.2*small {
		t.Errorf("the init lookups allocate %.0f bytes per op with 800 ops, %.0f with 200: more than 1.2 times as much", large, small)
	}
}

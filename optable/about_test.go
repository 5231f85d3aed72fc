package optable_test

import (
	"fmt"
	"math/rand"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/corpus"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
)

// aboutOps (through the index of name parts) finds the ops a test or
// benchmark file is about as scoring every name against every op does,
// on every fixture and on TileGym.
func TestAboutOpsMatchesScan(t *testing.T) {
	corpus.Agree(t, "files", 400, func(repo *optable.Repo, _ *layout.Layout) ([]string, int) {
		return optable.AboutMismatches(optable.BuildOpTable(repo))
	})
}

// The index and the scan agree on random op and file names made of a few
// words (repeated, short and long, one inside another).
func TestBestNamedMatchesScan(t *testing.T) {
	words := []string{"a", "ab", "abc", "abcd", "bcd", "used", "use", "fused", "x1", "12", "123", "1234", "fwd", "test", "bench"}
	r := rand.New(rand.NewSource(1))
	name := func() string {
		parts := make([]string, 1+r.Intn(4))
		for i := range parts {
			parts[i] = words[r.Intn(len(words))]
		}
		return strings.Join(parts, "_")
	}
	for trial := 0; trial < 5000; trial++ {
		funcs := make([]string, 1+r.Intn(12))
		for i := range funcs {
			funcs[i] = name()
		}
		names := make([]string, 1+r.Intn(4))
		for i := range names {
			names[i] = name()
		}
		if got, want := optable.BestNamed(funcs, names); !reflect.DeepEqual(got, want) {
			t.Fatalf("ops %q, names %q: index %q, scan %q", funcs, names, got, want)
		}
	}
}

// Finding the ops a benchmark file serving n ops is about (a benchmark
// function per op) allocates about as much per op with 800 ops as with
// 200: scoring each of the file's names against each op made the op
// table quadratic in the ops of a shared file. No time is measured.
func TestAboutOpsAllocLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("builds trees of a thousand ops")
	}
	perOp := func(n int) float64 {
		dir := t.TempDir()
		testrepo.CopyDir(t, "../fixtures/good", dir)
		var stubs, bench strings.Builder
		bench.WriteString("import tilegym\nimport triton\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&stubs, "\n\n@dispatch(\"used_%d\")\ndef used_%d(x, out=None, **kwargs):\n    raise NotImplementedError\n", i, i)
			fmt.Fprintf(&bench, "\n\n@triton.testing.perf_report([])\ndef bench_used_%d(backend):\n    return tilegym.ops.used_%d(1, backend=backend)\n", i, i)
		}
		testrepo.AppendFile(t, dir, "src/tilegym/ops/ops.py", stubs.String())
		testrepo.WriteFile(t, dir, "tests/benchmark/bench_used_0.py", bench.String())
		repo, _ := corpus.Load(t, dir)
		tab := optable.BuildOpTable(repo)
		f := repo.File("tests/benchmark/bench_used_0.py")
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		about := optable.AboutOpsOf(tab, f)
		runtime.ReadMemStats(&after)
		if len(about) != n {
			t.Fatalf("the benchmark is about %d of its %d ops", len(about), n)
		}
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
	}
	small, large := perOp(200), perOp(800)
	t.Logf("%.0f bytes per op with 200 ops, %.0f with 800", small, large)
	if large > 1.2*small {
		t.Errorf("aboutOps allocates %.0f bytes per op with 800 ops served by one file, %.0f with 200", large, small)
	}
}

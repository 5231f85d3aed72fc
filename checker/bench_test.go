package checker

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/source"
)

// benchCheck runs what `tilegym-lint --format json [--op ...] DIR` does
// after flag parsing: load, check, write the JSON report.
func benchCheck(b *testing.B, dir string, ops []string) {
	benchCheckSetup(b, dir, ops, testrepo.BenchSetup(b, dir))
}

func benchCheckSetup(b *testing.B, dir string, ops []string, setup *config.Setup) {
	b.ReportAllocs()
	b.ResetTimer()
	defer testrepo.ReportCPU(b)()
	for i := 0; i < b.N; i++ {
		res, err := CheckSource(&source.DiskSource{Dir: dir}, setup, Options{Ops: ops})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Errors) > 0 {
			b.Fatal(res.Errors[0])
		}
		_ = res.String()
	}
}

// BenchmarkCheck is a whole check of a TileGym tree.
func BenchmarkCheck(b *testing.B) {
	benchCheck(b, realtree.Need(b), nil)
}

// BenchmarkCheckFamilies is a whole check of a TileGym tree
// ($TILEGYM_LINT_BENCH_TREE, else $TILEGYM_LINT_TREE) with every family
// (all), with the workflow family only (TG: what --select TG runs), and
// with each other family alone beside it: what each family costs.
// scripts/bench-families times the same through the command line.
func BenchmarkCheckFamilies(b *testing.B) {
	dir := os.Getenv("TILEGYM_LINT_BENCH_TREE")
	if dir == "" {
		dir = realtree.Need(b)
	}
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		b.Fatal(err)
	}
	for _, sel := range [][]string{nil, {"TG"}, {"K"}, {"A"}, {"M"}, {"TR"}, {"J"}, {"R"}} {
		name := "all"
		if sel != nil {
			name = sel[0]
		}
		b.Run(name, func(b *testing.B) {
			setup, err := config.Open(cat, dir, "", config.Selection{Select: sel})
			if err != nil {
				b.Fatal(err)
			}
			benchCheckSetup(b, dir, nil, setup)
		})
	}
}

// BenchmarkCheckOp is the check of one op (--op softmax) of a TileGym tree.
func BenchmarkCheckOp(b *testing.B) {
	op := os.Getenv("TILEGYM_LINT_BENCH_OP")
	if op == "" {
		op = "softmax"
	}
	benchCheck(b, realtree.Need(b), []string{op})
}

// BenchmarkCheckFixture is a whole check of fixtures/good: it always runs.
func BenchmarkCheckFixture(b *testing.B) {
	benchCheck(b, "../fixtures/good", nil)
}

// BenchmarkCheckFixtureOp checks one op of fixtures/good.
func BenchmarkCheckFixtureOp(b *testing.B) {
	benchCheck(b, "../fixtures/good", []string{"softmax"})
}

// manyOpsTree writes a TileGym-shaped tree with n ops in one ops.py, each
// with its cuTile module, its test and its benchmark.
func manyOpsTree(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	var ops, init strings.Builder
	ops.WriteString("from tilegym.backend import dispatch\n")
	init.WriteString("from tilegym.backend import is_backend_available\n\nif is_backend_available(\"cutile\"):\n")
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("op%05d", i)
		fmt.Fprintf(&ops, "\n\n@dispatch(%q)\ndef %s(x, out=None, **kwargs):\n    raise NotImplementedError\n", name, name)
		fmt.Fprintf(&init, "    from . import %s\n", name)
		testrepo.WriteFile(b, dir, "src/tilegym/ops/cutile/"+name+".py", "from tilegym.backend import register_impl\n\n\n@register_impl(\""+name+"\", backend=\"cutile\")\ndef "+name+"(x, out=None, **kwargs):\n    return x\n")
		testrepo.WriteFile(b, dir, "tests/ops/test_"+name+".py", "import tilegym\n\n\nclass Test_X:\n    def test_op(self):\n        tilegym.ops."+name+"(1)\n")
		testrepo.WriteFile(b, dir, "tests/benchmark/bench_"+name+".py", "import tilegym\n\n\ndef bench_"+name+"(backend):\n    return tilegym.ops."+name+"(1, backend=backend)\n")
	}
	testrepo.WriteFile(b, dir, "src/tilegym/ops/ops.py", ops.String())
	testrepo.WriteFile(b, dir, "src/tilegym/ops/__init__.py", "from .ops import *\n")
	testrepo.WriteFile(b, dir, "src/tilegym/ops/cutile/__init__.py", init.String())
	return dir
}

// BenchmarkOpTableManyOps builds the op table of trees with many ops in
// one dispatch file: matching tests and benchmarks to ops is indexed by
// name, so the time per op stays flat as the ops grow (compare the sizes'
// ns/op divided by n). No timing is asserted.
func BenchmarkOpTableManyOps(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprintf("ops=%d", n), func(b *testing.B) {
			dir := manyOpsTree(b, n)
			setup := testrepo.BenchSetup(b, dir)
			repo, err := load.Load(&source.DiskSource{Dir: dir}, setup)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				repo.Table, repo.Wrappers = nil, nil
				if t := optable.BuildOpTable(repo); len(t.Ops) != n || len(t.Ops[n-1].Tests) != 1 || len(t.Ops[n-1].Benchmarks) != 1 {
					b.Fatalf("op table: %d ops, want %d, each with one test and one benchmark", len(t.Ops), n)
				}
			}
		})
	}
}

// BenchmarkBatchOpTables is what the batches of a whole check spend on the
// op table: for each batch, the loader forgets the previous batch's files
// and closes over the batch's ops (load.Loader.CloseOver builds the op
// table of what is parsed each round), as checkInBatches does, without the
// analyzers. batches=1 is one CloseOver of every op. Compare the
// cpu-ns/op of batches=16 with batches=1: what 16 batches cost over one.
// No timing is asserted.
func BenchmarkBatchOpTables(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		dir := manyOpsTree(b, n)
		setup := testrepo.BenchSetup(b, dir)
		for _, k := range []int{1, 16} {
			b.Run(fmt.Sprintf("ops=%d/batches=%d", n, k), func(b *testing.B) {
				l, err := load.NewLoader(&source.DiskSource{Dir: dir}, setup)
				if err != nil {
					b.Fatal(err)
				}
				if !l.Seed(nil) {
					b.Fatal("a dispatch file does not parse")
				}
				seeds := markSeeds(l)
				var names []string
				for _, op := range l.OpTable().Ops {
					names = append(names, op.Name)
				}
				b.ResetTimer()
				cpu0 := testrepo.CPUTime()
				for i := 0; i < b.N; i++ {
					for j := range k {
						want := map[string]bool{}
						for _, name := range names[j*len(names)/k : (j+1)*len(names)/k] {
							want[name] = true
						}
						l.Forget(seeds)
						if repo := l.CloseOver(want); repo.Table == nil || len(repo.Table.Ops) != n {
							b.Fatalf("batch %d: no op table of %d ops", j, n)
						}
					}
				}
				if cpu := testrepo.CPUTime() - cpu0; cpu > 0 {
					b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
				}
			})
		}
	}
}

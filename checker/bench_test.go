package checker

import (
	"io"
	"os"
	"testing"

	tilegymlint "github.com/tilegym/tilegym-lint"
	"github.com/tilegym/tilegym-lint/rules"
)

// benchTree returns the TileGym tree the benchmarks check:
// $TILEGYM_LINT_BENCH_TREE, default /work/tilegym. The benchmark is skipped
// when it does not exist.
func benchTree(b *testing.B) string {
	b.Helper()
	dir := os.Getenv("TILEGYM_LINT_BENCH_TREE")
	if dir == "" {
		dir = "/work/tilegym"
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		b.Skipf("no TileGym tree at %s (set TILEGYM_LINT_BENCH_TREE)", dir)
	}
	return dir
}

// benchSetup loads the embedded catalog and the tree's configuration (found
// from dir upwards, as the command line does).
func benchSetup(b *testing.B, dir string) (*rules.Catalog, *Config, *Layout) {
	b.Helper()
	cat, err := LoadCatalog(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		b.Fatal(err)
	}
	var cfg *Config
	p, err := FindConfig(dir)
	if err != nil {
		b.Fatal(err)
	}
	if p != "" {
		if cfg, err = LoadConfig(p); err != nil {
			b.Fatal(err)
		}
	}
	return cat, cfg, BuildLayout(cat.Layout, cfg)
}

// benchCheck runs what `tilegym-lint --format json [--op ...] DIR` does
// after flag parsing: load, check, write the JSON report.
func benchCheck(b *testing.B, dir string, ops []string) {
	cat, cfg, layout := benchSetup(b, dir)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() {
		// CPU time (user+system, all threads) is steadier than wall time
		// on a machine shared with other jobs.
		if cpu := cpuTime() - cpu0; cpu > 0 { // not measured everywhere
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		}
	}()
	for i := 0; i < b.N; i++ {
		res, err := CheckSource(&DiskSource{Dir: dir}, layout, cat, cfg, Options{Ops: ops})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Errors) > 0 {
			b.Fatal(res.Errors[0])
		}
		if err := WriteJSON(io.Discard, res, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck is a whole check of a TileGym tree.
func BenchmarkCheck(b *testing.B) {
	benchCheck(b, benchTree(b), nil)
}

// BenchmarkCheckOp is the check of one op (--op softmax) of a TileGym tree.
func BenchmarkCheckOp(b *testing.B) {
	op := os.Getenv("TILEGYM_LINT_BENCH_OP")
	if op == "" {
		op = "softmax"
	}
	benchCheck(b, benchTree(b), []string{op})
}

// BenchmarkCheckFixture is a whole check of fixtures/good: it always runs.
func BenchmarkCheckFixture(b *testing.B) {
	benchCheck(b, "../fixtures/good", nil)
}

// BenchmarkCheckFixtureOp checks one op of fixtures/good.
func BenchmarkCheckFixtureOp(b *testing.B) {
	benchCheck(b, "../fixtures/good", []string{"softmax"})
}

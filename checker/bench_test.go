package checker

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/testrepo"

	"github.com/tilegym/tilegym-lint/load"

	"github.com/tilegym/tilegym-lint/config"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/optable"

	"github.com/tilegym/tilegym-lint/source"

	"github.com/tilegym/tilegym-lint/layout"

	tilegymlint "github.com/tilegym/tilegym-lint"
	"github.com/tilegym/tilegym-lint/rules"
)

// benchSetup loads the embedded catalog and the tree's configuration (found
// from dir upwards, as the command line does).
func benchSetup(b *testing.B, dir string) (*rules.Catalog, *config.Config, *layout.Layout) {
	b.Helper()
	cat, err := checks.LoadCatalog(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		b.Fatal(err)
	}
	var cfg *config.Config
	p, err := config.Find(dir)
	if err != nil {
		b.Fatal(err)
	}
	if p != "" {
		if cfg, err = config.Load(p); err != nil {
			b.Fatal(err)
		}
	}
	return cat, cfg, config.BuildLayout(&cat.Layout, cfg)
}

// benchCheck runs what `tilegym-lint --format json [--op ...] DIR` does
// after flag parsing: load, check, write the JSON report.
func benchCheck(b *testing.B, dir string, ops []string) {
	cat, cfg, lay := benchSetup(b, dir)
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
		res, err := CheckSource(&source.DiskSource{Dir: dir}, lay, cat, cfg, Options{Ops: ops})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Errors) > 0 {
			b.Fatal(res.Errors[0])
		}
		_ = dump(res, false)
	}
}

// BenchmarkCheck is a whole check of a TileGym tree.
func BenchmarkCheck(b *testing.B) {
	benchCheck(b, testrepo.BenchTree(b), nil)
}

// BenchmarkCheckOp is the check of one op (--op softmax) of a TileGym tree.
func BenchmarkCheckOp(b *testing.B) {
	op := os.Getenv("TILEGYM_LINT_BENCH_OP")
	if op == "" {
		op = "softmax"
	}
	benchCheck(b, testrepo.BenchTree(b), []string{op})
}

// BenchmarkCheckFixture is a whole check of fixtures/good: it always runs.
func BenchmarkCheckFixture(b *testing.B) {
	benchCheck(b, "../fixtures/good", nil)
}

// BenchmarkCheckFixtureOp checks one op of fixtures/good.
func BenchmarkCheckFixtureOp(b *testing.B) {
	benchCheck(b, "../fixtures/good", []string{"softmax"})
}

// benchChange runs what `tilegym-lint --format json --diff HEAD` does after
// flag parsing, on a git repository made of a copy of src committed, then
// edited by edit in the working tree.
func benchChange(b *testing.B, src string, edit func(dir string)) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	dir := b.TempDir()
	testrepo.CopyDir(b, src, dir)
	testrepo.GitRun(b, dir, "init", "-q")
	testrepo.GitRun(b, dir, "add", ".")
	testrepo.GitRun(b, dir, "commit", "-qm", "base")
	edit(dir)
	// Refresh the index's stat data (else every file written in the same
	// second as the index is hashed again by each git diff).
	testrepo.GitRun(b, dir, "status", "--porcelain")
	cat, cfg, lay := benchSetup(b, dir)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() {
		if cpu := cpuTime() - cpu0; cpu > 0 {
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		}
	}()
	for i := 0; i < b.N; i++ {
		res, err := CheckGitChange(dir, "HEAD", false, cat, cfg, lay, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Errors) > 0 {
			b.Fatal(res.Errors[0])
		}
		_ = dump(res, true)
	}
}

// editOpModule edits softmax's cuTile module and test: change mode checks
// that op alone.
func editOpModule(b *testing.B, dir string) {
	testrepo.AppendFile(b, dir, "src/tilegym/ops/cutile/softmax.py", "\n# edit\n")
	testrepo.AppendFile(b, dir, "tests/ops/test_softmax.py", "\n# edit\n")
}

// editShared edits the files every op shares (the dispatch file and the
// cuTile __init__) with a comment: no op is concerned.
func editShared(b *testing.B, dir string) {
	testrepo.AppendFile(b, dir, "src/tilegym/ops/ops.py", "\n# edit\n")
	testrepo.AppendFile(b, dir, "src/tilegym/ops/cutile/__init__.py", "\n# edit\n")
}

// editAddOp adds an op to a TileGym tree as a pull request does: a copy of
// softmax named softmax2 (stub, cuTile module and its import, test,
// benchmark).
func editAddOp(b *testing.B, dir string) {
	testrepo.CloneOp(b, dir, "src/tilegym/ops/ops.py", "softmax", "softmax2",
		"src/tilegym/ops/cutile/softmax.py", "tests/ops/test_softmax.py", "tests/benchmark/bench_softmax.py")
	testrepo.ReplaceInFile(b, dir, "src/tilegym/ops/cutile/__init__.py", "    from . import softmax\n", "    from . import softmax\n    from . import softmax2\n")
}

// BenchmarkCheckChangeFixture: change mode on fixtures/good with one op's
// module and test edited. It always runs (with git).
func BenchmarkCheckChangeFixture(b *testing.B) {
	benchChange(b, "../fixtures/good", func(dir string) { editOpModule(b, dir) })
}

// BenchmarkCheckChangeFixtureShared: change mode on fixtures/good with the
// shared files edited.
func BenchmarkCheckChangeFixtureShared(b *testing.B) {
	benchChange(b, "../fixtures/good", func(dir string) { editShared(b, dir) })
}

// BenchmarkCheckChange: change mode on a copy of a TileGym tree with
// softmax's module and test edited.
func BenchmarkCheckChange(b *testing.B) {
	benchChange(b, testrepo.BenchTree(b), func(dir string) { editOpModule(b, dir) })
}

// BenchmarkCheckChangeShared: change mode on a copy of a TileGym tree with
// ops.py and the cuTile __init__ edited (a comment each).
func BenchmarkCheckChangeShared(b *testing.B) {
	benchChange(b, testrepo.BenchTree(b), func(dir string) { editShared(b, dir) })
}

// BenchmarkCheckChangeAddOp: change mode on a copy of a TileGym tree with
// an op added (see editAddOp).
func BenchmarkCheckChangeAddOp(b *testing.B) {
	benchChange(b, testrepo.BenchTree(b), func(dir string) { editAddOp(b, dir) })
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
			cat, cfg, lay := benchSetup(b, dir)
			_ = cat
			repo, err := load.Load(&source.DiskSource{Dir: dir}, lay, cfg)
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

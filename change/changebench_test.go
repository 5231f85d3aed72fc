package change

import (
	"testing"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// benchChange runs what `tilegym-lint --format json --diff HEAD` does after
// flag parsing, on a git repository made of a copy of src committed, then
// edited by edit in the working tree.
func benchChange(b *testing.B, src string, edit func(dir string)) {
	dir := testrepo.GitRepo(b, src, nil)
	edit(dir)
	// Refresh the index's stat data (else every file written in the same
	// second as the index is hashed again by each git diff).
	testrepo.GitRun(b, dir, "status", "--porcelain")
	setup := testrepo.BenchSetup(b, dir)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := testrepo.CPUTime()
	defer func() {
		if cpu := testrepo.CPUTime() - cpu0; cpu > 0 {
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		}
	}()
	for i := 0; i < b.N; i++ {
		res, err := CheckGit(dir, "HEAD", false, setup, checker.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Errors) > 0 {
			b.Fatal(res.Errors[0])
		}
		_ = res.String()
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
	benchChange(b, realtree.Need(b), func(dir string) { editOpModule(b, dir) })
}

// BenchmarkCheckChangeShared: change mode on a copy of a TileGym tree with
// ops.py and the cuTile __init__ edited (a comment each).
func BenchmarkCheckChangeShared(b *testing.B) {
	benchChange(b, realtree.Need(b), func(dir string) { editShared(b, dir) })
}

// BenchmarkCheckChangeAddOp: change mode on a copy of a TileGym tree with
// an op added (see editAddOp).
func BenchmarkCheckChangeAddOp(b *testing.B) {
	benchChange(b, realtree.Need(b), func(dir string) { editAddOp(b, dir) })
}

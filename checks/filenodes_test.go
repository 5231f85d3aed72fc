package checks_test

import (
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/internal/corpus"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/source"
)

// BenchmarkFileNodes builds the shared walk of every parsed Python file
// of a TileGym tree ($TILEGYM_LINT_TREE), as a check with every family
// does once per file.
func BenchmarkFileNodes(b *testing.B) {
	repo, _ := corpus.Load(b, realtree.Need(b))
	var files []*source.File
	for _, p := range repo.Paths {
		if f := repo.Files[p]; f.AST != nil && f.AST.Module != nil {
			files = append(files, f)
			f.Imports()
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer testrepo.ReportCPU(b)()
	n := 0
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			n += checks.BuildFileNodes(f)
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "nodes/op")
}

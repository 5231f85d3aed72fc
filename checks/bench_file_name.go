package checks

import (
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// BenchFileNameAnalyzer implements kind "bench-file-name".
var BenchFileNameAnalyzer = opKind(&Analyzer{
	Doc: `Reports an op none of whose benchmark files is named after it.

As test-file-name, over the op's benchmark files
(tests/benchmark/bench_softmax.py); see checkFileNames.`,
	Name:         "bench-file-name",
	Placeholders: []string{"op", "file", "actual", "expected", "func"},
}, func(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *fileNameParams) {
	checkFileNames(pass, tab, rule, p.Names, func(op *optable.Op) []*source.File { return op.Benchmarks })
})

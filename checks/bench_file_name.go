package checks

import (
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

var BenchFileNameAnalyzer = opKind(&Analyzer{
	Doc: `Checks that a benchmark file of the op is named after it (X.1).

Like test-file-name, for the op's benchmark files
(tests/benchmark/bench_softmax.py).`,
	Name:         "bench-file-name",
	Placeholders: []string{"op", "file", "actual", "expected", "func"},
}, func(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *fileNameParams) {
	checkFileNames(pass, tab, rule, p.Names, func(op *optable.Op) []*source.File { return op.Benchmarks })
})

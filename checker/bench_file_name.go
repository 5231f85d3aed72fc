package checker

import "github.com/tilegym/tilegym-lint/rules"

// BenchFileNameAnalyzer implements kind "bench-file-name" (X.1).
var BenchFileNameAnalyzer = opRuleKind(&Analyzer{
	Name:         "bench-file-name",
	Placeholders: []string{"op", "file", "actual", "expected", "func"},
	Doc: `Checks that a benchmark file of the op is named after it (X.1).

At least one benchmark file of the op has a name built from one of the "names"
templates (see file_names.go).`,
}, func(pass *Pass, tab *OpTable, rule *rules.Rule, p *fileNameParams) {
	checkFileNames(pass, tab, rule, p.Names, func(op *Op) []*File { return op.Benchmarks })
})

func init() { Register(BenchFileNameAnalyzer) }

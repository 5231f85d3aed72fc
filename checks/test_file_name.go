package checks

import (
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// TestFileNameAnalyzer implements kind "test-file-name".
var TestFileNameAnalyzer = opKind(&Analyzer{
	Doc: `Reports an op none of whose test files is named after it.

At least one test file of the op (tests/ops/test_softmax.py for softmax)
has a name built from one of the "names" templates (see checkFileNames in
file_names.go); a file that only calls the op, as a baseline, is not asked
to.`,
	Name:         "test-file-name",
	Placeholders: []string{"op", "file", "actual", "expected", "func"},
}, func(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *fileNameParams) {
	checkFileNames(pass, tab, rule, p.Names, func(op *optable.Op) []*source.File { return op.Tests })
})

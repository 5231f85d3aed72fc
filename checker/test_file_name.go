package checker

import "github.com/tilegym/tilegym-lint/rules"

// TestFileNameAnalyzer implements kind "test-file-name" (X.1).
var TestFileNameAnalyzer = opRuleKind(&Analyzer{
	Name:         "test-file-name",
	Placeholders: []string{"op", "file", "actual", "expected", "func"},
	Doc: `Checks that a test file of the op is named after it (X.1).

At least one test file of the op has a name built from one of the "names"
templates (see file_names.go).`,
}, func(pass *Pass, tab *OpTable, rule *rules.Rule, p *fileNameParams) {
	checkFileNames(pass, tab, rule, p.Names, func(op *Op) []*File { return op.Tests })
})

func init() { Register(TestFileNameAnalyzer) }

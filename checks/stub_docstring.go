package checks

import (
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

// StubDocstringAnalyzer implements kind "stub-docstring".
var StubDocstringAnalyzer = opKind(&Analyzer{
	Doc: `Reports a @dispatch stub without a docstring.

The first statement of each stub's body must be a string; else the finding
is on the def.`,
	Name:         "stub-docstring",
	Placeholders: []string{"op", "file", "func"},
}, runStubDocstring)

func runStubDocstring(pass *Pass, tab *optable.OpTable, rule *rules.Rule, _ *noParams) {
	for _, op := range stubbedOps(pass, tab) {
		if fd := op.Stub.Def; astutil.Docstring(fd.Body) == nil {
			reportAt(pass, rule, op.Name, op.Stub.File, defNode(fd), map[string]string{"func": fd.Name}, nil, nil)
		}
	}
}

package checks

import (
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

var StubDocstringAnalyzer = opKind(&Analyzer{
	Doc:          `Checks that every @dispatch stub has a docstring (S1.5).`,
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

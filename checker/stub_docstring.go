package checker

import "github.com/tilegym/tilegym-lint/rules"

// StubDocstringAnalyzer implements kind "stub-docstring" (S1.5).
var StubDocstringAnalyzer = opRuleKind(&Analyzer{
	Name:         "stub-docstring",
	Placeholders: []string{"op", "file", "func"},
	Doc:          `Checks that every @dispatch stub has a docstring (S1.5).`,
}, runStubDocstring)

func init() { Register(StubDocstringAnalyzer) }

func runStubDocstring(pass *Pass, tab *OpTable, rule *rules.Rule, _ *noParams) {
	for _, op := range stubbedOps(pass, tab) {
		if fd := op.Stub.Def; Docstring(fd.Body) == nil {
			reportAt(pass, rule, op.Name, op.Stub.File, defNode(fd), map[string]string{"func": fd.Name}, nil, nil)
		}
	}
}

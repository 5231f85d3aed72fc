package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

var StubNameAnalyzer = registerOpKind(&Analyzer{
	Doc: `Checks that a @dispatch stub's function is named after its dispatch name (S1.1).

The function name is the last dotted part of the dispatch name, and in a
scope with a namespace the dispatch name starts with it.`,
	Name:         "stub-name",
	Placeholders: []string{"op", "file", "expected", "func", "problem"},
}, runStubName)

func runStubName(pass *Pass, tab *optable.OpTable, rule *rules.Rule, _ *noParams) {
	for _, op := range stubbedOps(pass, tab) {
		st, fd := op.Stub, op.Stub.Def
		want := op.Func
		ns := ""
		if op.Scope != nil && op.Scope.Namespace != "" {
			ns = layout.ExpandSuite(op.Scope.Namespace, op.Suite)
		}
		if ns != "" && !strings.HasPrefix(op.Name, ns+".") {
			reportAt(pass, rule, op.Name, st.File, st.NameArg, map[string]string{
				"problem":  "the dispatch name must start with the namespace \"" + ns + ".\"",
				"expected": ns + "." + fd.Name, "func": fd.Name,
			}, nil, nil)
		} else if fd.Name != want {
			reportAt(pass, rule, op.Name, st.File, st.NameArg, map[string]string{
				"problem":  "the function is named \"" + fd.Name + "\" but the dispatch name ends in \"" + want + "\"",
				"expected": strings.TrimSuffix(op.Name, want) + fd.Name, "func": fd.Name,
			}, nil, nil)
		}
	}
}

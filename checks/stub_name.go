package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// StubNameAnalyzer implements kind "stub-name".
var StubNameAnalyzer = opKind(&Analyzer{
	Doc: `Reports a @dispatch stub whose function name does not match its dispatch name.

The function name must be the last dotted part of the dispatch name, and
in a scope with a namespace (liger.) the dispatch name must start with it.
The finding is on the dispatch name; the text "namespace" or "misnamed"
says which, {expected} the dispatch name that would match.`,
	Name:         "stub-name",
	Placeholders: []string{"op", "file", "expected", "func", "namespace", "last", "problem"},
	Texts:        []string{"namespace", "misnamed"},
}, runStubName)

func runStubName(pass *Pass, tab *optable.OpTable, rule *rules.Rule, _ *noParams) {
	for _, op := range stubbedOps(pass, tab) {
		st, fd := op.Stub, op.Stub.Def
		want := op.Func
		ns := ""
		if op.Scope != nil && op.Scope.Namespace != "" {
			ns = layout.ExpandSuite(op.Scope.Namespace, op.Suite)
		}
		vars := map[string]string{"func": fd.Name, "namespace": ns, "last": want}
		switch {
		case ns != "" && !strings.HasPrefix(op.Name, ns+"."):
			vars["expected"] = ns + "." + fd.Name
			vars["problem"] = analysis.RenderText(rule, "namespace", op.Name, vars)
		case fd.Name != want:
			vars["expected"] = strings.TrimSuffix(op.Name, want) + fd.Name
			vars["problem"] = analysis.RenderText(rule, "misnamed", op.Name, vars)
		default:
			continue
		}
		reportAt(pass, rule, op.Name, st.File, st.NameArg, vars, nil, nil)
	}
}

package checks

import (
	"strconv"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// StubUniqueAnalyzer implements kind "stub-unique".
var StubUniqueAnalyzer = opKind(&Analyzer{
	Doc: `Reports every further @dispatch stub of a dispatch name.

The op table keeps every stub declaring a name, the first as the op's;
each further one is reported at its dispatch name, with the first as a
related position.`,
	Name:         "stub-unique",
	Placeholders: []string{"op", "file", "first"},
	Texts:        []string{"related-first"},
}, runStubUnique)

func runStubUnique(pass *Pass, tab *optable.OpTable, rule *rules.Rule, _ *noParams) {
	for _, op := range stubbedOps(pass, tab) {
		st := op.Stub
		for _, other := range op.Stubs[1:] {
			vars := map[string]string{"first": st.File.Path + ":" + strconv.Itoa(st.Def.Pos().Line)}
			reportAt(pass, rule, op.Name, other.File, other.NameArg, vars,
				[]analysis.Related{{File: st.File.Path, Pos: st.NameArg.Pos(), End: st.NameArg.End(), Message: analysis.RenderText(rule, "related-first", op.Name, vars)}}, nil)
		}
	}
}

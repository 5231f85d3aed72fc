package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// StubKwargsAnalyzer implements kind "stub-kwargs".
var StubKwargsAnalyzer = opKind(&Analyzer{
	Doc: `Reports a @dispatch stub without a ** parameter.

A stub with no ** parameter is reported at its def, with a fix adding one
("kwarg_name", default kwargs). With "kwarg_name" set, a ** parameter of
another name is reported at it.`,
	Name:         "stub-kwargs",
	Placeholders: []string{"op", "file", "func", "kwarg"},
	Texts:        []string{"fix"},
}, runStubKwargs)

type stubKwargsParams struct {
	KwargName string `toml:"kwarg_name"`
}

func runStubKwargs(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *stubKwargsParams) {
	for _, op := range stubbedOps(pass, tab) {
		st, fd := op.Stub, op.Stub.Def
		kw := fd.Args.Kwarg
		vars := map[string]string{"func": fd.Name, "kwarg": kwargLabel(p.KwargName)}
		if kw == nil {
			reportAt(pass, rule, op.Name, st.File, defNode(fd), vars, nil, ruleFix(rule, "fix", op.Name, vars, kwargsEdits(st.File, fd, strings.TrimPrefix(kwargLabel(p.KwargName), "**"))))
		} else if p.KwargName != "" && kw.Arg != p.KwargName {
			reportAt(pass, rule, op.Name, st.File, kw, vars, nil, nil)
		}
	}
}

func kwargLabel(name string) string {
	if name == "" {
		return "**kwargs"
	}
	return "**" + name
}

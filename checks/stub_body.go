package checks

import (
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

// StubBodyAnalyzer implements kind "stub-body".
var StubBodyAnalyzer = opKind(&Analyzer{
	Doc: `Reports a @dispatch stub whose body does more than raise an exception.

The body of each stub, after an optional docstring, must be raise
<exception>(...) or a bare raise <exception> ("exception": compared with
the last dotted part of the raised name). The first other statement is
reported, or the def when nothing is left.`,
	Name:         "stub-body",
	Placeholders: []string{"op", "file", "exception"},
}, runStubBody)

type stubBodyParams struct {
	Exception string `toml:"exception"`
}

func (p *stubBodyParams) Validate() error { return needValue("exception", p.Exception) }

func runStubBody(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *stubBodyParams) {
	for _, op := range stubbedOps(pass, tab) {
		if bad := stubBodyProblem(op.Stub.Def, p.Exception); bad != nil {
			reportAt(pass, rule, op.Name, op.Stub.File, bad, map[string]string{"exception": p.Exception}, nil, nil)
		}
	}
}

// stubBodyProblem returns the first statement of a stub's body that is not
// an optional leading docstring followed by `raise <exception>(...)` or a
// bare `raise <exception>`; nil when the body is fine. An empty remainder
// reports the def.
func stubBodyProblem(fd *ast.FunctionDef, exception string) ast.Node {
	body := fd.Body
	if astutil.Docstring(body) != nil {
		body = body[1:]
	}
	if len(body) == 0 {
		return defNode(fd)
	}
	for _, s := range body {
		r, ok := s.(*ast.Raise)
		if !ok || r.Exc == nil {
			return s
		}
		exc := r.Exc
		if c, ok := exc.(*ast.Call); ok {
			exc = c.Func
		}
		if astutil.DottedTail(astutil.DottedName(exc)) != exception {
			return s
		}
	}
	if len(body) > 1 {
		return body[1]
	}
	return nil
}

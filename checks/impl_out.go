package checks

import (
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

// ImplOutAnalyzer implements kind "impl-out".
var ImplOutAnalyzer = opKind(&Analyzer{
	Doc: `Reports a registered cuTile function that does not fill and return its out parameter.

When the registered function has the parameter "param", it assigns it under
"if <param> is None:" and returns it, or it passes it to a module-level
function of its module that does so and returns that function's result.`,
	Name:         "impl-out",
	Placeholders: []string{"op", "file", "func", "param", "problem"},
	Texts:        []string{"neither", "no-allocation", "no-return"},
}, runImplOut)

type implOutParams struct {
	Param string `toml:"param"` // the out parameter: "out"
}

func (p *implOutParams) Validate() error { return needValue("param", p.Param) }

func runImplOut(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *implOutParams) {
	for _, m := range wantedModules(pass, tab) {
		for _, impl := range m.impls {
			if impl.Def == nil {
				continue
			}
			if text, n := outProblem(impl.Def, p.Param); text != "" && !delegatesOut(m.file.AST, m.file.Imports(), impl.Def, p.Param) {
				vars := map[string]string{"param": p.Param, "func": impl.Def.Name}
				vars["problem"] = analysis.RenderText(rule, text, impl.Op, vars)
				reportAt(pass, rule, impl.Op, m.file, n, vars, nil, nil)
			}
		}
	}
}

// outProblem checks S2.7 for a registered function with an out parameter:
// the text ([rule.texts]) naming what it misses, "" for nothing, and the
// parameter to anchor on.
func outProblem(fd *ast.FunctionDef, param string) (string, ast.Node) {
	var outArg *ast.Arg
	for _, prm := range astutil.Params(fd.Args) {
		if prm.Name == param && prm.Kind != astutil.VarKeyword && prm.Kind != astutil.VarPositional {
			outArg = prm.Arg
		}
	}
	if outArg == nil {
		return "", nil
	}
	// The None branch: the body of `if out is None:`, the else of `if out is
	// not None:`; an assignment there allocates (to out or to another name,
	// e.g. `output = torch.empty(...)`, which then is the result).
	allocates, returns := false, false
	results := map[string]bool{param: true}
	assigned := func(body []ast.Stmt) {
		for _, s := range body {
			ast.Inspect(s, func(x ast.Node) bool {
				if a, ok := x.(*ast.Assign); ok {
					allocates = true
					for _, t := range a.Targets {
						if nm, ok := t.(*ast.Name); ok {
							results[nm.Id] = true
						}
					}
				}
				return true
			})
		}
	}
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.If:
			if noneTest(n.Test, param, ast.Is, ast.Eq) {
				assigned(n.Body)
			} else if noneTest(n.Test, param, ast.IsNot, ast.NotEq) {
				assigned(n.Orelse)
			}
		case *ast.Assign:
			// out = out if out is not None else torch.empty_like(x)
			if ie, ok := n.Value.(*ast.IfExp); ok && noneTest(ie.Test, param, ast.Is, ast.Eq, ast.IsNot, ast.NotEq) {
				allocates = true
				for _, t := range n.Targets {
					if nm, ok := t.(*ast.Name); ok {
						results[nm.Id] = true
					}
				}
			}
		case *ast.FunctionDef:
			return n == fd // nested functions have their own returns
		}
		return true
	})
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Return:
			if n.Value != nil {
				ast.Inspect(n.Value, func(x ast.Node) bool {
					if nm, ok := x.(*ast.Name); ok && results[nm.Id] {
						returns = true
					}
					return true
				})
			}
		case *ast.FunctionDef:
			return n == fd
		}
		return true
	})
	switch {
	case !allocates && !returns:
		return "neither", outArg
	case !allocates:
		return "no-allocation", outArg
	case !returns:
		return "no-return", outArg
	}
	return "", nil
}

// noneTest reports whether e compares the name with None by one of ops
// ("out is None", "out == None" for ast.Is, ast.Eq).
func noneTest(e ast.Expr, name string, ops ...ast.CmpOperator) bool {
	c, ok := e.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || len(c.Comparators) != 1 {
		return false
	}
	nm, ok := c.Left.(*ast.Name)
	return ok && nm.Id == name && slices.Contains(ops, c.Ops[0]) && astutil.IsNoneExpr(c.Comparators[0])
}

// delegatesOut reports whether fd hands its out parameter to a module-level
// function of the same file that fills it (outProblem finds nothing there)
// and returns that call's result, `return _launch(x, out, 1)`, or to a torch
// function as its out= keyword, which allocates when it is None and returns
// the result: `return torch.clamp(x, lo, hi, out=out)`.
func delegatesOut(f *ast.File, im *astutil.Imports, fd *ast.FunctionDef, param string) bool {
	if f == nil {
		return false
	}
	funcs := astutil.TopLevelFuncs(f)
	ok := false
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Return:
			c, isCall := n.Value.(*ast.Call)
			if !isCall {
				return true
			}
			if torchOut(im, c, param) {
				ok = true
				return false
			}
			name, isName := c.Func.(*ast.Name)
			if !isName || funcs[name.Id] == nil || funcs[name.Id] == fd {
				return true
			}
			helper := funcs[name.Id]
			if hp := boundParam(c, helper, param); hp != "" {
				if prob, _ := outProblem(helper, hp); prob == "" {
					ok = true
				}
			}
		case *ast.FunctionDef:
			return n == fd
		}
		return !ok
	})
	return ok
}

// torchOut reports whether c calls a function of torch with param as its
// out= keyword.
func torchOut(im *astutil.Imports, c *ast.Call, param string) bool {
	if im == nil {
		return false
	}
	fn, ok := im.Resolve(c.Func)
	if !ok || !strings.HasPrefix(fn, "torch.") {
		return false
	}
	for _, k := range c.Keywords {
		if k != nil && k.Arg != nil && *k.Arg == "out" {
			nm, isName := k.Value.(*ast.Name)
			return isName && nm.Id == param
		}
	}
	return false
}

// boundParam returns the parameter of def that call c passes the name arg
// to (positionally or by keyword), or "".
func boundParam(c *ast.Call, def *ast.FunctionDef, arg string) string {
	isArg := func(e ast.Expr) bool {
		nm, ok := e.(*ast.Name)
		return ok && nm.Id == arg
	}
	for _, k := range c.Keywords {
		if k != nil && k.Arg != nil && isArg(k.Value) {
			return *k.Arg
		}
	}
	params := astutil.Params(def.Args)
	for i, a := range c.Args {
		if isArg(a) && i < len(params) && params[i].Kind != astutil.VarPositional && params[i].Kind != astutil.VarKeyword && params[i].Kind != astutil.KeywordOnly {
			return params[i].Name
		}
	}
	return ""
}

package checks

import (
	"errors"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// MainGuardAnalyzer implements kind "main-guard".
var MainGuardAnalyzer = &Analyzer{
	Name:         "main-guard",
	Placeholders: []string{"op", "file", "call", "func", "keyword", "method", "receiver", "name", "decorator", "value", "problem", "run_call"},
	Texts:        []string{"script", "no-benchmark", "no-keyword", "keyword-value", "fix-wrap", "fix-append"},
	Doc: `Reports a benchmark that is not run under an if __name__ == "__main__": guard.

The file must run its benchmark as a script only: a module-level
if __name__ == "__main__": block calling <bench>.<method>(<keyword>=True)
(bench_<op>.run(print_data=True)). A run call outside the guard is
reported where it is; a missing run, at the top of the file. A run call
under the guard that is wrong in itself (print_data=False, made on a name
that is no benchmark) is reported where it is, saying what is wrong. The
benchmark may be built by a factory: make_bench(configs).run(print_data=True).
A run call outside the guard gets a fix putting it under one (text
"fix-wrap"); a missing run, when the file defines bench_<op>, a fix
appending the guard with the call {run_call} (text "fix-append").`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(mainGuardParams) },
	Run:      runMainGuard,
}

type mainGuardParams struct {
	Method  string `toml:"method"`  // "run"
	Keyword string `toml:"keyword"` // "print_data", passed True
	// Decorator names the benchmark decorator: when set, the run call must
	// be made on a benchmark (a decorated function, a factory returning
	// one, or a name bound to either).
	Decorator []string `toml:"decorator"`
}

func runMainGuard(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*mainGuardParams)
		if p == nil || p.Method == "" {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 5, rule) {
			x := sf.Index
			benches := x.benchmarkNames(p.Decorator)
			vars := map[string]string{"func": sf.Primary.Func, "method": p.Method, "keyword": p.Keyword,
				"receiver": "", "name": "", "decorator": "", "value": "", "run_call": ""}
			vars["problem"] = analysis.RenderText(rule, "script", sf.Primary.Name, vars)
			guarded, unguarded := false, false
			// A run call under the guard that is wrong in its own way: its
			// finding says what is wrong, not that the guard is missing.
			var wrong *ast.Call
			var wrongFault runCallFault
			for _, s := range x.Body() {
				if ifs, ok := s.(*ast.If); ok && isMainGuard(ifs.Test) {
					for _, b := range ifs.Body {
						for _, c := range x.File.CallsIn(b) {
							switch f, isRun := x.runCallProblem(c, p, benches); {
							case !isRun:
							case f.text == "":
								guarded = true
							case wrong == nil:
								wrong, wrongFault = c, f
							}
						}
					}
					continue
				}
				es, ok := s.(*ast.ExprStmt)
				if !ok {
					continue
				}
				if c, ok := es.Value.(*ast.Call); ok && x.isRunCall(c, p, benches) {
					unguarded = true
					vars["call"] = astutil.DottedName(c.Func)
					reportAt(pass, rule, sf.Primary.Name, sf.File, c, vars, nil, ruleFix(rule, "fix-wrap", sf.Primary.Name, vars, mainGuardWrapEdits(sf.File, s)))
				}
			}
			if guarded || unguarded {
				continue
			}
			vars["call"] = "bench_" + sf.Primary.Func + "." + p.Method
			if wrong != nil {
				if at, ok := wrong.Func.(*ast.Attribute); ok && benches[runTarget(at.Value)] {
					vars["call"] = astutil.ExprString(at.Value) + "." + p.Method
				}
				for k, v := range wrongFault.vars {
					vars[k] = v
				}
				vars["problem"] = analysis.RenderText(rule, wrongFault.text, sf.Primary.Name, vars)
				reportAt(pass, rule, sf.Primary.Name, sf.File, wrong, vars, nil, nil)
				continue
			}
			var edits []analysis.TextEdit
			if x.Funcs["bench_"+sf.Primary.Func] != nil {
				call := vars["call"] + "()"
				if p.Keyword != "" {
					call = vars["call"] + "(" + p.Keyword + "=True)"
				}
				vars["run_call"] = call
				edits = mainGuardAppendEdits(sf.File, call)
			}
			reportAt(pass, rule, sf.Primary.Name, sf.File, x.anchorStmt(), vars, nil, ruleFix(rule, "fix-append", sf.Primary.Name, vars, edits))
		}
	}
	return nil, nil
}

// isRunCall reports whether c is `<bench>.<method>(..., <keyword>=True)`.
func (x *pyIndex) isRunCall(c *ast.Call, p *mainGuardParams, benches map[string]bool) bool {
	f, isRun := x.runCallProblem(c, p, benches)
	return isRun && f.text == ""
}

// A runCallFault is what is wrong with a run call: the rule's text
// ([rule.texts]) that says it, "" for nothing, and the placeholders the
// text uses beside the rule's params.
type runCallFault struct {
	text string
	vars map[string]string
}

// runCallProblem says whether c is a run call, `<x>.<method>(...)`, and
// what is wrong with it: nothing when it is
// `<bench>.<method>(..., <keyword>=True)`. bench is a name, or a call of a
// factory returning the benchmark (make_bench(configs).run(...)); with
// decorator names set, it must be a benchmark (benches).
func (x *pyIndex) runCallProblem(c *ast.Call, p *mainGuardParams, benches map[string]bool) (runCallFault, bool) {
	at, ok := c.Func.(*ast.Attribute)
	if !ok || at.Attr != p.Method {
		return runCallFault{}, false
	}
	target := runTarget(at.Value)
	if target == "" {
		return runCallFault{}, false
	}
	vars := map[string]string{"receiver": astutil.ExprString(at.Value), "name": target}
	// A module function that lacks the decorator is the decorator rule's
	// finding, not this one's.
	if len(p.Decorator) > 0 && !benches[target] && x.Funcs[target] == nil {
		vars["decorator"] = firstOr(p.Decorator, "")
		return runCallFault{"no-benchmark", vars}, true
	}
	if p.Keyword == "" {
		return runCallFault{}, true
	}
	v, ok := astutil.CallArg(c, -1, p.Keyword).(*ast.Constant)
	if ok && v.Value == true {
		return runCallFault{}, true
	}
	if arg := astutil.CallArg(c, -1, p.Keyword); arg != nil {
		vars["value"] = astutil.ExprString(arg)
		return runCallFault{"keyword-value", vars}, true
	}
	return runCallFault{"no-keyword", vars}, true
}

// runTarget returns the name a run call is made on: `bench_x` for
// bench_x.run(...), `make_bench` for make_bench(configs).run(...); "" for
// anything else.
func runTarget(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Name:
		return e.Id
	case *ast.Call:
		if nm, ok := e.Func.(*ast.Name); ok {
			return nm.Id
		}
	}
	return ""
}

// benchmarkNames returns the names that denote a benchmark: module-level
// functions decorated with one of decorator, factories returning one,
// imported names, and names assigned from those (bench = make_bench(configs)).
func (x *pyIndex) benchmarkNames(decorator []string) map[string]bool {
	out := map[string]bool{}
	if len(decorator) == 0 {
		return out
	}
	for name, fd := range x.Funcs {
		if _, _, ok := x.Imports.Decorator(fd.DecoratorList, decorator); ok {
			out[name] = true
		}
	}
	for _, fb := range x.factoryBenches(decorator) {
		out[fb.Factory.Name] = true
	}
	// Imported names may be benchmarks of a sibling module; not judged.
	for local := range x.Imports.Local {
		out[local] = true
	}
	for _, s := range x.Body() {
		ast.Inspect(s, func(n ast.Node) bool {
			a, ok := n.(*ast.Assign)
			if !ok || len(a.Targets) != 1 {
				return true
			}
			t, ok := a.Targets[0].(*ast.Name)
			if !ok {
				return true
			}
			switch v := a.Value.(type) {
			case *ast.Name:
				if out[v.Id] {
					out[t.Id] = true
				}
			case *ast.Call:
				// make_bench(configs), perf_report(configs)(fn)
				if nm, ok := v.Func.(*ast.Name); ok && out[nm.Id] {
					out[t.Id] = true
				}
				if inner, ok := v.Func.(*ast.Call); ok && x.Imports.Is(inner.Func, decorator) {
					out[t.Id] = true
				}
			}
			return true
		})
	}
	return out
}

// isMainGuard reports whether e is `__name__ == "__main__"` (either order).
func isMainGuard(e ast.Expr) bool {
	cmp, ok := e.(*ast.Compare)
	if !ok || len(cmp.Ops) != 1 || cmp.Ops[0] != ast.Eq || len(cmp.Comparators) != 1 {
		return false
	}
	l, r := cmp.Left, cmp.Comparators[0]
	isName := func(e ast.Expr) bool { n, ok := e.(*ast.Name); return ok && n.Id == "__name__" }
	isMain := func(e ast.Expr) bool { s, ok := astutil.StringValue(e); return ok && s == "__main__" }
	return isName(l) && isMain(r) || isName(r) && isMain(l)
}

func (p *mainGuardParams) Validate() error {
	if p.Method == "" {
		return errors.New("method: want the run method's name")
	}
	return nil
}

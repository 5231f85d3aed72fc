package checker

import (
	"errors"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// MainGuardAnalyzer implements kind "main-guard".
var MainGuardAnalyzer = &Analyzer{
	Name:         "main-guard",
	Placeholders: []string{"op", "file", "call", "func", "keyword", "method"},
	Doc: `Reports a benchmark that is not run under an if __name__ == "__main__": guard.

The file must run its benchmark as a script only: a module-level
if __name__ == "__main__": block calling <bench>.<method>(<keyword>=True)
(bench_<op>.run(print_data=True)). A run call outside the guard (which runs
the benchmark whenever the file is imported, e.g. by pytest collection) is
reported where it is; a missing run, at the top of the file.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(mainGuardParams) },
	Run:      runMainGuard,
}

type mainGuardParams struct {
	Method  string `toml:"method"`  // "run"
	Keyword string `toml:"keyword"` // "print_data", passed True
}

func init() { Register(MainGuardAnalyzer) }

func runMainGuard(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*mainGuardParams)
		if p == nil || p.Method == "" {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 5, rule) {
			x := sf.Index
			vars := map[string]string{"func": sf.Primary.Func, "method": p.Method, "keyword": p.Keyword}
			guarded, unguarded := false, false
			for _, s := range x.body() {
				if ifs, ok := s.(*ast.If); ok && isMainGuard(ifs.Test) {
					for _, b := range ifs.Body {
						for _, c := range x.File.callsIn(b) {
							if x.isRunCall(c, p) {
								guarded = true
							}
						}
					}
					continue
				}
				es, ok := s.(*ast.ExprStmt)
				if !ok {
					continue
				}
				if c, ok := es.Value.(*ast.Call); ok && x.isRunCall(c, p) {
					unguarded = true
					vars["call"] = DottedName(c.Func)
					pass.Reportf(rule, sf.Primary.Name, sf.File, c, vars)
				}
			}
			if !guarded && !unguarded {
				vars["call"] = "bench_" + sf.Primary.Func + "." + p.Method
				pass.Reportf(rule, sf.Primary.Name, sf.File, x.anchorStmt(), vars)
			}
		}
	}
	return nil, nil
}

// isRunCall reports whether c is `<name>.<method>(..., <keyword>=True)`.
func (x *pyIndex) isRunCall(c *ast.Call, p *mainGuardParams) bool {
	at, ok := c.Func.(*ast.Attribute)
	if !ok || at.Attr != p.Method {
		return false
	}
	if _, ok := at.Value.(*ast.Name); !ok {
		return false
	}
	if p.Keyword == "" {
		return true
	}
	v, ok := CallArg(c, -1, p.Keyword).(*ast.Constant)
	return ok && v.Value == true
}

// isMainGuard reports whether e is `__name__ == "__main__"` (either order).
func isMainGuard(e ast.Expr) bool {
	cmp, ok := e.(*ast.Compare)
	if !ok || len(cmp.Ops) != 1 || cmp.Ops[0] != ast.Eq || len(cmp.Comparators) != 1 {
		return false
	}
	l, r := cmp.Left, cmp.Comparators[0]
	isName := func(e ast.Expr) bool { n, ok := e.(*ast.Name); return ok && n.Id == "__name__" }
	isMain := func(e ast.Expr) bool { s, ok := StringValue(e); return ok && s == "__main__" }
	return isName(l) && isMain(r) || isName(r) && isMain(l)
}

func (p *mainGuardParams) Validate() error {
	if p.Method == "" {
		return errors.New("method: want the run method's name")
	}
	return nil
}

package checks

import (
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
)

// BenchDecoratorAnalyzer implements kind "bench-decorator".
var BenchDecoratorAnalyzer = &Analyzer{
	Name:         "bench-decorator",
	Placeholders: []string{"op", "file", "func", "name"},
	Doc: `Reports a benchmark function without the benchmark decorator.

In each benchmark file of the op, the function named by the name template
(bench_{func}: a def of the file, or one a benchmark factory builds) must be
decorated with one of the decorator names, aliases resolved through the
file's imports. A file without a function of that name passes when some
decorated function calls the op (the name is bench-function-name's concern).
Otherwise the finding is on the function that calls the op, or at the top of
the file.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(benchFuncParams) },
	Run:      runBenchDecorator,
}

func runBenchDecorator(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*benchFuncParams)
		if p == nil {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 5, rule) {
			x := sf.Index
			done := map[ast.Node]bool{}
			for _, op := range sf.Ops {
				vars := map[string]string{"name": fill(p.Name, op), "func": op.Func}
				fd := x.Funcs[fill(p.Name, op)]
				if fd == nil {
					// Built by a factory: make_bench(configs) returns it.
					for _, fb := range x.factoryBenches(p.Decorator) {
						if fb.Bench.Name == fill(p.Name, op) {
							fd = fb.Bench
						}
					}
				}
				var anchor ast.Node
				if fd != nil {
					if _, _, ok := x.Imports.Decorator(fd.DecoratorList, p.Decorator); ok {
						continue
					}
					anchor = defNode(fd)
				} else {
					fds := x.benchFuncs(op, *p)
					decorated := false
					for _, f := range fds {
						if _, _, ok := x.Imports.Decorator(f.DecoratorList, p.Decorator); ok {
							decorated = true
						}
					}
					if decorated {
						continue
					}
					for _, s := range x.Body() {
						if f, ok := s.(*ast.FunctionDef); ok && x.firstCallVia(funcScope{Def: f}, opPublicNames(op)) != nil {
							anchor = defNode(f)
							vars["name"] = f.Name
							break
						}
					}
					if anchor == nil {
						anchor = x.anchorStmt()
					}
				}
				key := anchor
				if key == nil {
					key = &ast.Pass{}
				}
				if done[key] {
					continue
				}
				done[key] = true
				reportAt(pass, rule, op.Name, sf.File, anchor, vars, nil, nil)
			}
		}
	}
	return nil, nil
}

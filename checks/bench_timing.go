package checks

import (
	"errors"
	"strings"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
)

// BenchTimingAnalyzer implements kind "bench-timing".
var BenchTimingAnalyzer = &Analyzer{
	Name:         "bench-timing",
	Placeholders: []string{"op", "file", "func", "missing", "name"},
	Doc: `Reports a benchmark function that does not time the op or return a metric.

Each benchmark function of the op (see bench-decorator) must call one of the
timers (triton.testing.do_bench, do_bench_cudagraph, or a shared timing
helper such as bench_utils.profile_with_l2flush), directly or in a helper one
level down, and return a value (the GB/s or TFLOPS computed from the time).`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(benchTimingParams) },
	Run:      runBenchTiming,
}

type benchTimingParams struct {
	benchFuncParams
	Timers []string `toml:"timers"` // qualified names of the timers
}

func init() { Register(BenchTimingAnalyzer) }

func runBenchTiming(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*benchTimingParams)
		if p == nil {
			continue
		}
		eachBenchFunc(pass, tab, rule, p.benchFuncParams, func(sf *stepFile, op *optable.Op, fd *ast.FunctionDef) {
			var missing []string
			if sf.Index.FirstEvent(sf.Index.CallSequence(funcScope{Def: fd}), p.Timers) < 0 {
				missing = append(missing, "time it with "+strings.Join(shortNames(p.Timers), " or "))
			}
			if !returnsValue(fd.Body) {
				missing = append(missing, "return the metric computed from the time")
			}
			if len(missing) > 0 {
				reportAt(pass, rule, op.Name, sf.File, defNode(fd), map[string]string{
					"name": fd.Name, "func": op.Func, "missing": strings.Join(missing, " and ")}, nil, nil)
			}
		})
	}
	return nil, nil
}

// returnsValue reports whether a function body (nested functions and
// lambdas excluded) has a return statement with a value.
func returnsValue(body []ast.Stmt) bool {
	found := false
	for _, s := range body {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			case *ast.Return:
				if n.Value != nil {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

func (p *benchTimingParams) Validate() error {
	return errors.Join(p.benchFuncParams.Validate(), needList("timers", p.Timers))
}

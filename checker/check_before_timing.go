package checker

import (
	"errors"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// CheckBeforeTimingAnalyzer implements kind "check-before-timing".
var CheckBeforeTimingAnalyzer = &Analyzer{
	Name:         "check-before-timing",
	Placeholders: []string{"op", "file", "func", "name", "timer"},
	Doc: `Reports a benchmark that times the op without checking it first.

In each benchmark function of the op (see bench-decorator), a call to one of
the check functions (torch.testing.assert_close) must come before the first
call to one of the timers, in source order, counting the calls of helpers
one level down at the place the helper is called. A benchmark that never
checks its result can report the speed of a wrong kernel. Benchmarks with no
timer are left to the bench-timing kind.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(checkBeforeTimingParams) },
	Run:      runCheckBeforeTiming,
}

type checkBeforeTimingParams struct {
	benchFuncParams
	Check  []string `toml:"check"`  // qualified names of the correctness checks
	Timers []string `toml:"timers"` // qualified names of the timers
}

func init() { Register(CheckBeforeTimingAnalyzer) }

func runCheckBeforeTiming(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*checkBeforeTimingParams)
		if p == nil {
			continue
		}
		eachBenchFunc(pass, tab, rule, p.benchFuncParams, func(sf *stepFile, op *Op, fd *ast.FunctionDef) {
			x := sf.Index
			seq := x.callSequence(funcScope{Def: fd})
			ti := x.firstEvent(seq, p.Timers)
			if ti < 0 {
				return
			}
			if ci := x.firstEvent(seq, p.Check); ci >= 0 && ci < ti {
				return
			}
			pass.Reportf(rule, op.Name, sf.File, seq[ti].At, map[string]string{
				"name": fd.Name, "func": op.Func, "timer": DottedName(seq[ti].Call.Func)})
		})
	}
	return nil, nil
}

func (p *checkBeforeTimingParams) Validate() error {
	return errors.Join(p.benchFuncParams.Validate(), needList("check", p.Check), needList("timers", p.Timers))
}

package checks

import (
	"errors"
	"path"
	"slices"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// CheckBeforeTimingAnalyzer implements kind "check-before-timing".
var CheckBeforeTimingAnalyzer = &Analyzer{
	Name:         "check-before-timing",
	Placeholders: []string{"op", "file", "func", "name", "timer"},
	Doc: `Reports a benchmark that times the op without checking it first.

In each benchmark function of the op (see bench-decorator), a call to one of
the check functions (torch.testing.assert_close) must come before the first
call to one of the timers, in source order, counting the calls of helpers
one level down at the place the helper is called. Benchmarks with no
timer are left to the bench-timing kind. A check that cannot fail does not
count: one inside try whose except clause catches AssertionError (or
Exception, BaseException, or everything) without raising again. Timing by
hand (a call to one of manual_timers, torch.cuda.Event(...)) starts the
timing as a timer does.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(checkBeforeTimingParams) },
	Run:      runCheckBeforeTiming,
}

type checkBeforeTimingParams struct {
	benchFuncParams
	Check  []string `toml:"check"`  // qualified names of the correctness checks
	Timers []string `toml:"timers"` // qualified names of the timers
	// ManualTimers are the qualified names of calls that time by hand
	// (torch.cuda.Event, time.perf_counter): the first one starts timing.
	ManualTimers []string `toml:"manual_timers"`
	// Swallowing lists the exception names whose bare catch makes a check
	// inside the try unable to fail.
	Swallowing []string `toml:"swallowing"`
}

func runCheckBeforeTiming(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*checkBeforeTimingParams)
		if p == nil {
			continue
		}
		eachBenchFunc(pass, tab, rule, p.benchFuncParams, func(sf *stepFile, op *optable.Op, fd *ast.FunctionDef) {
			x := sf.Index
			seq := x.CallSequence(funcScope{Def: fd})
			ti := x.FirstEvent(seq, p.Timers)
			if mi := x.FirstEvent(seq, p.ManualTimers); mi >= 0 && (ti < 0 || mi < ti) {
				ti = mi
			}
			if ti < 0 {
				return
			}
			swallowed := swallowedCalls(x.File, p.Swallowing)
			for _, e := range seq[:ti] {
				if x.isName(e.Call.Func, p.Check) && !swallowed[e.Call] {
					return
				}
			}
			reportAt(pass, rule, op.Name, sf.File, seq[ti].At, map[string]string{
				"name": fd.Name, "func": op.Func, "timer": astutil.DottedName(seq[ti].Call.Func)}, nil, nil)
		})
		// A script with no benchmark function that times (by hand or with
		// a timer) and checks nothing anywhere.
		eachBenchScript(pass, tab, rule, p.benchFuncParams, func(sf *stepFile, calls []*ast.Call) {
			x := sf.Index
			timed := x.firstCallTo(calls, append(append([]string(nil), p.Timers...), p.ManualTimers...))
			if timed == nil {
				return
			}
			swallowed := swallowedCalls(x.File, p.Swallowing)
			for _, c := range calls {
				if x.isName(c.Func, p.Check) && !swallowed[c] {
					return
				}
			}
			reportAt(pass, rule, sf.Primary.Name, sf.File, timed, map[string]string{
				"name": path.Base(sf.File.Path), "func": sf.Primary.Func, "timer": astutil.DottedName(timed.Func)}, nil, nil)
		})
	}
	return nil, nil
}

// swallowedCalls returns the calls of a file (the benchmark function and
// its helpers alike) made inside a try whose handler catches one of
// swallowing (or everything) and does not raise or assert: such a check
// only prints or logs its failure.
func swallowedCalls(f *source.File, swallowing []string) map[*ast.Call]bool {
	out := map[*ast.Call]bool{}
	if f.AST == nil || f.AST.Module == nil {
		return out
	}
	catches := func(h *ast.ExceptHandler) bool {
		if h.Type == nil {
			return true
		}
		var types []ast.Expr
		if t, ok := h.Type.(*ast.Tuple); ok {
			types = t.Elts
		} else {
			types = []ast.Expr{h.Type}
		}
		for _, t := range types {
			if slices.Contains(swallowing, astutil.DottedName(t)) {
				return true
			}
		}
		return false
	}
	reraises := func(h *ast.ExceptHandler) bool {
		found := false
		for _, s := range h.Body {
			ast.Inspect(s, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.Raise, *ast.Assert:
					found = true
				}
				return !found
			})
		}
		return found
	}
	for _, st := range f.AST.Module.Body {
		ast.Inspect(st, func(n ast.Node) bool {
			t, ok := n.(*ast.Try)
			if !ok {
				return true
			}
			for _, h := range t.Handlers {
				if h != nil && catches(h) && !reraises(h) {
					for _, s := range t.Body {
						for _, c := range astutil.Calls(s) {
							out[c] = true
						}
					}
					break
				}
			}
			return true
		})
	}
	return out
}

func (p *checkBeforeTimingParams) Validate() error {
	return errors.Join(p.benchFuncParams.Validate(), needList("check", p.Check), needList("timers", p.Timers))
}

package checks

import (
	"errors"
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// BenchTimingAnalyzer implements kind "bench-timing".
var BenchTimingAnalyzer = &Analyzer{
	Name:         "bench-timing",
	Placeholders: []string{"op", "file", "func", "missing", "name", "timers", "manual"},
	Texts:        []string{"untimed", "hand-timed", "no-return", "raw-time", "script-untimed", "script-hand-timed"},
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
	// ManualTimers are the calls that time by hand (torch.cuda.Event): a
	// function or script timing with them is reported at that call.
	ManualTimers []string `toml:"manual_timers"`
}

func runBenchTiming(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*benchTimingParams)
		if p == nil {
			continue
		}
		timers := strings.Join(shortNames(p.Timers), " or ")
		eachBenchFunc(pass, tab, rule, p.benchFuncParams, func(sf *stepFile, op *optable.Op, fd *ast.FunctionDef) {
			x := sf.Index
			vars := map[string]string{"name": fd.Name, "func": op.Func, "timers": timers}
			timing, returning := "", ""
			var at ast.Node = defNode(fd)
			seq := x.CallSequence(funcScope{Def: fd})
			if x.FirstEvent(seq, p.Timers) < 0 {
				timing = "untimed"
				if i := x.FirstEvent(seq, p.ManualTimers); i >= 0 {
					// Timed by hand: point at the hand timing.
					timing, vars["manual"] = "hand-timed", astutil.DottedName(seq[i].Call.Func)
					at = seq[i].At
				}
			}
			switch ret := x.rawTimeReturn(fd, p.Timers); {
			case !returnsValue(fd.Body):
				returning = "no-return"
			case ret != nil && timing == "":
				// It returns the time itself: perf_report plots
				// milliseconds, which no metric suffix names.
				returning = "raw-time"
				at = ret
			}
			// One clause per thing missing, joined by "and".
			var missing []string
			for _, text := range []string{timing, returning} {
				if text != "" {
					missing = append(missing, analysis.RenderText(rule, text, op.Name, vars))
				}
			}
			if len(missing) == 0 {
				return
			}
			vars["missing"] = strings.Join(missing, " and ")
			reportAt(pass, rule, op.Name, sf.File, at, vars, nil, nil)
		})
		// A script with no benchmark function that never calls a timer.
		eachBenchScript(pass, tab, rule, p.benchFuncParams, func(sf *stepFile, calls []*ast.Call) {
			x := sf.Index
			if x.firstCallTo(calls, p.Timers) != nil {
				return
			}
			var at ast.Node = x.anchorStmt()
			vars := map[string]string{"name": path.Base(sf.File.Path), "func": sf.Primary.Func, "timers": timers}
			text := "script-untimed"
			if c := x.firstCallTo(calls, p.ManualTimers); c != nil {
				at = c
				text, vars["manual"] = "script-hand-timed", astutil.DottedName(c.Func)
			}
			vars["missing"] = analysis.RenderText(rule, text, sf.Primary.Name, vars)
			reportAt(pass, rule, sf.Primary.Name, sf.File, at, vars, nil, nil)
		})
	}
	return nil, nil
}

// rawTimeReturn returns the first return statement of fd that hands back
// a timer's result unchanged: the timer call itself, or a name (or a tuple
// of names) bound only to timer results in fd (ms = do_bench(fn); return
// ms). Nil when every return computes something from the time.
func (x *pyIndex) rawTimeReturn(fd *ast.FunctionDef, timers []string) *ast.Return {
	raw := map[string]bool{}   // names bound to a timer result
	other := map[string]bool{} // names bound to anything else
	var returns []*ast.Return
	astutil.InspectScope(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Return:
			if n.Value != nil {
				returns = append(returns, n)
			}
		case *ast.Assign:
			c, isCall := n.Value.(*ast.Call)
			timed := isCall && x.isName(c.Func, timers)
			for _, t := range n.Targets {
				elts := []ast.Expr{t}
				if tu, ok := t.(*ast.Tuple); ok {
					elts = tu.Elts
				}
				for _, e := range elts {
					if nm, ok := e.(*ast.Name); ok {
						if timed {
							raw[nm.Id] = true
						} else {
							other[nm.Id] = true
						}
					}
				}
			}
		case *ast.AugAssign:
			if nm, ok := n.Target.(*ast.Name); ok {
				other[nm.Id] = true
			}
		}
		return true
	})
	isRaw := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.Call:
			return x.isName(e.Func, timers)
		case *ast.Name:
			return raw[e.Id] && !other[e.Id]
		}
		return false
	}
	for _, r := range returns {
		elts := []ast.Expr{r.Value}
		if tu, ok := r.Value.(*ast.Tuple); ok {
			elts = tu.Elts
		}
		all := len(elts) > 0
		for _, e := range elts {
			all = all && isRaw(e)
		}
		if all {
			return r
		}
	}
	return nil
}

// returnsValue reports whether a function body (nested functions and
// lambdas excluded) has a return statement with a value.
func returnsValue(body []ast.Stmt) bool {
	found := false
	astutil.InspectScope(body, func(n ast.Node) bool {
		if r, ok := n.(*ast.Return); ok && r.Value != nil {
			found = true
		}
		return !found
	})
	return found
}

func (p *benchTimingParams) Validate() error {
	return errors.Join(p.benchFuncParams.Validate(), needList("timers", p.Timers))
}

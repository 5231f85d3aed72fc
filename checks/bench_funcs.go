package checks

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

// benchFuncParams locate the benchmark functions of an op in a file.
type benchFuncParams struct {
	// Name is the template of the benchmark function's name: "bench_{func}".
	Name string `toml:"name"`
	// Decorator are the qualified names of the benchmark decorator.
	Decorator []string `toml:"decorator"`
}

// benchFuncs returns the benchmark functions of op in a file: the function
// named after the op when there is one; else the decorated module-level
// functions that call the op (directly or through a helper); else every
// decorated module-level function. A decorated function a module-level
// factory defines and returns (make_bench(configs)) counts as module-level.
func (x *pyIndex) benchFuncs(op *optable.Op, p benchFuncParams) []*ast.FunctionDef {
	if fd := x.Funcs[fill(p.Name, op)]; fd != nil && p.Name != "" {
		return []*ast.FunctionDef{fd}
	}
	factories := x.factoryBenches(p.Decorator)
	for _, fb := range factories {
		if fb.Bench.Name == fill(p.Name, op) && p.Name != "" {
			return []*ast.FunctionDef{fb.Bench}
		}
	}
	var decorated, calling []*ast.FunctionDef
	names := opPublicNames(op)
	var candidates []*ast.FunctionDef
	for _, s := range x.Body() {
		if fd, ok := s.(*ast.FunctionDef); ok {
			candidates = append(candidates, fd)
		}
	}
	// Benchmarks built by a factory count as the module's own.
	for _, fb := range factories {
		candidates = append(candidates, fb.Bench)
	}
	for _, fd := range candidates {
		if _, _, ok := x.Imports.Decorator(fd.DecoratorList, p.Decorator); !ok {
			continue
		}
		decorated = append(decorated, fd)
		if x.firstCallVia(funcScope{Def: fd}, names) != nil {
			calling = append(calling, fd)
		}
	}
	if len(calling) > 0 {
		return calling
	}
	return decorated
}

// callEvent is a call made by a function, or by a helper it calls one level
// down; At is the call in the function itself (the helper's call for a
// call made inside the helper).
type callEvent struct {
	Call *ast.Call
	At   *ast.Call
}

// CallSequence returns the calls made by fs in source order, with the calls
// of each helper (module functions and methods of its class) inlined at the
// helper's first call.
func (x *pyIndex) CallSequence(fs funcScope) []callEvent {
	var out []callEvent
	inlined := map[*ast.FunctionDef]bool{fs.Def: true}
	for _, c := range x.File.CallsIn(fs.Def) {
		out = append(out, callEvent{Call: c, At: c})
		if def := x.calledDef(fs, c); def != nil && !inlined[def] {
			inlined[def] = true
			for _, hc := range x.File.CallsIn(def) {
				out = append(out, callEvent{Call: hc, At: c})
			}
		}
	}
	return out
}

func (x *pyIndex) FirstEvent(seq []callEvent, names []string) int {
	for i, e := range seq {
		if x.isName(e.Call.Func, names) {
			return i
		}
	}
	return -1
}

// eachBenchFunc calls visit once for every benchmark function of every op in
// the Step 5 files the rule applies to; a function that serves several ops of
// a file is visited for the first of them only (one problem, one finding).
func eachBenchFunc(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p benchFuncParams, visit func(sf *stepFile, op *optable.Op, fd *ast.FunctionDef)) {
	for _, sf := range stepFiles(pass, tab, 5, rule) {
		done := map[*ast.FunctionDef]bool{}
		for _, op := range sf.Ops {
			for _, fd := range sf.Index.benchFuncs(op, p) {
				if !done[fd] {
					done[fd] = true
					visit(sf, op, fd)
				}
			}
		}
	}
}

// eachBenchScript calls visit once for every Step 5 file the rule applies
// to that has no benchmark function at all (a hand-timed comparison script
// with a main(), no perf_report function): its calls, in source order,
// are judged as the benchmark function's would be, charged to the file's
// op. TG507 reports the missing function itself.
func eachBenchScript(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p benchFuncParams, visit func(sf *stepFile, calls []*ast.Call)) {
	for _, sf := range stepFiles(pass, tab, 5, rule) {
		script := true
		for _, op := range sf.Ops {
			if len(sf.Index.benchFuncs(op, p)) > 0 {
				script = false
				break
			}
		}
		if script {
			var calls []*ast.Call
			for _, s := range sf.Index.Body() {
				calls = append(calls, sf.File.CallsIn(s)...)
			}
			visit(sf, calls)
		}
	}
}

// firstCallTo returns the first of calls to one of names, or nil.
func (x *pyIndex) firstCallTo(calls []*ast.Call, names []string) *ast.Call {
	for _, c := range calls {
		if x.isName(c.Func, names) {
			return c
		}
	}
	return nil
}

func shortNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = astutil.DottedTail(n)
	}
	return out
}

func (p *benchFuncParams) Validate() error {
	var err error
	if !strings.Contains(p.Name, "{func}") {
		err = fmt.Errorf("name = %q: want a template with {func}", p.Name)
	}
	return errors.Join(err, needList("decorator", p.Decorator))
}

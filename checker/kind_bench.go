package checker

// Check kinds of Step 5 (benchmarks): bench-op-call (S5.2), bench-filter
// (S5.4), bench-reference (S5.5), call-keyword (S5.6), bench-decorator
// (S5.7), check-before-timing (S5.8), bench-timing (S5.9), plot-name
// (S5.10) and main-guard (S5.11). backend-list (S5.3) is in
// kind_backendlist.go.

import (
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// ---------------------------------------------------------------------------
// Benchmark functions

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
// decorated module-level function.
func (x *pyIndex) benchFuncs(op *Op, p benchFuncParams) []*ast.FunctionDef {
	if fd := x.Funcs[fill(p.Name, op)]; fd != nil && p.Name != "" {
		return []*ast.FunctionDef{fd}
	}
	var decorated, calling []*ast.FunctionDef
	names := opPublicNames(op)
	for _, s := range x.body() {
		fd, ok := s.(*ast.FunctionDef)
		if !ok {
			continue
		}
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

// callSequence returns the calls made by fs in source order, with the calls
// of each helper (module functions and methods of its class) inlined at the
// helper's first call.
func (x *pyIndex) callSequence(fs funcScope) []callEvent {
	var out []callEvent
	inlined := map[*ast.FunctionDef]bool{fs.Def: true}
	for _, c := range x.File.callsIn(fs.Def) {
		out = append(out, callEvent{Call: c, At: c})
		if def := x.calledDef(fs, c); def != nil && !inlined[def] {
			inlined[def] = true
			for _, hc := range x.File.callsIn(def) {
				out = append(out, callEvent{Call: hc, At: c})
			}
		}
	}
	return out
}

func (x *pyIndex) firstEvent(seq []callEvent, names []string) int {
	for i, e := range seq {
		if x.isName(e.Call.Func, names) {
			return i
		}
	}
	return -1
}

// ---------------------------------------------------------------------------
// bench-decorator (S5.7)

// BenchDecoratorAnalyzer implements kind "bench-decorator".
var BenchDecoratorAnalyzer = &Analyzer{
	Name: "bench-decorator",
	Doc: `Reports a benchmark function without the benchmark decorator.

The op's benchmark function (named by the name template, bench_{func}) must
be decorated with one of the decorator names (@triton.testing.perf_report),
which turns it into a runnable benchmark over the configs. A file without a
function of that name passes when some decorated function calls the op; the
naming is the cross-step naming rule's concern. Otherwise the finding is on
the function that calls the op, or at the top of the file.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(benchFuncParams) },
	Run:      runBenchDecorator,
}

func init() { Register(BenchDecoratorAnalyzer) }

func runBenchDecorator(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
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
					for _, s := range x.body() {
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
				pass.Reportf(rule, op.Name, sf.File, anchor, vars)
			}
		}
	}
	return nil, nil
}

// ---------------------------------------------------------------------------
// check-before-timing (S5.8)

// CheckBeforeTimingAnalyzer implements kind "check-before-timing".
var CheckBeforeTimingAnalyzer = &Analyzer{
	Name: "check-before-timing",
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

// ---------------------------------------------------------------------------
// bench-timing (S5.9)

// BenchTimingAnalyzer implements kind "bench-timing".
var BenchTimingAnalyzer = &Analyzer{
	Name: "bench-timing",
	Doc: `Reports a benchmark function that does not time the op or return a metric.

Each benchmark function of the op (see bench-decorator) must call one of the
timers (triton.testing.do_bench, do_bench_cudagraph, or a shared timing
helper such as bench_utils.profile_with_l2flush), directly or in a helper one
level down, and return a value (the GB/s or TFLOPS computed from the time).`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(benchTimingParams) },
	Run:      runBenchTiming,
}

type benchTimingParams struct {
	benchFuncParams
	Timers []string `toml:"timers"` // qualified names of the timers
}

func init() { Register(BenchTimingAnalyzer) }

func runBenchTiming(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*benchTimingParams)
		if p == nil {
			continue
		}
		eachBenchFunc(pass, tab, rule, p.benchFuncParams, func(sf *stepFile, op *Op, fd *ast.FunctionDef) {
			var missing []string
			if sf.Index.firstEvent(sf.Index.callSequence(funcScope{Def: fd}), p.Timers) < 0 {
				missing = append(missing, "time it with "+strings.Join(shortNames(p.Timers), " or "))
			}
			if !returnsValue(fd.Body) {
				missing = append(missing, "return the metric computed from the time")
			}
			if len(missing) > 0 {
				pass.Reportf(rule, op.Name, sf.File, defNode(fd), map[string]string{
					"name": fd.Name, "func": op.Func, "missing": strings.Join(missing, " and ")})
			}
		})
	}
	return nil, nil
}

// eachBenchFunc calls visit once for every benchmark function of every op in
// the Step 5 files the rule applies to; a function that serves several ops of
// a file is visited for the first of them only (one problem, one finding).
func eachBenchFunc(pass *Pass, tab *OpTable, rule *rules.Rule, p benchFuncParams, visit func(sf *stepFile, op *Op, fd *ast.FunctionDef)) {
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

func shortNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = lastDotted(n)
	}
	return out
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

// ---------------------------------------------------------------------------
// bench-op-call (S5.2)

// BenchOpCallAnalyzer implements kind "bench-op-call".
var BenchOpCallAnalyzer = &Analyzer{
	Name: "bench-op-call",
	Doc: `Reports benchmark calls of the op without an explicit backend, and global backend selection.

A benchmark compares backends side by side: each call of the op through the
public API (tilegym.ops.<op>, aliases resolved) must pass the backend as the
keyword argument (backend=backend), and the file must not call any of the
forbidden functions (set_backend), which change the backend for the whole
process. Each offending call is reported.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(benchOpCallParams) },
	Run:      runBenchOpCall,
}

type benchOpCallParams struct {
	Keyword   string   `toml:"keyword"`   // the keyword that selects the backend: "backend"
	Forbidden []string `toml:"forbidden"` // qualified names of calls not to use: set_backend
	// Modules are dotted patterns of backend modules: reaching the op's
	// function through one of them (tilegym.ops.cutile.<op>) bypasses
	// dispatch and is reported.
	Modules []string `toml:"modules"`
}

func init() { Register(BenchOpCallAnalyzer) }

func runBenchOpCall(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*benchOpCallParams)
		if p == nil {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 5, rule) {
			x := sf.Index
			// A file that selects the backend globally gets one finding per
			// selection; its op calls without the keyword are the same
			// problem and are not reported again.
			global := false
			for _, s := range x.body() {
				for _, c := range x.callsTo(s, p.Forbidden) {
					global = true
					pass.Reportf(rule, sf.Primary.Name, sf.File, c, map[string]string{
						"func": sf.Primary.Func, "call": DottedName(c.Func), "keyword": p.Keyword,
						"opcall": x.opSpelling(sf.Primary)})
				}
			}
			if global {
				continue
			}
			for _, op := range sf.Ops {
				for _, n := range x.backendModuleUses(op, p.Modules) {
					global = true
					pass.Reportf(rule, op.Name, sf.File, n.node, map[string]string{
						"func": op.Func, "call": n.name, "keyword": p.Keyword, "opcall": preferredPublicName(op)})
				}
			}
			if global {
				continue
			}
			for _, op := range sf.Ops {
				names := opPublicNames(op)
				for _, s := range x.body() {
					for _, c := range x.callsTo(s, names) {
						if CallArg(c, -1, p.Keyword) != nil || hasDoubleStar(c) {
							continue
						}
						pass.Reportf(rule, op.Name, sf.File, c, map[string]string{
							"func": op.Func, "call": DottedName(c.Func), "keyword": p.Keyword, "opcall": DottedName(c.Func)})
					}
				}
			}
		}
	}
	return nil, nil
}

type namedNode struct {
	node ast.Node
	name string
}

// backendModuleUses returns the imports of the op's function from a backend
// module (`from tilegym.ops.cutile import softmax`) and the calls spelled
// through one (`tilegym.ops.cutile.softmax.softmax(...)`) not already
// covered by such an import.
func (x *pyIndex) backendModuleUses(op *Op, modules []string) []namedNode {
	if len(modules) == 0 {
		return nil
	}
	var out []namedNode
	imported := map[string]bool{}
	for _, n := range x.File.nodes() {
		switch s := n.(type) {
		case *ast.ImportFrom:
			base := ImportFromModule(PackagePath(x.File.Path), s)
			for _, a := range s.Names {
				if a == nil || a.Name != op.Func {
					continue
				}
				full := joinDotted(base, a.Name)
				if _, bad := dottedUnder(full, modules); bad {
					local := a.Name
					if a.Asname != nil {
						local = *a.Asname
					}
					imported[local] = true
					out = append(out, namedNode{s, full})
				}
			}
		case *ast.Call:
			d := DottedName(s.Func)
			head, _, _ := strings.Cut(d, ".")
			if d == "" || imported[head] {
				continue
			}
			if q, _ := x.Imports.Resolve(s.Func); q != "" && lastDotted(q) == op.Func {
				if _, bad := dottedUnder(q, modules); bad {
					out = append(out, namedNode{s.Func, q})
				}
			}
		}
	}
	return out
}

// opSpelling returns how the file spells a call of the op (its first
// call), else its first public name.
func (x *pyIndex) opSpelling(op *Op) string {
	names := opPublicNames(op)
	for _, s := range x.body() {
		if cs := x.callsTo(s, names); len(cs) > 0 {
			if d := DottedName(cs[0].Func); d != "" {
				return d
			}
		}
	}
	return preferredPublicName(op)
}

// hasDoubleStar reports whether a call passes **kwargs (which may carry the
// backend).
func hasDoubleStar(c *ast.Call) bool {
	for _, k := range c.Keywords {
		if k != nil && k.Arg == nil {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// bench-filter (S5.4)

// BenchFilterAnalyzer implements kind "bench-filter".
var BenchFilterAnalyzer = &Analyzer{
	Name: "bench-filter",
	Doc: `Reports a benchmark that does not filter its backend list by availability.

The file must define one of the filter functions (get_supported_backends),
the filter must read the backend list (one of vars, ALL_BACKENDS), and every
function that builds a config (a call to one of the config names,
triton.testing.Benchmark) must use the filter, so that an unavailable backend
is not benchmarked.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(benchFilterParams) },
	Run:      runBenchFilter,
}

type benchFilterParams struct {
	Filters []string `toml:"filters"` // accepted names of the filter function
	Vars    []string `toml:"vars"`    // accepted names of the backend list
	Config  []string `toml:"config"`  // qualified names of the config constructor
	// Available are the qualified names of the availability test: a
	// module-level function calling it also filters (get_providers()).
	Available []string `toml:"available"`
}

func init() { Register(BenchFilterAnalyzer) }

func runBenchFilter(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*benchFilterParams)
		if p == nil || len(p.Filters) == 0 {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 5, rule) {
			x := sf.Index
			vars := map[string]string{"func": sf.Primary.Func, "filter": p.Filters[0], "var": first(p.Vars)}
			listNames := map[string]bool{}
			for _, v := range p.Vars {
				if len(listAssigns(x.body(), []string{v})) > 0 {
					listNames[v] = true
				}
			}
			// The filters: functions named as the rule says, and any
			// module-level function that reads the backend list
			// (_supported(), get_supported_backends_split_gemm_rms()).
			filters := map[string]bool{}
			var named *ast.FunctionDef
			for _, s := range x.body() {
				fd, ok := s.(*ast.FunctionDef)
				if !ok {
					continue
				}
				if contains(p.Filters, fd.Name) {
					filters[fd.Name] = true
					if named == nil {
						named = fd
					}
				} else if len(x.callsTo(fd, p.Config)) == 0 &&
					(len(listNames) > 0 && mentionsAnyStmt(fd.Body, listNames) || len(x.callsTo(fd, p.Available)) > 0) {
					filters[fd.Name] = true
				}
			}
			if len(filters) == 0 {
				vars["problem"] = "define " + p.Filters[0] + "() returning the available entries of " + first(p.Vars) + ", and build the configs from it"
				pass.Reportf(rule, sf.Primary.Name, sf.File, x.anchorStmt(), vars)
				continue
			}
			if named != nil && len(listNames) > 0 && !mentionsAnyStmt(named.Body, listNames) {
				vars["problem"] = named.Name + "() must filter " + first(p.Vars)
				pass.Reportf(rule, sf.Primary.Name, sf.File, defNode(named), vars)
				continue
			}
			for _, s := range x.body() {
				calls := x.callsTo(s, p.Config)
				if len(calls) == 0 {
					continue
				}
				uses := mentionsAnyStmt([]ast.Stmt{s}, filters)
				if fd, ok := s.(*ast.FunctionDef); ok && !uses {
					for _, h := range x.helpers(funcScope{Def: fd}) {
						if mentionsAnyStmt(h.Def.Body, filters) {
							uses = true
						}
					}
				}
				if !uses {
					vars["problem"] = "build the configs from " + p.Filters[0] + "(), the available entries of " + first(p.Vars)
					pass.Reportf(rule, sf.Primary.Name, sf.File, calls[0], vars)
				}
			}
		}
	}
	return nil, nil
}

func first(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[0]
}

// mentionsAnyStmt reports whether a Name of names occurs in the statements.
func mentionsAnyStmt(body []ast.Stmt, names map[string]bool) bool {
	found := false
	for _, s := range body {
		ast.Inspect(s, func(n ast.Node) bool {
			if nm, ok := n.(*ast.Name); ok && names[nm.Id] {
				found = true
			}
			return !found
		})
	}
	return found
}

// ---------------------------------------------------------------------------
// bench-reference (S5.5)

// BenchReferenceAnalyzer implements kind "bench-reference".
var BenchReferenceAnalyzer = &Analyzer{
	Name: "bench-reference",
	Doc: `Reports a benchmark that does not register the op's reference implementation.

The benchmark compares against a plain PyTorch reference run through the same
dispatcher, so the file must register one for every op it benchmarks:
register_impl("<op>", "torch")(reference_<func>) or the decorator form
@register_impl("<op>", backend="torch"). The backend is the second positional
argument or the backend keyword.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(benchReferenceParams) },
	Run:      runBenchReference,
}

type benchReferenceParams struct {
	Register []string `toml:"register"` // qualified names of register_impl
	Backend  string   `toml:"backend"`  // the reference backend: "torch"
	Name     string   `toml:"name"`     // the reference function's name template, for messages
}

func init() { Register(BenchReferenceAnalyzer) }

func runBenchReference(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*benchReferenceParams)
		if p == nil {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 5, rule) {
			x := sf.Index
			registered := map[string]bool{}
			for _, s := range x.body() {
				for _, c := range x.callsTo(s, p.Register) {
					name, ok1 := StringValue(CallArg(c, 0, "name"))
					be, ok2 := StringValue(CallArg(c, 1, "backend"))
					if ok1 && ok2 && be == p.Backend {
						registered[name] = true
					}
				}
			}
			for _, op := range sf.Ops {
				if registered[op.Name] || !x.reaches(op, p.Register) {
					continue
				}
				// Anchor on the reference function when it exists (defined
				// but not registered), else at the top of the file.
				anchor := x.anchorStmt()
				if fd := x.Funcs[fill(p.Name, op)]; fd != nil {
					anchor = defNode(fd)
				}
				pass.Reportf(rule, op.Name, sf.File, anchor, map[string]string{
					"func": op.Func, "name": fill(p.Name, op), "backend": p.Backend})
			}
		}
	}
	return nil, nil
}

// ---------------------------------------------------------------------------
// call-keyword (S5.6)

// CallKeywordAnalyzer implements kind "call-keyword".
var CallKeywordAnalyzer = &Analyzer{
	Name: "call-keyword",
	Doc: `Reports calls that do not pass a keyword with an accepted value.

The file must call one of the rule's calls (triton.testing.Benchmark), and
every such call must pass each keyword of the keywords table with one of its
accepted string values (line_arg = "backend": one line per backend).`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(callKeywordParams) },
	Run:      runCallKeyword,
}

type callKeywordParams struct {
	Step     int                 `toml:"step"`     // 4 or 5
	Calls    []string            `toml:"calls"`    // qualified names of the calls
	Keywords map[string][]string `toml:"keywords"` // keyword -> accepted values
}

func init() { Register(CallKeywordAnalyzer) }

func runCallKeyword(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*callKeywordParams)
		if p == nil || len(p.Calls) == 0 {
			continue
		}
		kws := make([]string, 0, len(p.Keywords))
		for k := range p.Keywords {
			kws = append(kws, k)
		}
		sort.Strings(kws)
		for _, sf := range stepFiles(pass, tab, p.Step, rule) {
			x := sf.Index
			var calls []*ast.Call
			for _, s := range x.body() {
				calls = append(calls, x.callsTo(s, p.Calls)...)
			}
			vars := func(k string) map[string]string {
				want := ""
				if k != "" {
					want = k + "=" + quoteList(p.Keywords[k][:min(1, len(p.Keywords[k]))])
				}
				return map[string]string{"func": sf.Primary.Func, "call": lastDotted(first(p.Calls)), "keyword": want}
			}
			if len(calls) == 0 {
				pass.Reportf(rule, sf.Primary.Name, sf.File, x.anchorStmt(), vars(first(kws)))
				continue
			}
			for _, c := range calls {
				for _, k := range kws {
					v, ok := StringValue(CallArg(c, -1, k))
					if ok && contains(p.Keywords[k], v) {
						continue
					}
					var n ast.Node = c
					if kv := CallArg(c, -1, k); kv != nil {
						n = kv
					}
					pass.Reportf(rule, sf.Primary.Name, sf.File, n, vars(k))
					break
				}
			}
		}
	}
	return nil, nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// plot-name (S5.10)

// PlotNameAnalyzer implements kind "plot-name".
var PlotNameAnalyzer = &Analyzer{
	Name: "plot-name",
	Doc: `Reports a plot name without the metric suffix of its y label.

For every call of the config constructor (triton.testing.Benchmark), the
plot name keyword must end in the suffix that the labels table pairs with the
ylabel keyword ("GB/s" -> "-GBps", "TFLOPS" -> "-TFLOPS"). Values are read
through string literals, f-strings (their last literal part), concatenations,
local and module variables and the parameters of the enclosing function,
resolved at each call of that function in the file. A value that cannot be
resolved statically is not judged.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(plotNameParams) },
	Run:      runPlotName,
}

type plotNameParams struct {
	Calls   []string          `toml:"calls"`    // qualified names of the config constructor
	PlotKw  string            `toml:"plot_kw"`  // "plot_name"
	LabelKw string            `toml:"label_kw"` // "ylabel"
	Labels  map[string]string `toml:"labels"`   // ylabel -> plot name suffix
}

func init() { Register(PlotNameAnalyzer) }

func runPlotName(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*plotNameParams)
		if p == nil || len(p.Calls) == 0 {
			continue
		}
		var suffixes []string
		for _, s := range p.Labels {
			suffixes = append(suffixes, s)
		}
		sort.Strings(suffixes)
		for _, sf := range stepFiles(pass, tab, 5, rule) {
			x := sf.Index
			for _, s := range x.body() {
				var enclosing *ast.FunctionDef
				if fd, ok := s.(*ast.FunctionDef); ok {
					enclosing = fd
				}
				for _, c := range x.callsTo(s, p.Calls) {
					plotExpr := CallArg(c, -1, p.PlotKw)
					if plotExpr == nil {
						continue
					}
					plots := x.resolveStrings(enclosing, plotExpr, 0)
					labels := x.resolveStrings(enclosing, CallArg(c, -1, p.LabelKw), 0)
					for _, pv := range plots {
						if strings.HasSuffix(pv.Value, "{}") {
							continue // ends in a replacement field: not judged
						}
						want := suffixes
						label := ""
						if len(labels) == 1 {
							label = labels[0].Value
							if sfx, ok := p.Labels[label]; ok {
								want = []string{sfx}
							}
						}
						ok := false
						for _, w := range want {
							if strings.HasSuffix(pv.Value, w) {
								ok = true
							}
						}
						if ok {
							continue
						}
						expected := strings.Join(want, " or ")
						pass.Reportf(rule, sf.Primary.Name, sf.File, pv.Node, map[string]string{
							"func": sf.Primary.Func, "plot_name": `"` + pv.Value + `"`, "ylabel": `"` + label + `"`, "suffix": expected})
					}
				}
			}
		}
	}
	return nil, nil
}

// resolvedString is a statically known string (replacement fields of
// f-strings shown as "{}") and the node that spells it.
type resolvedString struct {
	Value string
	Node  ast.Node
}

// resolveStrings returns the string values e can take: a literal, an
// f-string or a concatenation; a name assigned in fn (the last assignment)
// or at module level; a parameter of fn, resolved at each call of fn in the
// file (by position or keyword, else its default). depth bounds the
// parameter chain.
func (x *pyIndex) resolveStrings(fn *ast.FunctionDef, e ast.Expr, depth int) []resolvedString {
	if e == nil || depth > 3 {
		return nil
	}
	if s, _, ok := StringTemplate(e); ok {
		return []resolvedString{{Value: s, Node: e}}
	}
	if b, ok := e.(*ast.BinOp); ok && b.Op == ast.Add {
		// "prefix-" + str(dtype) + "-GBps": only the end matters.
		var out []resolvedString
		for _, r := range x.resolveStrings(fn, b.Right, depth+1) {
			out = append(out, resolvedString{Value: "{}" + r.Value, Node: r.Node})
		}
		return out
	}
	name, ok := e.(*ast.Name)
	if !ok {
		return nil
	}
	if fn != nil {
		var last ast.Expr
		for _, s := range fn.Body {
			ast.Inspect(s, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FunctionDef, *ast.Lambda:
					return false
				case *ast.Assign:
					if len(n.Targets) == 1 {
						if t, ok := n.Targets[0].(*ast.Name); ok && t.Id == name.Id && n.Pos().Before(e.Pos()) {
							last = n.Value
						}
					}
				}
				return true
			})
		}
		if last != nil {
			return x.resolveStrings(fn, last, depth+1)
		}
		for _, prm := range Params(fn.Args) {
			if prm.Name != name.Id {
				continue
			}
			var out []resolvedString
			callers := x.callersOf(fn.Name)
			for _, cs := range callers {
				arg := CallArg(cs.Call, prm.Index, prm.Name)
				if arg == nil {
					arg = prm.Default
					out = append(out, x.resolveStrings(nil, arg, depth+1)...)
					continue
				}
				out = append(out, x.resolveStrings(cs.In, arg, depth+1)...)
			}
			if len(callers) == 0 && prm.Default != nil {
				out = append(out, x.resolveStrings(nil, prm.Default, depth+1)...)
			}
			return out
		}
	}
	for _, s := range listAssigns(x.body(), []string{name.Id}) {
		if a, ok := s.(*ast.Assign); ok {
			return x.resolveStrings(nil, a.Value, depth+1)
		}
	}
	return nil
}

// callSite is a call and the module-level function it is in (nil at
// module level).
type callSite struct {
	Call *ast.Call
	In   *ast.FunctionDef
}

// callersOf returns the calls of a module-level function by name.
func (x *pyIndex) callersOf(name string) []callSite {
	var out []callSite
	for _, s := range x.body() {
		var in *ast.FunctionDef
		if fd, ok := s.(*ast.FunctionDef); ok {
			in = fd
		}
		for _, c := range x.File.callsIn(s) {
			if n, ok := c.Func.(*ast.Name); ok && n.Id == name {
				out = append(out, callSite{Call: c, In: in})
			}
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// main-guard (S5.11)

// MainGuardAnalyzer implements kind "main-guard".
var MainGuardAnalyzer = &Analyzer{
	Name: "main-guard",
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

package checks

import (
	"fmt"
	"maps"
	"slices"

	"sort"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/rules"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/source"
)

// InitLookupMismatches compares the indexed lookups of the init chains of
// every op of tab (loadsPart, findFunc, findAll) with the scans they
// replace, for each op's own function names and for every name any
// __init__.py of the table imports or lists; it returns the differences
// and how many lookups it compared.
func InitLookupMismatches(tab *optable.OpTable, lay *layout.Layout) (diffs []string, compared int) {
	names := layout.LayoutNames(lay)
	byPath := initsByPath(tab)
	var all []string
	seen := map[string]bool{}
	for _, in := range tab.Inits {
		for _, list := range [][]*optable.InitImport{in.ModuleImports, in.FuncImports} {
			for _, x := range list {
				if !seen[x.Name] {
					seen[x.Name] = true
					all = append(all, x.Name)
				}
			}
		}
		for _, k := range in.All {
			if s, ok := k.Value.(string); ok && !seen[s] {
				seen[s] = true
				all = append(all, s)
			}
		}
	}
	sort.Strings(all)
	for _, op := range tab.Ops {
		impls := cutileImpls(op, names)
		if op.Scope == nil || len(impls) == 0 {
			continue
		}
		for _, blocked := range [][]string{nil, {op.Scope.Name}} {
			c := buildChain(byPath, impls[0], op, blocked)
			for i := range c.parts {
				ok, out := c.loadsPart(i)
				ok2, out2 := c.loadsPartScan(i)
				compared++
				if ok != ok2 || out != out2 {
					diffs = append(diffs, fmt.Sprintf("%s part %d blocked=%v: loadsPart %v,%v, scan %v,%v", op.Name, i, blocked != nil, ok, out, ok2, out2))
				}
			}
			sets := []map[string]bool{implFuncNames(op, impls)}
			for _, n := range all {
				sets = append(sets, map[string]bool{n: true})
			}
			for _, funcs := range sets {
				compared += 2
				if a, b := c.findFunc(funcs), c.findFuncScan(funcs); a != b {
					diffs = append(diffs, fmt.Sprintf("%s blocked=%v findFunc(%v) = %v, scan %v", op.Name, blocked != nil, funcs, a, b))
				}
				if a, b := c.findAll(funcs), c.findAllScan(funcs); a != b {
					diffs = append(diffs, fmt.Sprintf("%s findAll(%v) = %v, scan %v", op.Name, funcs, a, b))
				}
			}
		}
	}
	return diffs, compared
}

// LookUpInitChains does what the init-* kinds do for every op of tab
// with a cuTile module: index the inits, build its chain, look up whether
// each part is loaded and whether its function is imported and listed in
// __all__. It returns how many ops it looked up.
func LookUpInitChains(tab *optable.OpTable, lay *layout.Layout) int {
	names := layout.LayoutNames(lay)
	byPath := initsByPath(tab)
	n := 0
	for _, op := range tab.Ops {
		impls := cutileImpls(op, names)
		if op.Scope == nil || len(impls) == 0 {
			continue
		}
		c := buildChain(byPath, impls[0], op, nil)
		funcs := implFuncNames(op, impls)
		if c.loaded() && c.findFunc(funcs) && c.findAll(funcs) {
			n++
		}
	}
	return n
}

// ClassMethodMismatches compares classMethod with classMethodScan for
// every method name of every module-level class of f; it returns the
// differences and how many names it compared.
func ClassMethodMismatches(f *source.File) (diffs []string, compared int) {
	x := buildPyIndex(f)
	for _, c := range x.Classes {
		for _, s := range c.Body {
			if fd, ok := s.(*ast.FunctionDef); ok {
				compared++
				if got, want := x.classMethod(c, fd.Name), classMethodScan(c, fd.Name); got != want {
					diffs = append(diffs, fmt.Sprintf("%s: %s.%s: classMethod %p, scan %p", f.Path, c.Name, fd.Name, got, want))
				}
			}
		}
	}
	return diffs, compared
}

// ExportingInitMismatches compares exportingInit with exportingInitScan
// for every path of paths; it returns the differences.
func ExportingInitMismatches(tab *optable.OpTable, paths []string) (diffs []string) {
	x := newInitExports(tab)
	for _, p := range paths {
		a, ai := x.exportingInit(p)
		b, bi := exportingInitScan(tab, p)
		if a != b || ai != bi {
			diffs = append(diffs, fmt.Sprintf("%s: exportingInit %s %v, scan %s %v", p, a, ai, b, bi))
		}
	}
	return diffs
}

// ExportingInits looks up the exporting init of every path, as the
// kernel-module kind does for its modules; it returns how many are
// imported by one.
func ExportingInits(tab *optable.OpTable, paths []string) int {
	x := newInitExports(tab)
	n := 0
	for _, p := range paths {
		if _, ok := x.exportingInit(p); ok {
			n++
		}
	}
	return n
}

// benchNames are the bench-function-name templates of the built-in
// catalog, and fileNames the test-file-name ones.
var (
	benchNames = &benchFunctionNameParams{Names: []string{"bench_{func}", "bench_{module}", "bench_{suite}_{func}", "bench_{suite}_{parent}", "bench_{suite}_{module}"}, Decorator: []string{"triton.testing.perf_report"}}
	fileNames  = []string{"test_{func}", "test_{module}", "test_{suite}_{func}", "test_{suite}_{parent}", "test_{suite}_{module}"}
)

// NameLookupMismatches compares, for every benchmark and test file of tab
// and every op it serves, misnamedBenchFunc and namedAfterOther with the
// scans they replace; it returns the differences and how many pairs it
// compared.
func NameLookupMismatches(tab *optable.OpTable, lay *layout.Layout) (diffs []string, compared int) {
	names := layout.LayoutNames(lay)
	serves := servedBy(tab)
	bc, fc := newOpNames(benchNames.Names, names), newOpNames(fileNames, names)
	for _, op := range tab.Ops {
		for _, f := range append(append([]*source.File(nil), op.Benchmarks...), op.Tests...) {
			compared++
			served := serves[f.Path]
			got := misnamedBenchFunc(op, bc, newBenchFuncs(f, benchNames, served, bc))
			want := misnamedBenchFuncScan(f, op, opModule(op, names), benchNames, served, names)
			if got != want {
				diffs = append(diffs, fmt.Sprintf("%s %s: misnamedBenchFunc %v, scan %v", f.Path, op.Name, got, want))
			}
			if a, b := namedAfterOther(namedAfter(f, served, fc), op), namedAfterOtherScan(f, served, op, fileNames, names); a != b {
				diffs = append(diffs, fmt.Sprintf("%s %s: namedAfterOther %v, scan %v", f.Path, op.Name, a, b))
			}
		}
	}
	return diffs, compared
}

// NameLookups asks, as bench-function-name and the file-name kinds do,
// for every op and every benchmark file serving it, whether a function
// is misnamed and whether the file is named after another op; it returns
// how many functions were found misnamed.
func NameLookups(tab *optable.OpTable, lay *layout.Layout) int {
	names := layout.LayoutNames(lay)
	serves := servedBy(tab)
	bc, fc := newOpNames(benchNames.Names, names), newOpNames(fileNames, names)
	files := map[string]*benchFuncs{}
	namers := map[string][]*optable.Op{}
	n := 0
	for _, op := range tab.Ops {
		for _, f := range op.Benchmarks {
			if files[f.Path] == nil {
				files[f.Path] = newBenchFuncs(f, benchNames, serves[f.Path], bc)
				namers[f.Path] = namedAfter(f, serves[f.Path], fc)
			}
			if misnamedBenchFunc(op, bc, files[f.Path]) != nil {
				n++
			}
			namedAfterOther(namers[f.Path], op)
		}
	}
	return n
}

// InitOrderFindings runs init-order over tab and returns its findings.
func InitOrderFindings(tab *optable.OpTable, lay *layout.Layout) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	pass := &Pass{Report: func(d analysis.Diagnostic) { out = append(out, d) }}
	checkInitOrder(pass, &rules.Rule{ID: "TG302", Message: "{module}"}, &InitParams{}, tab, layout.LayoutNames(lay))
	return out
}

// LongestOrdered and its reference, and the neighbours init-order reports.
var (
	LongestOrdered     = longestOrdered
	LongestOrderedScan = longestOrderedScan
	GreatestBefore     = greatestBefore
	LeastAfter         = leastAfter
)

// servedFiles returns the parsed test and benchmark files of tab's ops,
// each once, in op order.
func servedFiles(tab *optable.OpTable) []*source.File {
	var out []*source.File
	seen := map[*source.File]bool{}
	for _, op := range tab.Ops {
		for _, f := range append(append([]*source.File{}, op.Tests...), op.Benchmarks...) {
			if f != nil && f.AST != nil && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// OpUseMismatches compares backendModuleUses and publicCalls with the
// walks they replace (backendModuleUsesScan, publicCallsScan) on every
// test and benchmark file of tab, for every op of tab and for an op named
// after every name the file imports or calls; it returns the differences
// and how many questions it compared.
func OpUseMismatches(tab *optable.OpTable, modules []string) (diffs []string, compared int) {
	if len(tab.Ops) == 0 {
		return nil, 0
	}
	for _, f := range servedFiles(tab) {
		x := newPyIndex(f)
		ops := append([]*optable.Op{}, tab.Ops...)
		u := opUsesFact.Of(f)
		var names []string
		for k := range u.bodyCalls {
			names = append(names, k)
		}
		for k := range u.byFunc {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			op := *tab.Ops[0]
			op.Name, op.Func = k, k
			ops = append(ops, &op)
		}
		for _, op := range ops {
			compared++
			a, b := x.backendModuleUses(op, modules), x.backendModuleUsesScan(op, modules)
			if fmt.Sprint(a) != fmt.Sprint(b) {
				diffs = append(diffs, fmt.Sprintf("%s: backendModuleUses(%s) = %v, scan %v", f.Path, op.Name, a, b))
			}
			if c, d := x.publicCalls(op), x.publicCallsScan(op); !slices.Equal(c, d) {
				diffs = append(diffs, fmt.Sprintf("%s: publicCalls(%s) = %v, scan %v", f.Path, op.Name, c, d))
			}
		}
	}
	return diffs, compared
}

// OpUseQueries asks backendModuleUses and publicCalls about every op of
// every benchmark file of tab that serves it, as bench-op-call does; it
// returns how many ops their files call through the public API.
func OpUseQueries(tab *optable.OpTable, modules []string) int {
	n := 0
	for _, op := range tab.Ops {
		for _, f := range op.Benchmarks {
			if f == nil || f.AST == nil {
				continue
			}
			x := newPyIndex(f)
			x.backendModuleUses(op, modules)
			if len(x.publicCalls(op)) > 0 {
				n++
			}
		}
	}
	return n
}

// CallsExamined is how many calls CallsTo and publicCalls have matched
// against names so far.
func CallsExamined() int64 { return callsExamined.Load() }

// TextPrefilterMismatches holds the text regexps the tree compiled (those
// of the relation rules run on it) to their plain form on every file of
// the tree: a regexp matches a file exactly when its literal prefilter lets
// the file through and it matches. It returns the differences, how many
// (regexp, file) pairs matched, and how many the prefilter turned away.
func (t *Tree) TextPrefilterMismatches() (diffs []string, matched, rejected int) {
	files := t.list("")
	for _, src := range slices.Sorted(maps.Keys(t.texts.m)) {
		re := t.texts.m[src].v
		if re == nil {
			continue
		}
		for _, p := range files {
			data := t.text(p)
			plain := re.re.Match(data)
			fast := re.mayMatch(data) && re.re.Match(data)
			if plain != fast {
				diffs = append(diffs, fmt.Sprintf("%s: %q matches: %v; with the prefilter (%q): %v", p, src, plain, re.need, fast))
			}
			if plain {
				matched++
			}
			if !re.mayMatch(data) {
				rejected++
			}
		}
	}
	return diffs, matched, rejected
}

// RequiredLiterals returns the literal clauses compileTextRE finds.
func RequiredLiterals(src string) ([][]string, error) {
	re, err := compileTextRE(src)
	if err != nil {
		return nil, err
	}
	return re.need, nil
}

// BuildFileNodes builds the shared walk of a parsed file afresh and
// returns how many nodes it holds.
func BuildFileNodes(f *source.File) int { return len(buildFileNodes(f).nodes) }

// MatchAhead matches ahead, as runRelation does before its rules run, the
// patterns of the relation rules of rs.
func (t *Tree) MatchAhead(rs []*rules.Rule) { t.matchAhead(rs) }

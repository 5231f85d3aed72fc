package checks

import (
	"errors"
	"slices"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// BenchFilterAnalyzer implements kind "bench-filter".
var BenchFilterAnalyzer = &Analyzer{
	Name:         "bench-filter",
	Placeholders: []string{"op", "file", "filter", "func", "problem", "var", "name"},
	Texts:        []string{"no-filter", "filter-unread", "config-unfiltered"},
	Doc: `Reports a benchmark that does not filter its backend list by availability.

The file must define one of the filter functions (get_supported_backends),
the filter must read the backend list (one of vars, ALL_BACKENDS), and every
function that builds a config (a call to one of the config names,
triton.testing.Benchmark) must use the filter. The filter may reach the
config function through a parameter (create_benchmark_config(dtype,
backends) called with get_supported_backends(), or a name assigned from it,
at every call in the file) or be imported from a sibling benchmark of the
same directory that defines it over its own list (read statically, never
run).`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
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

func runBenchFilter(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*benchFilterParams)
		if p == nil || len(p.Filters) == 0 {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 5, rule) {
			x := sf.Index
			vars := map[string]string{"func": sf.Primary.Func, "filter": p.Filters[0], "var": firstOr(p.Vars, "")}
			listNames := map[string]bool{}
			for _, v := range p.Vars {
				if len(listAssigns(x.Body(), []string{v})) > 0 {
					listNames[v] = true
				}
			}
			// The filters: functions named as the rule says, and any
			// module-level function that reads the backend list
			// (_supported(), get_supported_backends_split_gemm_rms()).
			filters := map[string]bool{}
			var named *ast.FunctionDef
			for _, s := range x.Body() {
				fd, ok := s.(*ast.FunctionDef)
				if !ok {
					continue
				}
				if slices.Contains(p.Filters, fd.Name) {
					filters[fd.Name] = true
					if named == nil {
						named = fd
					}
				} else if len(x.CallsTo(fd, p.Config)) == 0 &&
					(len(listNames) > 0 && mentionsAnyStmt(fd.Body, listNames) || len(x.CallsTo(fd, p.Available)) > 0) {
					filters[fd.Name] = true
				}
			}
			// A filter imported from a sibling benchmark (from bench_rope
			// import get_supported_backends) that filters the list there.
			for _, si := range x.siblingImports(pass.Repo) {
				if !slices.Contains(p.Filters, si.Name) {
					continue
				}
				sx := newPyIndex(si.File)
				if fd := sx.Funcs[si.Name]; fd != nil && (mentionsAnyStmt(fd.Body, toSet(p.Vars)) || len(sx.CallsTo(fd, p.Available)) > 0) {
					filters[si.Local] = true
				}
			}
			if len(filters) == 0 {
				vars["problem"] = analysis.RenderText(rule, "no-filter", sf.Primary.Name, vars)
				reportAt(pass, rule, sf.Primary.Name, sf.File, x.anchorStmt(), vars, nil, nil)
				continue
			}
			if named != nil && len(listNames) > 0 && !mentionsAnyStmt(named.Body, listNames) {
				vars["name"] = named.Name
				vars["problem"] = analysis.RenderText(rule, "filter-unread", sf.Primary.Name, vars)
				reportAt(pass, rule, sf.Primary.Name, sf.File, defNode(named), vars, nil, nil)
				continue
			}
			for _, s := range x.Body() {
				calls := x.CallsTo(s, p.Config)
				if len(calls) == 0 {
					continue
				}
				uses := mentionsAny(s, filters)
				if fd, ok := s.(*ast.FunctionDef); ok && !uses {
					for _, h := range x.helpers(funcScope{Def: fd}) {
						if mentionsAnyStmt(h.Def.Body, filters) {
							uses = true
						}
					}
					if !uses {
						uses = x.paramsFiltered(fd, filters)
					}
				}
				if !uses {
					vars["problem"] = analysis.RenderText(rule, "config-unfiltered", sf.Primary.Name, vars)
					reportAt(pass, rule, sf.Primary.Name, sf.File, calls[0], vars, nil, nil)
				}
			}
		}
	}
	return nil, nil
}

func (p *benchFilterParams) Validate() error {
	return errors.Join(needList("filters", p.Filters), needList("vars", p.Vars), needList("config", p.Config))
}

func toSet(list []string) map[string]bool {
	out := map[string]bool{}
	for _, s := range list {
		out[s] = true
	}
	return out
}

// paramsFiltered reports whether fd is called in the file, and every call
// passes, for some parameter, an argument that uses a filter: the filter's
// call itself, or a name assigned from it in the caller's scope (the
// enclosing function, or the module with its main guard).
func (x *pyIndex) paramsFiltered(fd *ast.FunctionDef, filters map[string]bool) bool {
	callers := x.callersOf(fd.Name)
	if len(callers) == 0 {
		return false
	}
	for _, cs := range callers {
		scope := x.Body()
		if cs.In != nil {
			scope = cs.In.Body
		}
		ok := false
		for _, prm := range astutil.Params(fd.Args) {
			arg := astutil.CallArg(cs.Call, prm.Index, prm.Name)
			if arg == nil {
				continue
			}
			if mentionsAny(arg, filters) {
				ok = true
				break
			}
			// A decorator's call belongs to the function it decorates but
			// runs at module level: look there too.
			if nm, isName := arg.(*ast.Name); isName && (assignedFrom(scope, nm.Id, filters) || assignedFrom(x.Body(), nm.Id, filters)) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// assignedFrom reports whether name is assigned, somewhere in the
// statements (nested functions excluded), a value that uses one of names.
func assignedFrom(body []ast.Stmt, name string, names map[string]bool) bool {
	found := false
	astutil.InspectScope(body, func(n ast.Node) bool {
		if a, ok := n.(*ast.Assign); ok {
			for _, t := range a.Targets {
				if tn, ok := t.(*ast.Name); ok && tn.Id == name && mentionsAny(a.Value, names) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

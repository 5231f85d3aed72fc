package checker

import (
	"errors"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// BenchFilterAnalyzer implements kind "bench-filter".
var BenchFilterAnalyzer = &Analyzer{
	Name:         "bench-filter",
	Placeholders: []string{"op", "file", "filter", "func", "problem", "var"},
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

func (p *benchFilterParams) Validate() error {
	return errors.Join(needList("filters", p.Filters), needList("vars", p.Vars), needList("config", p.Config))
}

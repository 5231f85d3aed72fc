package checks

import (
	"errors"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// BenchOpCallAnalyzer implements kind "bench-op-call".
var BenchOpCallAnalyzer = &Analyzer{
	Name:         "bench-op-call",
	Placeholders: []string{"op", "file", "call", "func", "keyword", "opcall", "value", "problem"},
	Texts:        []string{"global", "module", "no-keyword", "literal"},
	Doc: `Reports benchmark calls of the op without the backend keyword, and global backend selection.

In each benchmark file, three checks in turn, each finding a call (a file
with findings of one is not judged by the next): (1) calls of the
forbidden functions (set_backend); (2) imports or calls of the op's
function through one of modules (tilegym.ops.cutile.<op>); (3) calls of
an op the file is about through the public API (tilegym.ops.<op>, aliases
resolved) that do not pass keyword, or pass it a literal rather than a
name (a call passing **kwargs is left alone). The rule's texts "global",
"module", "no-keyword" and "literal" say which.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
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

func runBenchOpCall(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
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
			for _, s := range x.Body() {
				for _, c := range x.CallsTo(s, p.Forbidden) {
					global = true
					vars := map[string]string{"func": sf.Primary.Func, "call": astutil.DottedName(c.Func), "keyword": p.Keyword,
						"opcall": x.opSpelling(sf.Primary), "value": ""}
					vars["problem"] = analysis.RenderText(rule, "global", sf.Primary.Name, vars)
					reportAt(pass, rule, sf.Primary.Name, sf.File, c, vars, nil, nil)
				}
			}
			if global {
				continue
			}
			for _, op := range sf.Ops {
				for _, n := range x.backendModuleUses(op, p.Modules) {
					global = true
					vars := map[string]string{"func": op.Func, "call": n.name, "keyword": p.Keyword, "opcall": preferredPublicName(op), "value": ""}
					vars["problem"] = analysis.RenderText(rule, "module", op.Name, vars)
					reportAt(pass, rule, op.Name, sf.File, n.node, vars, nil, nil)
				}
			}
			if global {
				continue
			}
			for _, op := range sf.Ops {
				if !tab.IsAbout(sf.File, op) {
					continue // a baseline the benchmark times beside its op
				}
				for _, c := range x.publicCalls(op) {
					text, value := "no-keyword", ""
					if v := astutil.CallArg(c, -1, p.Keyword); v != nil {
						// The benchmark's backend parameter, not a
						// fixed backend: a literal times one backend
						// on every line.
						lit, ok := v.(*ast.Constant)
						if !ok {
							continue
						}
						text, value = "literal", astutil.ExprString(lit)
					} else if hasDoubleStar(c) {
						continue
					}
					vars := map[string]string{"func": op.Func, "call": astutil.DottedName(c.Func), "keyword": p.Keyword, "opcall": astutil.DottedName(c.Func), "value": value}
					vars["problem"] = analysis.RenderText(rule, text, op.Name, vars)
					reportAt(pass, rule, op.Name, sf.File, c, vars, nil, nil)
				}
			}
		}
	}
	return nil, nil
}

// backendModuleUses returns the imports of the op's function from a backend
// module (`from tilegym.ops.cutile import softmax`) and the calls spelled
// through one (`tilegym.ops.cutile.softmax.softmax(...)`) not already
// covered by such an import. It reads the imports and calls of the op's
// function name from the file's opUses (walked once per file: a walk per
// op made a file serving n ops quadratic); backendModuleUsesScan is the
// reference.
func (x *pyIndex) backendModuleUses(op *optable.Op, modules []string) []namedNode {
	if len(modules) == 0 {
		return nil
	}
	var out []namedNode
	imported := map[string]bool{}
	for _, u := range opUsesFact.Of(x.File).byFunc[op.Func] {
		if u.imp != nil {
			if _, bad := dottedUnder(u.full, modules); bad {
				imported[u.local] = true
				out = append(out, namedNode{u.imp, u.full})
			}
			continue
		}
		if imported[u.head] {
			continue
		}
		if _, bad := dottedUnder(u.full, modules); bad {
			out = append(out, namedNode{u.call.Func, u.full})
		}
	}
	return out
}

// publicCalls returns the calls of the op through its public names in the
// statements of the module body, in order: those of the body's calls
// whose callee ends in the op's function name (the file's opUses), not a
// walk of the file per op. publicCallsScan is the reference.
func (x *pyIndex) publicCalls(op *optable.Op) []*ast.Call {
	names := opPublicNames(op)
	var out []*ast.Call
	calls := opUsesFact.Of(x.File).bodyCalls[op.Func]
	callsExamined.Add(int64(len(calls)))
	for _, c := range calls {
		if x.isName(c.Func, names) {
			out = append(out, c)
		}
	}
	return out
}

// opSpelling returns how the file spells a call of the op (its first
// call), else its first public name.
func (x *pyIndex) opSpelling(op *optable.Op) string {
	names := opPublicNames(op)
	for _, s := range x.Body() {
		if cs := x.CallsTo(s, names); len(cs) > 0 {
			if d := astutil.DottedName(cs[0].Func); d != "" {
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

func (p *benchOpCallParams) Validate() error {
	if p.Keyword == "" {
		return errors.New("keyword: want the backend keyword")
	}
	return nil
}

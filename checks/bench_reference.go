package checks

import (
	"errors"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// BenchReferenceAnalyzer implements kind "bench-reference".
var BenchReferenceAnalyzer = &Analyzer{
	Name:         "bench-reference",
	Placeholders: []string{"op", "file", "backend", "func", "name", "other", "problem"},
	Texts:        []string{"misnamed", "other-op", "undefined", "unregistered"},
	Doc: `Reports a benchmark that does not register the op's reference implementation.

The file must register a reference for every op it benchmarks:
register_impl("<op>", "torch")(reference_<func>) or the decorator form
@register_impl("<op>", backend="torch"). The backend is the second positional
argument or the backend keyword. The registered function must carry the
name of the template (reference_<func>): a reference registered under
another name (ref_x, x_torch) is reported at its registration.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(benchReferenceParams) },
	Run:      runBenchReference,
}

type benchReferenceParams struct {
	Register []string `toml:"register"` // qualified names of register_impl
	Backend  string   `toml:"backend"`  // the reference backend: "torch"
	Name     string   `toml:"name"`     // the reference function's name template, for messages
}

func runBenchReference(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*benchReferenceParams)
		if p == nil {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 5, rule) {
			x := sf.Index
			registered := map[string]bool{}
			// The function each registration hands over, by op name.
			refs := map[string][]namedNode{}
			for _, s := range x.Body() {
				for _, c := range x.CallsTo(s, p.Register) {
					name, ok1 := astutil.StringValue(astutil.CallArg(c, 0, "name"))
					be, ok2 := astutil.StringValue(astutil.CallArg(c, 1, "backend"))
					if ok1 && ok2 && be == p.Backend {
						registered[name] = true
						if fn := registeredFunc(s, c); fn != nil {
							refs[name] = append(refs[name], *fn)
						}
					}
				}
			}
			// A reference shared between ops is named after one of them
			// (reference_mla_decoding registered for mla_decoding and
			// mla_decoding_split_kv): it passes for all of them.
			shared := map[string]bool{}
			for _, op := range sf.Ops {
				for _, r := range refs[op.Name] {
					if astutil.DottedTail(r.name) == fill(p.Name, op) {
						shared[r.name] = true
					}
				}
			}
			for _, op := range sf.Ops {
				if !tab.IsAbout(sf.File, op) {
					continue // a baseline the file only calls
				}
				want := fill(p.Name, op)
				if registered[op.Name] {
					// Registered: under the template's name?
					// Another op's reference stands for this one only
					// when the file defines no reference of this op's
					// own: registering reference_l1_norm for l2_norm
					// beside an unregistered reference_l2_norm is a slip.
					_, ownDefined := x.Funcs[want]
					var other *namedNode
					for i, r := range refs[op.Name] {
						if astutil.DottedTail(r.name) == want || shared[r.name] && !ownDefined {
							other = nil
							break
						}
						if other == nil {
							other = &refs[op.Name][i]
						}
					}
					if other != nil {
						vars := map[string]string{"func": op.Func, "name": want, "backend": p.Backend, "other": other.name}
						text := "misnamed"
						if shared[other.name] && ownDefined {
							text = "other-op"
						}
						vars["problem"] = analysis.RenderText(rule, text, op.Name, vars)
						reportAt(pass, rule, op.Name, sf.File, other.node, vars, nil, nil)
					}
					continue
				}
				// A benchmark the op table gave the op (named after it,
				// calling it, or importing its backend function) that
				// registers no reference for it: the torch line has
				// nothing to run and the check nothing to compare with.
				// Anchor on the reference function when it exists (defined
				// but not registered), else at the top of the file.
				vars := map[string]string{"func": op.Func, "name": want, "backend": p.Backend, "other": ""}
				anchor, text := x.anchorStmt(), "undefined"
				if fd := x.Funcs[want]; fd != nil {
					anchor, text = defNode(fd), "unregistered"
				}
				vars["problem"] = analysis.RenderText(rule, text, op.Name, vars)
				reportAt(pass, rule, op.Name, sf.File, anchor, vars, nil, nil)
			}
		}
	}
	return nil, nil
}

// registeredFunc returns the function a registration call hands over, as a
// dotted name: `register_impl(...)(fn)` (c is the inner call of an outer
// call in s) or `@register_impl(...)` on a def. Nil for anything else (a
// lambda, a call's result).
func registeredFunc(s ast.Stmt, c *ast.Call) *namedNode {
	if fd, ok := s.(*ast.FunctionDef); ok {
		for _, d := range fd.DecoratorList {
			if d == c {
				return &namedNode{node: defNode(fd), name: fd.Name}
			}
		}
	}
	var out *namedNode
	ast.Inspect(s, func(n ast.Node) bool {
		outer, ok := n.(*ast.Call)
		if !ok || out != nil || outer.Func != c || len(outer.Args) != 1 {
			return out == nil
		}
		if d := astutil.DottedName(outer.Args[0]); d != "" {
			out = &namedNode{node: outer.Args[0], name: d}
		}
		return false
	})
	return out
}

func (p *benchReferenceParams) Validate() error {
	var err error
	if p.Backend == "" {
		err = errors.New("backend: want the reference backend")
	}
	return errors.Join(err, needList("register", p.Register))
}

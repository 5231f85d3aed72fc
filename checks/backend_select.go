package checks

import (
	"errors"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// BackendSelectAnalyzer implements kind "backend-select".
var BackendSelectAnalyzer = &Analyzer{
	Name:         "backend-select",
	Placeholders: []string{"op", "file", "func", "method", "missing", "select", "setup"},
	Texts:        []string{"no-select", "no-skip", "no-setup"},
	Doc: `Reports test methods that do not select the backend safely.

Each method matching the rule's methods globs (or a helper method or module
function it calls, one level down, or a pytest fixture it requests) must (1)
select the backend with one of the select functions, (2) skip when the
backend is unavailable: a skip call in the except handler of a try around
the select call, or in an if/else on an availability call (the else of "if
is_backend_available(backend):", or the body of "if ... not
is_backend_available(...):"), and (3) call self.setUp(). Aliases are
resolved: tilegym.set_backend and set_backend imported from tilegym.backend
are the same function. One finding per method names what is missing.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(BackendSelectParams) },
	Run:      runBackendSelect,
}

type BackendSelectParams struct {
	Methods   []string `toml:"methods"`   // globs of test method names
	Select    []string `toml:"select"`    // qualified names of the backend selection function
	Available []string `toml:"available"` // qualified names of the availability test
	Skip      []string `toml:"skip"`      // qualified names of the skip call
	Setup     []string `toml:"setup"`     // the per-test setup calls ("self.setUp")
	// Fixture names the pytest fixture decorator: the fixtures a method
	// requests run before it, so their bodies count as its own.
	Fixture []string `toml:"fixture"`
}

func runBackendSelect(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*BackendSelectParams)
		if p == nil {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 4, rule) {
			x := sf.Index
			for _, m := range x.testMethods(p.Methods, sf.Ops) {
				scopes := append([]funcScope{m}, x.helpers(m)...)
				for _, u := range x.fixtures(m, p.Fixture) {
					scopes = append(scopes, u.Scope)
				}
				var selects, guarded, setup bool
				for _, s := range scopes {
					if len(x.CallsTo(s.Def, p.Select)) > 0 {
						selects = true
					}
					if x.SkipsWhenUnavailable(s.Def.Body, p) {
						guarded = true
					}
					if len(x.CallsTo(s.Def, p.Setup)) > 0 {
						setup = true
					}
				}
				// One clause per thing missing, in this order, joined by commas.
				var missing []string
				op := sf.opOf(m)
				vars := map[string]string{"method": m.Def.Name, "func": op.Func, "select": shortName(p.Select), "setup": shortName(p.Setup)}
				for _, c := range []struct {
					done bool
					text string
				}{{selects, "no-select"}, {guarded, "no-skip"}, {setup, "no-setup"}} {
					if !c.done {
						missing = append(missing, analysis.RenderText(rule, c.text, op.Name, vars))
					}
				}
				if len(missing) > 0 {
					vars["missing"] = strings.Join(missing, ", ")
					reportAt(pass, rule, op.Name, sf.File, defNode(m.Def), vars, nil, nil)
				}
			}
		}
	}
	return nil, nil
}

// shortName is the last dotted part of the first name, for messages.
func shortName(names []string) string {
	if len(names) == 0 {
		return ""
	}
	n := names[0]
	if strings.HasPrefix(n, "self.") {
		return n
	}
	return astutil.DottedTail(n)
}

// SkipsWhenUnavailable reports whether a body (searched recursively) skips
// when the backend is unavailable or cannot be selected: a try around a
// select call with a skip in a handler, or an if on an availability call
// with a skip in the branch taken when it is unavailable.
func (x *pyIndex) SkipsWhenUnavailable(body []ast.Stmt, p *BackendSelectParams) bool {
	found := false
	for _, s := range body {
		ast.Inspect(s, func(n ast.Node) bool {
			if found {
				return false
			}
			switch s := n.(type) {
			case *ast.Try:
				sel := false
				for _, b := range s.Body {
					if len(x.CallsTo(b, p.Select)) > 0 {
						sel = true
					}
				}
				if sel {
					for _, h := range s.Handlers {
						for _, b := range h.Body {
							if len(x.CallsTo(b, p.Skip)) > 0 {
								found = true
							}
						}
					}
				}
			case *ast.If:
				avail := x.CallsTo(s.Test, p.Available)
				if len(avail) == 0 {
					return true
				}
				branch := s.Orelse
				if negated(s.Test, avail[0]) {
					branch = s.Body
				}
				for _, b := range branch {
					if len(x.CallsTo(b, p.Skip)) > 0 {
						found = true
					}
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return found
}

// negated reports whether call c occurs under a `not` in test.
func negated(test ast.Expr, c *ast.Call) bool {
	neg := false
	var walk func(e ast.Expr, under bool)
	walk = func(e ast.Expr, under bool) {
		switch e := e.(type) {
		case *ast.UnaryOp:
			walk(e.Operand, under != (e.Op == ast.Not))
		case *ast.BoolOp:
			for _, v := range e.Values {
				walk(v, under)
			}
		case *ast.Call:
			if e == c {
				neg = under
			}
		}
	}
	walk(test, false)
	return neg
}

func (p *BackendSelectParams) Validate() error {
	return errors.Join(needList("methods", p.Methods), needList("select", p.Select), needList("available", p.Available),
		needList("skip", p.Skip), needList("setup", p.Setup))
}

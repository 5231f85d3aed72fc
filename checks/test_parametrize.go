package checks

import (
	"errors"
	"strconv"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// TestParametrizeAnalyzer implements kind "test-parametrize".
var TestParametrizeAnalyzer = &Analyzer{
	Name:         "test-parametrize",
	Placeholders: []string{"op", "file", "func", "method", "var", "arg", "argnames", "problem"},
	Texts:        []string{"no-param", "written-out", "no-parametrize"},
	Doc: `Reports test methods not parametrized over the backend list.

Every method matching the rule's methods globs must carry (or its class must
carry) a @pytest.mark.parametrize decorator whose argument names include one
of the backend argument names (alone, "backend", or in a multi-name string
such as "dtype, backend") with values taken from the backend list variable
(the variable itself, or a name or expression built from it), and must
declare that argument as a parameter; or it must request (as a parameter) a
fixture of its class or module, decorated with one of the rule's fixture
names, whose params are taken from the backend list. When the file defines
no backend list (backend-list's finding) any values are accepted (for a
fixture: one named like a backend argument).`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(testParametrizeParams) },
	Run:      runTestParametrize,
}

type testParametrizeParams struct {
	Methods     []string `toml:"methods"`      // globs of test method names
	Decorator   []string `toml:"decorator"`    // qualified names of the parametrize decorator
	ArgNames    []string `toml:"arg_names"`    // accepted names of the backend argument
	BackendsVar string   `toml:"backends_var"` // the backend list variable
	// Fixture names the pytest fixture decorator: a method may instead
	// request a fixture parametrized over the backend list.
	Fixture []string `toml:"fixture"`
}

func runTestParametrize(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*testParametrizeParams)
		if p == nil {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 4, rule) {
			x := sf.Index
			for _, m := range x.testMethods(p.Methods, sf.Ops) {
				derived := backendDerivedNames(x, m.Class, p.BackendsVar)
				ok := false
				decs := m.Def.DecoratorList
				if m.Class != nil {
					// A parametrize on the class applies to every method.
					decs = append(append([]ast.Expr(nil), decs...), m.Class.DecoratorList...)
				}
				// The real reason, when a parametrize over the backend
				// argument exists (alone or combined: "backend,S,W") but
				// does not do: the method lacks the parameter, or the
				// values are not taken from the list.
				// problem is the text saying it, arg the argument and
				// argnames the parametrize's argument names (quoted).
				problem, arg, argnames := "", "", ""
				for _, dec := range decs {
					c, isCall := dec.(*ast.Call)
					if !isCall || !x.isName(c.Func, p.Decorator) {
						continue
					}
					a := parametrizedArg(c, p.ArgNames)
					if a == "" {
						continue
					}
					if !hasParam(m.Def, a) {
						problem, arg, argnames = "no-param", a, strconv.Quote(argNames(c))
						continue
					}
					vals := astutil.CallArg(c, 1, "argvalues")
					if len(derived) == 0 || mentionsAny(vals, derived) || x.callsDerived(vals, derived) {
						ok = true
						break
					}
					if problem == "" {
						problem, arg, argnames = "written-out", a, strconv.Quote(argNames(c))
					}
				}
				// A fixture parametrized over the backend list selects the
				// backend per test as the decorator does.
				for _, u := range x.fixtures(m, p.Fixture) {
					params := astutil.CallArg(u.Call, -1, "params")
					if params == nil {
						continue
					}
					if len(derived) == 0 && isArgName(u.Param, p.ArgNames) || len(derived) > 0 && mentionsAny(params, derived) {
						ok = true
					}
				}
				if !ok {
					op := sf.opOf(m)
					if problem == "" {
						problem, arg = "no-parametrize", firstOr(p.ArgNames, "")
					}
					vars := map[string]string{"method": m.Def.Name, "var": p.BackendsVar, "func": op.Func, "arg": arg, "argnames": argnames}
					vars["problem"] = analysis.RenderText(rule, problem, op.Name, vars)
					reportAt(pass, rule, op.Name, sf.File, defNode(m.Def), vars, nil, nil)
				}
			}
		}
	}
	return nil, nil
}

// argNames returns a parametrize call's argument names as written
// ("backend,S,W"), the names of a list joined by commas.
func argNames(c *ast.Call) string {
	e := astutil.CallArg(c, 0, "argnames")
	if s, ok := astutil.StringValue(e); ok {
		return s
	}
	var out []string
	if cs, ok := astutil.StringList(e); ok {
		for _, k := range cs {
			out = append(out, k.Value.(string))
		}
	}
	return strings.Join(out, ",")
}

// callsDerived reports whether e calls a module-level function of the file
// whose body mentions one of the backend-derived names (the values built
// by def cases(): return [(b, s) for b in _backends ...]), as a name
// assigned from such an expression counts.
func (x *pyIndex) callsDerived(e ast.Expr, derived map[string]bool) bool {
	if e == nil {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok && !found {
			if nm, ok := c.Func.(*ast.Name); ok {
				if fd := x.Funcs[nm.Id]; fd != nil {
					ast.Inspect(fd, func(n ast.Node) bool {
						if id, ok := n.(*ast.Name); ok && derived[id.Id] {
							found = true
						}
						return !found
					})
				}
			}
		}
		return !found
	})
	return found
}

func isArgName(name string, names []string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func hasParam(fd *ast.FunctionDef, name string) bool {
	for _, p := range astutil.Params(fd.Args) {
		if p.Name == name {
			return true
		}
	}
	return false
}

// backendDerivedNames returns the backend list variable and the names
// assigned from expressions that mention it (transitively), in the class
// body and at module level; nil when the variable is not defined there.
func backendDerivedNames(x *pyIndex, cls *ast.ClassDef, v string) map[string]bool {
	if v == "" {
		return nil
	}
	// Computed once per class and variable, as every test method of a
	// class asks the same (the class body's walk per method made a class
	// quadratic in its methods). The map is shared: callers only read it.
	k := derivedKey{cls, v}
	x.derivedMu.Lock()
	defer x.derivedMu.Unlock()
	if names, ok := x.derived[k]; ok {
		return names
	}
	names := deriveBackendNames(x, cls, v)
	if x.derived == nil {
		x.derived = map[derivedKey]map[string]bool{}
	}
	x.derived[k] = names
	return names
}

// deriveBackendNames computes backendDerivedNames (which memoizes it):
// the assignments of the class body and the module body, followed until
// no new name mentions the variable or a name derived from it.
func deriveBackendNames(x *pyIndex, cls *ast.ClassDef, v string) map[string]bool {
	var assigns []ast.Stmt
	collect := func(body []ast.Stmt) {
		astutil.EachTopLevel(body, func(s ast.Stmt) {
			switch s.(type) {
			case *ast.Assign, *ast.AugAssign, *ast.AnnAssign:
				assigns = append(assigns, s)
			}
		})
	}
	collect(x.Body())
	if cls != nil {
		collect(cls.Body)
	}
	names := map[string]bool{}
	for _, s := range assigns {
		for _, t := range assignTargets(s) {
			if t == v {
				names[v] = true
			}
		}
	}
	if !names[v] {
		return nil
	}
	for changed := true; changed; {
		changed = false
		for _, s := range assigns {
			if !mentionsAny(assignValue(s), names) {
				continue
			}
			for _, t := range assignTargets(s) {
				if !names[t] {
					names[t] = true
					changed = true
				}
			}
		}
	}
	return names
}

func (p *testParametrizeParams) Validate() error {
	var err error
	if p.BackendsVar == "" {
		err = errors.New("backends_var: want the backend list variable")
	}
	return errors.Join(needList("methods", p.Methods), needList("decorator", p.Decorator), needList("arg_names", p.ArgNames), err)
}

package checker

// Check kinds of Step 4 (tests): forbidden-import (S4.2), test-parametrize
// (S4.4), backend-select (S4.5) and test-compares (S4.6). backend-list
// (S4.3, S5.3) is in kind_backendlist.go.

import (
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// ---------------------------------------------------------------------------
// forbidden-import (S4.2)

// ForbiddenImportAnalyzer implements kind "forbidden-import".
var ForbiddenImportAnalyzer = &Analyzer{
	Name: "forbidden-import",
	Doc: `Reports imports of backend modules in an op's test or benchmark files.

A test must reach the op through the dispatcher (tilegym.ops, or the suite's
ops module) so that it exercises the backend selected with set_backend;
importing tilegym.ops.cutile.<module> bypasses dispatch. Every import
statement (and every call spelled with the full module path) whose module is
under one of the rule's modules is reported, once per file. "*" in a module
pattern matches one dotted segment ("tilegym.suites.*.cutile").`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(forbiddenImportParams) },
	Run:      runForbiddenImport,
}

type forbiddenImportParams struct {
	Step    int      `toml:"step"`    // 4 (tests) or 5 (benchmarks)
	Modules []string `toml:"modules"` // dotted module patterns that must not be imported
}

func init() { Register(ForbiddenImportAnalyzer) }

func runForbiddenImport(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*forbiddenImportParams)
		if p == nil || len(p.Modules) == 0 {
			continue
		}
		for _, sf := range stepFiles(pass, tab, p.Step, rule) {
			badLocal := map[string]bool{}
			report := func(n ast.Node, module, name string) {
				pass.Reportf(rule, sf.Primary.Name, sf.File, n, map[string]string{
					"module": module, "name": name, "func": sf.Primary.Func})
			}
			qs := sf.File.nodeCalleesQ()
			for ni, n := range sf.File.nodes() {
				switch s := n.(type) {
				case *ast.Import:
					for _, a := range s.Names {
						if a == nil {
							continue
						}
						if _, bad := dottedUnder(a.Name, p.Modules); bad {
							local, _, _ := strings.Cut(a.Name, ".")
							if a.Asname != nil {
								local = *a.Asname
							}
							badLocal[local] = true
							report(s, a.Name, lastDotted(a.Name))
							break
						}
					}
				case *ast.ImportFrom:
					base := ImportFromModule(PackagePath(sf.File.Path), s)
					for _, a := range s.Names {
						if a == nil {
							continue
						}
						full := joinDotted(base, a.Name)
						if _, bad := dottedUnder(full, p.Modules); bad {
							local := a.Name
							if a.Asname != nil {
								local = *a.Asname
							}
							badLocal[local] = true
							report(s, base, a.Name)
							break
						}
					}
				case *ast.Call:
					// qs[ni] is "" exactly when DottedName(s.Func) is.
					q := qs[ni]
					head, _, _ := strings.Cut(chainHead(s.Func), ".")
					if q == "" || badLocal[head] {
						continue
					}
					if q != "" {
						if _, bad := dottedUnder(q, p.Modules); bad {
							i := strings.LastIndexByte(q, '.')
							report(s.Func, q[:max(i, 0)], lastDotted(q))
						}
					}
				}
			}
		}
	}
	return nil, nil
}

func lastDotted(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// ---------------------------------------------------------------------------
// test-parametrize (S4.4)

// TestParametrizeAnalyzer implements kind "test-parametrize".
var TestParametrizeAnalyzer = &Analyzer{
	Name: "test-parametrize",
	Doc: `Reports test methods not parametrized over the backend list.

Every method matching the rule's methods globs must carry (or its class
must carry) a @pytest.mark.parametrize decorator whose argument names include one of the
backend argument names (alone, "backend", or in a multi-name string such as
"dtype, backend") with values taken from the backend list variable (the
variable itself, or a name or expression built from it), and must declare that
argument as a parameter. When the file defines no backend list (reported by
S4.3) any values are accepted.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(testParametrizeParams) },
	Run:      runTestParametrize,
}

type testParametrizeParams struct {
	Methods     []string `toml:"methods"`      // globs of test method names
	Decorator   []string `toml:"decorator"`    // qualified names of the parametrize decorator
	ArgNames    []string `toml:"arg_names"`    // accepted names of the backend argument
	BackendsVar string   `toml:"backends_var"` // the backend list variable
}

func init() { Register(TestParametrizeAnalyzer) }

func runTestParametrize(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*testParametrizeParams)
		if p == nil {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 4, rule) {
			x := sf.Index
			for _, m := range x.matchingMethods(p.Methods) {
				derived := backendDerivedNames(x, m.Class, p.BackendsVar)
				ok := false
				decs := m.Def.DecoratorList
				if m.Class != nil {
					// A parametrize on the class applies to every method.
					decs = append(append([]ast.Expr(nil), decs...), m.Class.DecoratorList...)
				}
				for _, dec := range decs {
					c, isCall := dec.(*ast.Call)
					if !isCall || !x.isName(c.Func, p.Decorator) {
						continue
					}
					arg := parametrizedArg(c, p.ArgNames)
					if arg == "" || !hasParam(m.Def, arg) {
						continue
					}
					vals := CallArg(c, 1, "argvalues")
					if len(derived) == 0 || mentionsAny(vals, derived) {
						ok = true
						break
					}
				}
				if !ok {
					pass.Reportf(rule, sf.Primary.Name, sf.File, defNode(m.Def), map[string]string{
						"method": m.Def.Name, "var": p.BackendsVar, "func": sf.Primary.Func})
				}
			}
		}
	}
	return nil, nil
}

// parametrizedArg returns the first of names among the argument names of a
// parametrize call ("backend", "dtype, backend", ["dtype", "backend"]).
func parametrizedArg(c *ast.Call, names []string) string {
	e := CallArg(c, 0, "argnames")
	var list []string
	if s, ok := StringValue(e); ok {
		for _, part := range strings.Split(s, ",") {
			list = append(list, strings.TrimSpace(part))
		}
	} else if cs, ok := StringList(e); ok {
		for _, k := range cs {
			list = append(list, strings.TrimSpace(k.Value.(string)))
		}
	}
	for _, l := range list {
		for _, n := range names {
			if l == n {
				return l
			}
		}
	}
	return ""
}

func hasParam(fd *ast.FunctionDef, name string) bool {
	for _, p := range Params(fd.Args) {
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
	var assigns []ast.Stmt
	collect := func(body []ast.Stmt) {
		eachTopLevel(body, func(s ast.Stmt) {
			switch s.(type) {
			case *ast.Assign, *ast.AugAssign, *ast.AnnAssign:
				assigns = append(assigns, s)
			}
		})
	}
	collect(x.body())
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

func assignTargets(s ast.Stmt) []string {
	var out []string
	var bind func(e ast.Expr)
	bind = func(e ast.Expr) {
		switch e := e.(type) {
		case *ast.Name:
			out = append(out, e.Id)
		case *ast.Tuple:
			for _, x := range e.Elts {
				bind(x)
			}
		case *ast.List:
			for _, x := range e.Elts {
				bind(x)
			}
		}
	}
	switch s := s.(type) {
	case *ast.Assign:
		for _, t := range s.Targets {
			bind(t)
		}
	case *ast.AugAssign:
		bind(s.Target)
	case *ast.AnnAssign:
		bind(s.Target)
	}
	return out
}

func assignValue(s ast.Stmt) ast.Expr {
	switch s := s.(type) {
	case *ast.Assign:
		return s.Value
	case *ast.AugAssign:
		return s.Value
	case *ast.AnnAssign:
		return s.Value
	}
	return nil
}

// mentionsAny reports whether a Name of names occurs in e.
func mentionsAny(e ast.Expr, names map[string]bool) bool {
	if e == nil {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok && names[nm.Id] {
			found = true
		}
		return !found
	})
	return found
}

// ---------------------------------------------------------------------------
// backend-select (S4.5)

// BackendSelectAnalyzer implements kind "backend-select".
var BackendSelectAnalyzer = &Analyzer{
	Name: "backend-select",
	Doc: `Reports test methods that do not select the backend safely.

Each method matching the rule's methods globs (or a helper method or module
function it calls, one level down) must (1) select the backend with one of
the select functions, (2) skip when the backend is unavailable: a skip call
in the except handler of a try around the select call, or in an if/else on
an availability call (the else of "if is_backend_available(backend):", or
the body of "if ... not is_backend_available(...):"), and (3) call
self.setUp(). Aliases are resolved: tilegym.set_backend and set_backend
imported from tilegym.backend are the same function. One finding per method
names what is missing.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(backendSelectParams) },
	Run:      runBackendSelect,
}

type backendSelectParams struct {
	Methods   []string `toml:"methods"`   // globs of test method names
	Select    []string `toml:"select"`    // qualified names of the backend selection function
	Available []string `toml:"available"` // qualified names of the availability test
	Skip      []string `toml:"skip"`      // qualified names of the skip call
	Setup     []string `toml:"setup"`     // the per-test setup calls ("self.setUp")
}

func init() { Register(BackendSelectAnalyzer) }

func runBackendSelect(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*backendSelectParams)
		if p == nil {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 4, rule) {
			x := sf.Index
			for _, m := range x.matchingMethods(p.Methods) {
				scopes := append([]funcScope{m}, x.helpers(m)...)
				var selects, guarded, setup bool
				for _, s := range scopes {
					if len(x.callsTo(s.Def, p.Select)) > 0 {
						selects = true
					}
					if x.skipsWhenUnavailable(s.Def.Body, p) {
						guarded = true
					}
					if len(x.callsTo(s.Def, p.Setup)) > 0 {
						setup = true
					}
				}
				var missing []string
				if !selects {
					missing = append(missing, "select the backend with "+shortName(p.Select))
				}
				if !guarded {
					missing = append(missing, "skip (pytest.skip) when the backend is unavailable or "+shortName(p.Select)+" fails")
				}
				if !setup {
					missing = append(missing, "call "+shortName(p.Setup)+"()")
				}
				if len(missing) > 0 {
					pass.Reportf(rule, sf.Primary.Name, sf.File, defNode(m.Def), map[string]string{
						"method": m.Def.Name, "missing": strings.Join(missing, ", "), "func": sf.Primary.Func})
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
	return lastDotted(n)
}

// skipsWhenUnavailable reports whether a body (searched recursively) skips
// when the backend is unavailable or cannot be selected: a try around a
// select call with a skip in a handler, or an if on an availability call
// with a skip in the branch taken when it is unavailable.
func (x *pyIndex) skipsWhenUnavailable(body []ast.Stmt, p *backendSelectParams) bool {
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
					if len(x.callsTo(b, p.Select)) > 0 {
						sel = true
					}
				}
				if sel {
					for _, h := range s.Handlers {
						for _, b := range h.Body {
							if len(x.callsTo(b, p.Skip)) > 0 {
								found = true
							}
						}
					}
				}
			case *ast.If:
				avail := x.callsTo(s.Test, p.Available)
				if len(avail) == 0 {
					return true
				}
				branch := s.Orelse
				if negated(s.Test, avail[0]) {
					branch = s.Body
				}
				for _, b := range branch {
					if len(x.callsTo(b, p.Skip)) > 0 {
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

// ---------------------------------------------------------------------------
// test-compares (S4.6)

// TestComparesAnalyzer implements kind "test-compares".
var TestComparesAnalyzer = &Analyzer{
	Name: "test-compares",
	Doc: `Reports test methods that assert nothing, and test files that never compare with a reference.

Each method matching the rule's methods globs must check something: call one
of the compare functions (self.assertCorrectness, torch.testing.assert_close,
torch.allclose, ...) or one of the check functions (pytest.raises), or hold an
assert statement; in its body, a function nested in it, or a helper method or
module function it calls (one level down). And at least one such method of
the file must call a compare function: a file whose tests only check shapes
or that gradients exist never compares the op with its reference. A method
that asserts nothing passes whatever the kernel computes.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(testComparesParams) },
	Run:      runTestCompares,
}

type testComparesParams struct {
	Methods []string `toml:"methods"` // globs of test method names
	Compare []string `toml:"compare"` // qualified names of the comparisons with a reference
	Checks  []string `toml:"checks"`  // other calls that assert something (pytest.raises)
}

func init() { Register(TestComparesAnalyzer) }

func runTestCompares(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*testComparesParams)
		if p == nil {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 4, rule) {
			x := sf.Index
			methods := x.matchingMethods(p.Methods)
			compared := false
			var silent []funcScope
			for _, m := range methods {
				scopes := append([]funcScope{m}, x.helpers(m)...)
				compares, asserts := false, false
				for _, s := range scopes {
					if len(x.callsTo(s.Def, p.Compare)) > 0 {
						compares = true
					}
					if len(x.callsTo(s.Def, p.Checks)) > 0 || hasAssert(s.Def.Body) {
						asserts = true
					}
				}
				compared = compared || compares
				if !compares && !asserts {
					silent = append(silent, m)
				}
			}
			if !compared && len(methods) > 0 {
				// One finding for the file: none of its tests compares.
				pass.Reportf(rule, sf.Primary.Name, sf.File, defNode(methods[0].Def), map[string]string{
					"method": methods[0].Def.Name, "func": sf.Primary.Func,
					"problem": "and every other test method of the file compare nothing with a reference"})
				continue
			}
			for _, m := range silent {
				pass.Reportf(rule, sf.Primary.Name, sf.File, defNode(m.Def), map[string]string{
					"method": m.Def.Name, "func": sf.Primary.Func, "problem": "asserts nothing"})
			}
		}
	}
	return nil, nil
}

// hasAssert reports whether a body holds an assert statement (nested
// functions included).
func hasAssert(body []ast.Stmt) bool {
	found := false
	for _, s := range body {
		ast.Inspect(s, func(n ast.Node) bool {
			if _, ok := n.(*ast.Assert); ok {
				found = true
			}
			return !found
		})
	}
	return found
}

package checks

import (
	"errors"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

// BackendListAnalyzer implements kind "backend-list".
var BackendListAnalyzer = &Analyzer{
	Name:         "backend-list",
	Placeholders: []string{"op", "file", "func", "missing", "required", "var", "methods", "repair", "assignment", "class"},
	Texts:        []string{"parametrized-otherwise", "fix"},
	TextsFor:     backendListTexts,
	Doc: `Reports a missing list variable, or one without the required entries.

The rule's variable (one of vars, the first preferred) must be assigned
where the rule says: with methods globs, in the body of each class holding
a matching test method or at module level (the class sees both); without,
at module level. Its entries are read from every assignment, augmented
assignment, concatenation and in-place extension (append, insert, extend)
of the variable: string elements, and the first element of tuple elements;
conditional elements (x if cond else None) count with their branches. With
config, a file without the variable may list its tuples in a provider
function a config-building function calls. Every required entry ("a|b":
either) must be among them.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(backendListParams) },
	Run:      runBackendList,
}

// backendListTexts: only a rule with test methods (a list missing from a
// test class) completes its message with the methods' repair, and has a
// fix (adding the list to the class).
func backendListTexts(r *rules.Rule) []string {
	if p, _ := r.Params.(*backendListParams); p != nil && len(p.Methods) > 0 {
		return []string{"parametrized-otherwise", "fix"}
	}
	return nil
}

type backendListParams struct {
	Step int `toml:"step"` // 4 (tests) or 5 (benchmarks)
	// Vars are the accepted names of the variable, the first one preferred:
	// ["_backends"], ["ALL_BACKENDS", "ALL_CONFIGS"].
	Vars []string `toml:"vars"`
	// Required are the entries it must contain; "a|b" accepts either.
	Required []string `toml:"required"`
	// Methods, when set, are globs of the test methods whose classes must
	// see the variable (class body or module level).
	Methods []string `toml:"methods"`
	// Config, when set, are the qualified names of the config constructor
	// (triton.testing.Benchmark): a file without the variable may list its
	// backends in a provider function that a config-building function calls
	// (get_providers()); its backend tuples are read instead.
	Config []string `toml:"config"`
	// ArgNames are the backend argument names of the test methods'
	// parametrize (test-parametrize's arg_names). Adding the list to a
	// class whose methods parametrize one over values that do not name the
	// list would make test-parametrize reject them: such a class gets no
	// fix, since --fix must leave nothing worse.
	ArgNames []string `toml:"arg_names"`
}

func runBackendList(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*backendListParams)
		if p == nil || len(p.Vars) == 0 {
			continue
		}
		for _, sf := range stepFiles(pass, tab, p.Step, rule) {
			x := sf.Index
			module := listAssigns(x.Body(), p.Vars)
			// op is the op the finding belongs to: the class's in a file
			// about several ops.
			op := sf.Primary
			// repair completes the message when defining the list alone
			// is not the whole repair: methods parametrize backend over
			// a list written out.
			repair, methods := "", ""
			// report reports the finding, with a fix adding the
			// statement assignment to the class named class when edits
			// are set.
			report := func(n ast.Node, missing []string, assignment, class string, edits []analysis.TextEdit) {
				vars := map[string]string{
					"var": p.Vars[0], "missing": quoteList(missing), "required": quoteList(firstAlternatives(p.Required)), "func": op.Func, "methods": methods, "repair": repair,
					"assignment": assignment, "class": class}
				reportAt(pass, rule, op.Name, sf.File, n, vars, nil, ruleFix(rule, "fix", op.Name, vars, edits))
			}
			// cls, when not nil, is the test class the list is missing from.
			check := func(assigns []ast.Stmt, anchor ast.Node, cls *ast.ClassDef) {
				if len(assigns) == 0 {
					var edits []analysis.TextEdit
					assignment, class := "", ""
					repair, methods = "", ""
					if cls != nil {
						// Methods that parametrize backend over a
						// written-out list must use the new list too
						// (else TG404 reports them): say so, and offer no
						// fix, which would do only half of it.
						if ms := parametrizedOtherwise(x, cls, p, sf.Ops); len(ms) > 0 {
							methods = strings.Join(ms, ", ")
							repair = analysis.RenderText(rule, "parametrized-otherwise", op.Name, map[string]string{"var": p.Vars[0], "methods": methods})
						} else {
							assignment, class = listAssignment(p.Vars[0], firstAlternatives(p.Required)), cls.Name
							edits = classListEdits(sf.File, cls, assignment)
						}
					}
					report(anchor, firstAlternatives(p.Required), assignment, class, edits)
					return
				}
				have := map[string]bool{}
				for _, s := range assigns {
					for _, e := range stmtEntries(s) {
						have[e] = true
					}
				}
				if missing := missingRequired(p.Required, have); len(missing) > 0 {
					report(assigns[0], missing, "", "", nil)
				}
			}
			if len(p.Methods) == 0 {
				if len(module) == 0 && len(p.Config) > 0 {
					if prov := x.providerFuncs(p.Config); len(prov) > 0 {
						have := map[string]bool{}
						for _, fd := range prov {
							for _, e := range tupleEntries(fd) {
								have[e] = true
							}
						}
						if missing := missingRequired(p.Required, have); len(missing) > 0 {
							report(defNode(prov[0]), missing, "", "", nil)
						}
						continue
					}
				}
				if len(module) == 0 && p.Step == 5 {
					module = x.siblingBackendList(pass.Repo, p.Vars)
				}
				check(module, x.anchorStmt(), nil)
				continue
			}
			classes := map[*ast.ClassDef]bool{}
			moduleFuncs := false
			for _, m := range x.testMethods(p.Methods, sf.Ops) {
				if m.Class != nil {
					classes[m.Class] = true
				} else {
					moduleFuncs = true
				}
			}
			for _, c := range x.Classes {
				if !classes[c] {
					continue
				}
				op = sf.opOf(funcScope{Class: c})
				own := listAssigns(c.Body, p.Vars)
				if len(own) == 0 {
					check(module, classNode(c), c)
				} else {
					check(append(own, module...), nil, nil)
				}
			}
			op = sf.Primary
			if moduleFuncs && len(classes) == 0 {
				check(module, x.anchorStmt(), nil)
			}
		}
	}
	return nil, nil
}

// parametrizedOtherwise returns the test methods of cls (the class name
// when it is cls itself) that parametrize a backend argument (p.ArgNames)
// over values that do not name the list variable: with the list added,
// test-parametrize judges those values against it and reports the method.
func parametrizedOtherwise(x *pyIndex, cls *ast.ClassDef, p *backendListParams, ops []*optable.Op) []string {
	if len(p.ArgNames) == 0 {
		return nil
	}
	vars := map[string]bool{}
	for _, v := range p.Vars {
		vars[v] = true
	}
	other := func(decs []ast.Expr) bool {
		for _, dec := range decs {
			if c, ok := dec.(*ast.Call); ok && parametrizedArg(c, p.ArgNames) != "" && !mentionsAny(astutil.CallArg(c, 1, "argvalues"), vars) {
				return true
			}
		}
		return false
	}
	if other(cls.DecoratorList) {
		return []string{cls.Name}
	}
	var out []string
	for _, m := range x.testMethods(p.Methods, ops) {
		if m.Class == cls && other(m.Def.DecoratorList) {
			out = append(out, m.Def.Name)
		}
	}
	return out
}

// stmtEntries returns the backend entries an assignment or an in-place
// extension of a backend list adds.
func stmtEntries(s ast.Stmt) []string {
	if v, added := listExtension(s); v != "" {
		return backendEntries(added)
	}
	return backendEntries(assignValue(s))
}

// backendEntries returns the backend names an expression lists: string
// elements of lists and tuples, the first element of tuple elements, both
// branches of conditional elements, both sides of a concatenation.
func backendEntries(e ast.Expr) []string {
	var out []string
	var elem func(e ast.Expr)
	var list func(e ast.Expr)
	elem = func(e ast.Expr) {
		switch e := e.(type) {
		case *ast.Constant:
			if s, ok := e.Value.(string); ok {
				out = append(out, s)
			}
		case *ast.Tuple:
			if len(e.Elts) > 0 {
				if s, ok := astutil.StringValue(e.Elts[0]); ok {
					out = append(out, s)
				}
			}
		case *ast.IfExp:
			elem(e.Body)
			elem(e.Orelse)
		case *ast.Starred:
			list(e.Value)
		}
	}
	list = func(e ast.Expr) {
		switch e := e.(type) {
		case *ast.List:
			for _, x := range e.Elts {
				elem(x)
			}
		case *ast.Tuple:
			for _, x := range e.Elts {
				elem(x)
			}
		case *ast.BinOp:
			list(e.Left)
			list(e.Right)
		case *ast.IfExp:
			list(e.Body)
			list(e.Orelse)
		}
	}
	list(e)
	return out
}

// firstAlternatives keeps the first of each "a|b" alternative.
func firstAlternatives(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i], _, _ = strings.Cut(x, "|")
	}
	return out
}

// providerFuncs returns the module-level functions that the functions
// building a config (a call to one of config) call, which themselves build
// no config: the providers of the backend lines.
func (x *pyIndex) providerFuncs(config []string) []*ast.FunctionDef {
	var out []*ast.FunctionDef
	seen := map[*ast.FunctionDef]bool{}
	for _, s := range x.Body() {
		fd, ok := s.(*ast.FunctionDef)
		if !ok || len(x.CallsTo(fd, config)) == 0 {
			continue
		}
		for _, h := range x.helpers(funcScope{Def: fd}) {
			if !seen[h.Def] && len(x.CallsTo(h.Def, config)) == 0 {
				seen[h.Def] = true
				out = append(out, h.Def)
			}
		}
	}
	return out
}

// tupleEntries returns the first elements of the tuple literals of a
// function that start with a string and have more elements: the backend
// entries ("cutile", "CuTile", ("orange", "-")).
func tupleEntries(fd *ast.FunctionDef) []string {
	var out []string
	ast.Inspect(fd, func(n ast.Node) bool {
		if t, ok := n.(*ast.Tuple); ok && len(t.Elts) >= 2 {
			if s, ok := astutil.StringValue(t.Elts[0]); ok {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// missingRequired returns the required backends that have no entry: each
// requirement is a "|"-separated list of alternatives ("torch|pytorch"), and
// a missing one is named by its first alternative.
func missingRequired(required []string, have map[string]bool) []string {
	var missing []string
	for _, r := range required {
		alts := strings.Split(r, "|")
		ok := false
		for _, alt := range alts {
			ok = ok || have[alt]
		}
		if !ok {
			missing = append(missing, alts[0])
		}
	}
	return missing
}

func (p *backendListParams) Validate() error {
	return errors.Join(validStep(p.Step), needList("vars", p.Vars), needList("required", p.Required))
}

// siblingBackendList returns the backend list assignments of a sibling
// benchmark this file takes the list from: it imports the list itself, or
// a function of the sibling that reads it (from bench_rope import
// get_supported_backends). Benchmarks only; read statically, never run.
func (x *pyIndex) siblingBackendList(repo *optable.Repo, vs []string) []ast.Stmt {
	set := map[string]bool{}
	for _, v := range vs {
		set[v] = true
	}
	for _, si := range x.siblingImports(repo) {
		sx := newPyIndex(si.File)
		assigns := listAssigns(sx.Body(), vs)
		if len(assigns) == 0 {
			continue
		}
		if set[si.Name] {
			return assigns
		}
		if fd := sx.Funcs[si.Name]; fd != nil && mentionsAnyStmt(fd.Body, set) {
			return assigns
		}
	}
	return nil
}

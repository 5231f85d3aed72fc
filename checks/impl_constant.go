package checks

import (
	"fmt"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// ImplConstantAnalyzer implements kind "impl-constant".
var ImplConstantAnalyzer = opKind(&Analyzer{
	Doc: `Reports kernel parameters used in compile-time positions that are not annotated as constants.

In every kernel (a function decorated with one of "kernel") of a cuTile
module, the parameters used in the compile-time argument positions listed
in "const_args" ("arange:0", "load:shape", ...; names relative to
"tile_module") are annotated with one of "constant" (or a module-level
alias of it, e.g. ConstInt = ct.Constant[int]). A parameter with no
annotation, or annotated int, gets a fix annotating it {annotation}: the
first of "constant" as the module spells it, of int (ct.Constant[int]).`,
	Name:         "impl-constant",
	Placeholders: []string{"op", "file", "constant", "kernel", "param", "use", "annotation"},
	Texts:        []string{"fix", "related-use"},
}, runImplConstant)

type ImplConstantParams struct {
	Kernel     []string `toml:"kernel"`
	TileModule string   `toml:"tile_module"`
	Constant   []string `toml:"constant"`
	ConstArgs  []string `toml:"const_args"`
}

func (p *ImplConstantParams) Validate() error {
	if err := needEntries("kernel", p.Kernel); err != nil {
		return err
	}
	if len(p.Constant) == 0 || p.TileModule == "" {
		return fmt.Errorf("constant and tile_module: want both set")
	}
	for _, a := range p.ConstArgs {
		fn, spec, ok := strings.Cut(a, ":")
		if !ok || fn == "" || spec == "" {
			return fmt.Errorf("const_args entry %q: want \"function:position-or-keyword[,...]\"", a)
		}
	}
	return nil
}

func runImplConstant(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *ImplConstantParams) {
	args := parseConstArgs(p.ConstArgs)
	for _, m := range wantedModules(pass, tab) {
		checkConstantParams(pass, rule, p, args, m)
	}
}

// constArg is one compile-time argument position: a function of the tile
// module and a positional index and/or keyword.
type constArg struct {
	fn  string
	pos int // -1 for none, allPositional for every positional argument
	kw  string
}

// allPositional is the position "*" of a const_args entry: every
// positional argument ("arange:*" covers ct.arange(0, BLOCK)).
const allPositional = -2

func parseConstArgs(list []string) []constArg {
	var out []constArg
	for _, s := range list {
		fn, spec, ok := strings.Cut(s, ":")
		if !ok {
			continue
		}
		for _, part := range strings.Split(spec, ",") {
			part = strings.TrimSpace(part)
			ca := constArg{fn: fn, pos: -1}
			if n, err := atoiStrict(part); err == nil {
				ca.pos = n
			} else if part == "*" {
				ca.pos = allPositional
			} else {
				ca.kw = part
			}
			out = append(out, ca)
		}
	}
	return out
}

// constantAliases returns the names bound at module level to a constant
// annotation (ConstInt = ct.Constant[int]), including those imported from
// another module of the snapshot that binds them so.
func constantAliases(repo *optable.Repo, f *source.File, im *astutil.Imports, constant []string, depth int) map[string]bool {
	out := map[string]bool{}
	if f == nil || f.AST == nil || f.AST.Module == nil {
		return out
	}
	astutil.EachTopLevel(f.AST.Module.Body, func(s ast.Stmt) {
		var target ast.Expr
		var value ast.Expr
		switch s := s.(type) {
		case *ast.Assign:
			if len(s.Targets) == 1 {
				target, value = s.Targets[0], s.Value
			}
		case *ast.AnnAssign:
			target, value = s.Target, s.Value
		}
		nm, ok := target.(*ast.Name)
		if !ok || value == nil {
			return
		}
		if isConstantAnnotation(im, value, constant, nil) {
			out[nm.Id] = true
		}
	})
	if depth > 0 {
		for local, q := range im.Local {
			i := strings.LastIndexByte(q, '.')
			if i < 0 || out[local] {
				continue
			}
			mod, name := q[:i], q[i+1:]
			other := repo.File("src/" + strings.ReplaceAll(mod, ".", "/") + ".py")
			if other == nil {
				other = repo.File(strings.ReplaceAll(mod, ".", "/") + ".py")
			}
			if other == nil || other.AST == nil {
				continue
			}
			if constantAliases(repo, other, other.Imports(), constant, depth-1)[name] {
				out[local] = true
			}
		}
	}
	return out
}

// isConstantAnnotation reports whether an annotation is Constant[...] of
// the tile module, or an alias of it.
func isConstantAnnotation(im *astutil.Imports, e ast.Expr, constant []string, aliases map[string]bool) bool {
	switch e := e.(type) {
	case *ast.Subscript:
		return im.Is(e.Value, constant)
	case *ast.Name:
		return aliases[e.Id] || im.Is(e, constant)
	case *ast.Attribute:
		return im.Is(e, constant)
	case *ast.Constant:
		// A string annotation: "ct.Constant[int]".
		if s, ok := e.Value.(string); ok {
			head, _, _ := strings.Cut(s, "[")
			if aliases[head] {
				return true
			}
			q, _ := im.Resolve(nameExpr(head))
			for _, c := range constant {
				if q == c {
					return true
				}
			}
		}
	}
	return false
}

// nameExpr builds a Name/Attribute chain for a dotted name.
func nameExpr(dotted string) ast.Expr {
	parts := strings.Split(dotted, ".")
	var e ast.Expr = &ast.Name{Id: parts[0]}
	for _, p := range parts[1:] {
		e = &ast.Attribute{Value: e, Attr: p}
	}
	return e
}

func checkConstantParams(pass *Pass, rule *rules.Rule, p *ImplConstantParams, args []constArg, m *implModule) {
	im := m.file.Imports()
	aliases := constantAliases(pass.Repo, m.file, im, p.Constant, 1)
	reported := map[*ast.Arg]bool{}
	targets := make([]string, len(args))
	for i, ca := range args {
		targets[i] = astutil.JoinDotted(p.TileModule, ca.fn)
	}
	for _, kd := range kernelDefs(m.file, im, p.Kernel) {
		params := map[string]*ast.Arg{}
		for _, prm := range astutil.Params(kd.Args) {
			if prm.Kind != astutil.VarPositional && prm.Kind != astutil.VarKeyword {
				params[prm.Name] = prm.Arg
			}
		}
		// The calls of the kernel in source order, with their callees.
		calls, cs := m.file.CallsIn(kd), source.Callees(m.file, kd)
		for ci, c := range calls {
			q := cs[ci].Q
			for ai, ca := range args {
				if q != targets[ai] {
					continue
				}
				var cargs []ast.Expr
				switch {
				case ca.pos == allPositional:
					for _, a := range c.Args {
						if _, star := a.(*ast.Starred); !star {
							cargs = append(cargs, a)
						}
					}
				case ca.pos >= 0:
					cargs = append(cargs, astutil.CallArg(c, ca.pos, ""))
				case ca.kw != "":
					cargs = append(cargs, astutil.CallArg(c, -1, ca.kw))
				}
				for _, arg := range cargs {
					if arg == nil {
						continue
					}
					ast.Inspect(arg, func(x ast.Node) bool {
						nm, ok := x.(*ast.Name)
						if !ok {
							if _, ok := x.(*ast.Attribute); ok {
								return false // x.shape: an attribute of a value, not a parameter
							}
							return true
						}
						a := params[nm.Id]
						if a == nil || reported[a] {
							return true
						}
						if a.Annotation != nil && isConstantAnnotation(im, a.Annotation, p.Constant, aliases) {
							return true
						}
						reported[a] = true
						ann := constantAnnotation(im, p.Constant)
						vars := map[string]string{
							"param": nm.Id, "kernel": kd.Name, "use": astutil.DottedTail(ca.fn), "constant": firstOr(p.Constant, ""), "annotation": ann,
						}
						reportAt(pass, rule, m.impls[0].Op, m.file, a, vars, []analysis.Related{{File: m.file.Path, Pos: nm.Pos(), End: nm.End(), Message: analysis.RenderText(rule, "related-use", m.impls[0].Op, vars)}},
							ruleFix(rule, "fix", m.impls[0].Op, vars, constantEdits(m.file, a, ann)))
						return true
					})
				}
			}
		}
	}
}

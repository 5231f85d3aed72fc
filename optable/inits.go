package optable

// The cuTile packages' __init__.py files: the backend block guarded by the
// cuTile availability check, the modules and functions they import, __all__.

import (
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// IsBackendCheck reports whether e is `is_backend_available("<backend>")`
// (however is_backend_available is imported).
func IsBackendCheck(im *astutil.Imports, e ast.Expr, names []string, backend string) bool {
	c, ok := im.CallTo(e, names)
	if !ok {
		return false
	}
	s, ok := astutil.StringValue(astutil.CallArg(c, 0, "backend"))
	return ok && s == backend
}

func (b *opTableBuilder) findInits() {
	for _, f := range b.files() {
		if path.Base(f.Path) != "__init__.py" {
			continue
		}
		dir := path.Dir(f.Path)
		_, sm, ok := b.cutileRootOf(f.Path)
		if !ok && b.cutileRoots[dir].Scope != nil {
			sm, ok = b.cutileRoots[dir], true
		}
		if !ok {
			continue
		}
		b.table.Inits = append(b.table.Inits, b.parseInit(f, sm))
	}
}

// guardOf tells whether an if test guards its body with the cuTile
// availability check (1: `is_backend_available("cutile")`, also as a term
// of an `and`), its else branch (-1: `not is_backend_available("cutile")`),
// or neither (0).
func guardOf(im *astutil.Imports, test ast.Expr, names *layout.Names) int {
	switch t := test.(type) {
	case *ast.UnaryOp:
		if t.Op == ast.Not && IsBackendCheck(im, t.Operand, names.BackendAvailable, names.CuTileBackend) {
			return -1
		}
	case *ast.BoolOp:
		if t.Op == ast.And {
			for _, v := range t.Values {
				if IsBackendCheck(im, v, names.BackendAvailable, names.CuTileBackend) {
					return 1
				}
			}
		}
	default:
		if IsBackendCheck(im, test, names.BackendAvailable, names.CuTileBackend) {
			return 1
		}
	}
	return 0
}

// parseInit reads a cuTile package __init__.py: the backend block, the
// module and function imports (at top level or in the block, not in its
// else branch) and __all__.
func (b *opTableBuilder) parseInit(f *source.File, sm layout.ScopeMatch) *Init {
	im := b.importsOf(f)
	in := &Init{File: f, Scope: sm.Scope, Suite: sm.Suite, InBlock: map[ast.Node]bool{}}
	dir := path.Dir(f.Path)
	var visit func(body []ast.Stmt, inBlock bool)
	visit = func(body []ast.Stmt, inBlock bool) {
		for _, s := range body {
			switch s := s.(type) {
			case *ast.If:
				if in.Block != nil {
					continue
				}
				switch guardOf(im, s.Test, b.names) {
				case 1:
					in.Block, in.BlockBody = s, s.Body
					visit(s.Body, true)
				case -1:
					in.Block, in.BlockBody = s, s.Orelse
					visit(s.Orelse, true)
				}
			case *ast.Try:
				visit(s.Body, inBlock)
			case *ast.ImportFrom:
				if inBlock {
					in.InBlock[s] = true
				}
				if s.Level != 1 {
					continue
				}
				mod := ""
				if s.Module != nil {
					mod = *s.Module
				}
				for _, a := range s.Names {
					if a == nil || a.Name == "*" {
						continue
					}
					ii := &InitImport{Stmt: s, Alias: a, Name: a.Name, InBlock: inBlock}
					sub := astutil.JoinDotted(mod, a.Name)
					if mod == "" || b.isModule(dir, sub) {
						ii.Module = sub
						in.ModuleImports = append(in.ModuleImports, ii)
					} else {
						ii.Module = mod
						in.FuncImports = append(in.FuncImports, ii)
					}
				}
			case *ast.Assign:
				if inBlock {
					in.InBlock[s] = true
				}
				for _, t := range s.Targets {
					if nm, ok := t.(*ast.Name); ok && nm.Id == "__all__" {
						if list, ok := astutil.StringList(s.Value); ok {
							if in.AllNode == nil || len(list) > 0 {
								in.All = append([]*ast.Constant(nil), list...)
								in.AllNode = s
							}
						}
					}
				}
			case *ast.AugAssign:
				if nm, ok := s.Target.(*ast.Name); ok && nm.Id == "__all__" {
					if list, ok := astutil.StringList(s.Value); ok {
						in.All = append(in.All, list...)
						if in.AllNode == nil {
							in.AllNode = s
						}
					}
				}
			case *ast.ExprStmt:
				// __all__.extend([...]) / __all__.append("x")
				if c, ok := s.Value.(*ast.Call); ok {
					if astutil.DottedName(c.Func) == "__all__.extend" && len(c.Args) == 1 {
						if list, ok := astutil.StringList(c.Args[0]); ok {
							in.All = append(in.All, list...)
						}
					} else if astutil.DottedName(c.Func) == "__all__.append" && len(c.Args) == 1 {
						if k, ok := c.Args[0].(*ast.Constant); ok {
							if _, isStr := k.Value.(string); isStr {
								in.All = append(in.All, k)
							}
						}
					}
				}
			default:
				if inBlock {
					in.InBlock[s] = true
				}
			}
		}
	}
	visit(f.AST.Module.Body, false)
	return in
}

// isModule reports whether the dotted module sub of the package in dir is
// a module or package of the snapshot.
func (b *opTableBuilder) isModule(dir, sub string) bool {
	p := dir + "/" + strings.ReplaceAll(sub, ".", "/")
	return b.repo.HasPath(p+".py") || b.repo.HasPath(p+"/__init__.py")
}

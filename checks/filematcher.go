package checks

// What matching a pattern in one file needs: its imports' resolver, its
// defs, the path of the node being matched.

import (
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/python/pattern"
	"github.com/tilegym/tilegym-lint/python/requires"
	"github.com/tilegym/tilegym-lint/source"
)

// fileMatcher holds what matching in one file needs.
type fileMatcher struct {
	f       *source.File
	im      *astutil.Imports
	resolve pattern.Resolver
	defs    map[string]*ast.FunctionDef // the file's top-level defs
	calls   map[string][][]ast.Node     // the paths of the calls of each top-level def by name (built when asked)
	depth   int                         // callers being followed by cacheMiss
	b       pattern.Bindings            // the bindings of an attempt (match)
	// admitted gives the versions of a dependency the file's project
	// admits (nil: unknown, every version), for gated [lists] items.
	admitted func(dep string) requires.Range
	path     []ast.Node          // the path of the node being matched (for constraints on its enclosing def)
	assigns  map[string]ast.Expr // the values of module-level `name = value` (built when asked)
}

// withLocals is the source of n followed by the values of the names in it
// that the function enclosing the node being matched assigns above it
// (their last assignment), followed in turn to depth.
func (fm *fileMatcher) withLocals(n ast.Node, depth int) string {
	var b strings.Builder
	lines := fileLines.Of(fm.f)
	for l := n.Pos().Line; l <= n.End().Line; l++ {
		line := srcLine(lines, l)
		if l == n.End().Line && n.End().Col <= len(line) {
			line = line[:n.End().Col]
		}
		if l == n.Pos().Line && n.Pos().Col <= len(line) {
			line = line[n.Pos().Col:]
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
	var fn ast.Node
	for i := len(fm.path) - 1; i >= 0 && fn == nil; i-- {
		if isFunc(fm.path[i]) {
			fn = fm.path[i]
		}
	}
	if fn == nil || depth == 0 {
		return b.String()
	}
	seen := map[string]bool{}
	ast.Inspect(n, func(x ast.Node) bool {
		name, ok := x.(*ast.Name)
		if !ok || seen[name.Id] {
			return true
		}
		seen[name.Id] = true
		var val ast.Expr
		ast.Inspect(fn, func(y ast.Node) bool {
			if a, ok := y.(*ast.Assign); ok && len(a.Targets) == 1 && a.Pos().Line < name.Pos().Line {
				if t, ok := a.Targets[0].(*ast.Name); ok && t.Id == name.Id {
					val = a.Value
				}
			}
			return true
		})
		if val != nil {
			b.WriteString(fm.withLocals(val, depth-1))
		}
		return true
	})
	return b.String()
}

// paramNotAnnotated returns the first name in n (not an attribute's) that
// is a parameter of the def enclosing the node being matched and whose
// annotation matches none of the patterns.
func (fm *fileMatcher) paramNotAnnotated(n ast.Node, pats []*pattern.Pattern) (ast.Node, bool) {
	var def *ast.FunctionDef
	for i := len(fm.path) - 1; i >= 0 && def == nil; i-- {
		def, _ = fm.path[i].(*ast.FunctionDef)
	}
	if def == nil {
		return nil, false
	}
	var found ast.Node
	ast.Inspect(n, func(x ast.Node) bool {
		if found != nil {
			return false
		}
		if _, ok := x.(*ast.Attribute); ok {
			return false // x.shape: an attribute of a value, not a parameter
		}
		name, ok := x.(*ast.Name)
		if !ok {
			return true
		}
		for _, prm := range astutil.Params(def.Args) {
			if prm.Name == name.Id && prm.Kind != astutil.VarPositional && prm.Kind != astutil.VarKeyword &&
				!fm.annotationMatches(prm.Arg.Annotation, pats) {
				found = name
			}
		}
		return true
	})
	return found, found != nil
}

// annotationMatches reports whether an annotation matches one of the
// patterns: itself, the expression a string annotation holds, or the value
// of a module-level alias it names.
func (fm *fileMatcher) annotationMatches(ann ast.Expr, pats []*pattern.Pattern) bool {
	switch a := ann.(type) {
	case nil:
		return false
	case *ast.Constant:
		if s, ok := a.Value.(string); ok {
			if f := source.ParseFile("annotation.py", []byte(s)); f.AST != nil && f.AST.Module != nil && len(f.AST.Module.Body) == 1 {
				if es, ok := f.AST.Module.Body[0].(*ast.ExprStmt); ok && fm.annotationMatches(es.Value, pats) {
					return true
				}
			}
		}
	case *ast.Name:
		if fm.assigns == nil {
			fm.assigns = map[string]ast.Expr{}
			astutil.EachTopLevel(fm.f.AST.Module.Body, func(s ast.Stmt) {
				if as, ok := s.(*ast.Assign); ok && len(as.Targets) == 1 {
					if t, ok := as.Targets[0].(*ast.Name); ok {
						fm.assigns[t.Id] = as.Value
					}
				}
			})
		}
		if v := fm.assigns[a.Id]; v != nil && v != ann && fm.annotationMatches(v, pats) {
			return true
		}
	}
	for _, pt := range pats {
		if pt.Match(ann, fm.resolve, nil) {
			return true
		}
	}
	return false
}

func newFileMatcher(f *source.File) *fileMatcher {
	fm := &fileMatcher{f: f, im: f.Imports(), defs: astutil.TopLevelFuncs(f.AST)}
	fm.resolve = newResolver(fm.im)
	return fm
}

// newResolver returns the resolver of the names of a file with imports
// im. An attribute chain is resolved (its name built) once however many
// patterns compare it; a name's resolution is a lookup.
func newResolver(im *astutil.Imports) pattern.Resolver {
	resolved := map[*ast.Attribute]string{}
	return func(n ast.Node) string {
		if e, ok := n.(*ast.Attribute); ok {
			q, ok := resolved[e]
			if !ok {
				q, _ = im.Resolve(e)
				resolved[e] = q
			}
			return q
		}
		return im.ResolveNode(n)
	}
}

// decorated reports whether a def carries a decorator resolving to name.
func (fm *fileMatcher) decorated(n ast.Node, name string) bool {
	var decs []ast.Expr
	switch d := n.(type) {
	case *ast.FunctionDef:
		decs = d.DecoratorList
	case *ast.AsyncFunctionDef:
		decs = d.DecoratorList
	default:
		return false
	}
	for _, d := range decs {
		if c, ok := d.(*ast.Call); ok {
			d = c.Func
		}
		if fm.resolve(d) == name {
			return true
		}
	}
	return false
}

// decoratedLike reports whether n names a top-level def of the file with
// a decorator matching one of the patterns.
func (fm *fileMatcher) decoratedLike(n ast.Node, pats []*pattern.Pattern) bool {
	name, ok := n.(*ast.Name)
	if !ok || fm.defs[name.Id] == nil {
		return false
	}
	for _, d := range fm.defs[name.Id].DecoratorList {
		for _, pt := range pats {
			if pt.Match(d, fm.resolve, nil) {
				return true
			}
		}
	}
	return false
}

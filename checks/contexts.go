package checks

// The contexts a pattern's match must be in (inside) or not (not-inside).

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/python/pattern"
)

// A context is where a match may (inside) or may not (not-inside) be: a
// named context, a decorated function, or a pattern an enclosing node
// matches.
type context struct {
	name      string           // kernel, function, module, cache-miss
	decorator string           // "@name": a function decorated with name (called or not)
	pat       *pattern.Pattern // an enclosing node matches it
	after     *pattern.Pattern // "after:pattern": an earlier statement of the function holds a match
}

var contextNames = []string{"kernel", "function", "module", "cache-miss"}

func parseContexts(list []string) ([]*context, error) {
	var out []*context
	var errs []error
	for _, s := range list {
		switch {
		case slices.Contains(contextNames, s):
			out = append(out, &context{name: s})
		case strings.HasPrefix(s, "@"):
			out = append(out, &context{decorator: s[1:]})
		case strings.HasPrefix(s, "after:"):
			pt, err := pattern.Parse(strings.TrimSpace(s[len("after:"):]))
			if err != nil {
				errs = append(errs, fmt.Errorf("context %q: %v", s, err))
				continue
			}
			out = append(out, &context{after: pt})
		default:
			pt, err := pattern.Parse(s)
			if err != nil {
				errs = append(errs, fmt.Errorf("context %q: not one of %s, an @decorator, after:pattern, or a pattern: %v", s, strings.Join(contextNames, ", "), err))
				continue
			}
			out = append(out, &context{pat: pt})
		}
	}
	return out, errors.Join(errs...)
}

// dearContext reports whether a context asks more than which defs
// enclose a node (a pattern, after:, cache-miss): one a rule does not look
// at before it matches.
func dearContext(c *context) bool {
	return c.pat != nil || c.after != nil || c.name == "cache-miss"
}

// kernelDecorator is the qualified name of cuTile's kernel decorator.
const kernelDecorator = "cuda.tile.kernel"

// callPaths returns the paths of the calls of a top-level def of the file.
func (fm *fileMatcher) callPaths(name string) [][]ast.Node {
	if fm.calls == nil {
		fm.calls = map[string][][]ast.Node{}
		fileNodesOf(fm.f).walk(func(path []ast.Node) {
			if c, ok := path[len(path)-1].(*ast.Call); ok {
				if n, ok := c.Func.(*ast.Name); ok && fm.defs[n.Id] != nil {
					fm.calls[n.Id] = append(fm.calls[n.Id], slices.Clone(path))
				}
			}
		})
	}
	return fm.calls[name]
}

// in reports whether the node at the end of path (its ancestors first)
// is in the context.
func (fm *fileMatcher) in(c *context, path []ast.Node) bool {
	anc := path[:len(path)-1]
	switch {
	case c.pat != nil:
		for _, a := range anc {
			if c.pat.Match(a, fm.resolve, nil) {
				return true
			}
		}
		return false
	case c.decorator != "":
		for _, a := range anc {
			if fm.decorated(a, c.decorator) {
				return true
			}
		}
		return false
	case c.after != nil:
		return fm.after(c.after, path)
	}
	switch c.name {
	case "kernel":
		for _, a := range anc {
			if fm.decorated(a, kernelDecorator) {
				return true
			}
		}
	case "function":
		return slices.ContainsFunc(anc, isFunc)
	case "module":
		return !slices.ContainsFunc(anc, isFunc)
	case "cache-miss":
		return fm.cacheMiss(path)
	}
	return false
}

// after reports whether a statement before the node at the end of path,
// in its block or an enclosing one of the same function (of the module,
// at module level), holds a match of pt: a synchronize after a launch.
func (fm *fileMatcher) after(pt *pattern.Pattern, path []ast.Node) bool {
	holds := func(list []ast.Stmt, child ast.Node) bool {
		for _, s := range list {
			if ast.Node(s) == child {
				return false
			}
			found := false
			ast.Inspect(s, func(n ast.Node) bool {
				if !found && n != nil && pt.Match(n, fm.resolve, nil) {
					found = true
				}
				return !found
			})
			if found {
				return true
			}
		}
		return false
	}
	for i := len(path) - 2; i >= 0; i-- {
		for _, list := range stmtLists(path[i]) {
			if inStmts(list, path[i+1]) && holds(list, path[i+1]) {
				return true
			}
		}
		if isFunc(path[i]) {
			return false
		}
	}
	return holds(fm.f.AST.Module.Body, path[0])
}

// cacheMiss reports whether the node at the end of path runs only when a
// cache misses: at module level (once), in a function decorated with
// functools.cache or lru_cache, in the body of an `if k not in cache:` or
// `if v is None:` (or `if not v:`), or after a statement `if k in cache:`
// / `if v is not None:` whose body returns.
func (fm *fileMatcher) cacheMiss(path []ast.Node) bool {
	if !slices.ContainsFunc(path[:len(path)-1], isFunc) {
		return true
	}
	for i := len(path) - 2; i >= 0; i-- {
		a := path[i]
		child := path[i+1]
		if s, ok := a.(*ast.If); ok && missTest(s.Test, false) && inStmts(s.Body, child) {
			return true
		}
		// A guard returning on a hit, earlier in the same block.
		for _, body := range stmtLists(a) {
			for _, s := range body {
				if s.Pos().Line >= child.Pos().Line {
					break
				}
				if g, ok := s.(*ast.If); ok && missTest(g.Test, true) && returns(g.Body) {
					return true
				}
			}
		}
		if isFunc(a) {
			if fm.decorated(a, "functools.cache") || fm.decorated(a, "functools.lru_cache") {
				return true
			}
			// A top-level def the file calls only on a cache miss (a
			// tuning helper called under `if key not in cache:`).
			fd, ok := a.(*ast.FunctionDef)
			if !ok || i != 0 || fm.depth > 2 {
				return false
			}
			calls := fm.callPaths(fd.Name)
			if len(calls) == 0 {
				return false
			}
			fm.depth++
			defer func() { fm.depth-- }()
			for _, c := range calls {
				if !fm.cacheMiss(c) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// missTest reports whether an if's test is a cache miss (hit false: `k not
// in c`, `v is None`, `not v`) or a hit (hit true: `k in c`, `v is not
// None`, `v`).
func missTest(e ast.Expr, hit bool) bool {
	switch t := e.(type) {
	case *ast.Compare:
		if len(t.Ops) != 1 {
			return false
		}
		switch t.Ops[0] {
		case ast.NotIn:
			return !hit
		case ast.In:
			return hit
		case ast.Is:
			return !hit && astutil.IsNoneExpr(t.Comparators[0])
		case ast.IsNot:
			return hit && astutil.IsNoneExpr(t.Comparators[0])
		}
	case *ast.UnaryOp:
		if t.Op == ast.Not {
			return !hit && isNameLike(t.Operand)
		}
	case *ast.Name, *ast.Attribute:
		return hit
	}
	return false
}

func isNameLike(e ast.Expr) bool { return astutil.DottedName(e) != "" }

func inStmts(list []ast.Stmt, n ast.Node) bool {
	for _, s := range list {
		if ast.Node(s) == n {
			return true
		}
	}
	return false
}

// stmtLists returns the statement lists of a node.
func stmtLists(n ast.Node) [][]ast.Stmt {
	switch s := n.(type) {
	case *ast.FunctionDef:
		return [][]ast.Stmt{s.Body}
	case *ast.AsyncFunctionDef:
		return [][]ast.Stmt{s.Body}
	case *ast.If:
		return [][]ast.Stmt{s.Body, s.Orelse}
	case *ast.For:
		return [][]ast.Stmt{s.Body, s.Orelse}
	case *ast.While:
		return [][]ast.Stmt{s.Body, s.Orelse}
	case *ast.With:
		return [][]ast.Stmt{s.Body}
	case *ast.Try:
		return [][]ast.Stmt{s.Body, s.Orelse, s.Finalbody}
	case *ast.ExceptHandler:
		return [][]ast.Stmt{s.Body}
	}
	return nil
}

// inContexts reports whether the node at the end of path is in every
// context of inside and in none of not-inside.
func (p *PatternParams) inContexts(fm *fileMatcher, path []ast.Node) bool {
	for _, c := range p.inside {
		if !fm.in(c, path) {
			return false
		}
	}
	for _, c := range p.notInside {
		if fm.in(c, path) {
			return false
		}
	}
	return true
}

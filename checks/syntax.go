package checks

// Python syntax the kinds share: the names an assignment binds and its
// value, the assignments of a list variable, whether names occur, a walk
// over a file with the path to each node, and a node's source text.

import (
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// assignTargets returns the names an assignment, augmented or annotated
// assignment binds (tuple and list targets unpacked); none for any other
// statement.
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

// assignValue returns the value an assignment assigns, or nil.
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

// mentionsAny reports whether a Name of names occurs in n.
func mentionsAny(n ast.Node, names map[string]bool) bool {
	if n == nil {
		return false
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if nm, ok := n.(*ast.Name); ok && names[nm.Id] {
			found = true
		}
		return !found
	})
	return found
}

// mentionsAnyStmt reports whether a Name of names occurs in the statements.
func mentionsAnyStmt(body []ast.Stmt, names map[string]bool) bool {
	for _, s := range body {
		if mentionsAny(s, names) {
			return true
		}
	}
	return false
}

// listAssigns returns the statements of a body (if/try blocks included)
// that assign or extend one of the variables vs.
func listAssigns(body []ast.Stmt, vs []string) []ast.Stmt {
	var out []ast.Stmt
	astutil.EachTopLevel(body, func(s ast.Stmt) {
		if v, _ := listExtension(s); v != "" {
			for _, w := range vs {
				if v == w {
					out = append(out, s)
					return
				}
			}
		}
		for _, t := range assignTargets(s) {
			for _, v := range vs {
				if t == v {
					out = append(out, s)
					return
				}
			}
		}
	})
	return out
}

// A namedNode is a node with the name it stands for (a def's name, the
// qualified name of a use).
type namedNode struct {
	node ast.Node
	name string
}

// isFunc reports whether n is a def, async def or lambda.
func isFunc(n ast.Node) bool {
	switch n.(type) {
	case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.Lambda:
		return true
	}
	return false
}

// returns reports whether a body ends with a return statement.
func returns(body []ast.Stmt) bool {
	if len(body) == 0 {
		return false
	}
	_, ok := body[len(body)-1].(*ast.Return)
	return ok
}

// nodeSource is the text of n for a message: a call that spans lines or
// is long is shortened to its callee and (...), other nodes spanning lines
// to their first line.
func nodeSource(f *source.File, n ast.Node) string {
	if c, ok := n.(*ast.Call); ok {
		if s := nodeLine(f, c); c.End().Line != c.Pos().Line || len(s) > 60 {
			return nodeLine(f, c.Func) + "(...)"
		}
	}
	return nodeLine(f, n)
}

// nodeLine is the text of n on its first line.
func nodeLine(f *source.File, n ast.Node) string {
	line := srcLine(fileLines.Of(f), n.Pos().Line)
	start, end := n.Pos().Col, len(line)
	if n.End().Line == n.Pos().Line && n.End().Col <= len(line) {
		end = n.End().Col
	}
	if start > end || start > len(line) {
		return ""
	}
	return line[start:end]
}

// listExtension returns the variable a statement extends in place and a
// list of what it adds: ALL_BACKENDS.append(("cutile", ...)), .insert(0,
// x), .extend([...]). "" for any other statement.
func listExtension(s ast.Stmt) (string, ast.Expr) {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return "", nil
	}
	c, ok := es.Value.(*ast.Call)
	if !ok {
		return "", nil
	}
	at, ok := c.Func.(*ast.Attribute)
	if !ok {
		return "", nil
	}
	v, ok := at.Value.(*ast.Name)
	if !ok {
		return "", nil
	}
	switch {
	case at.Attr == "append" && len(c.Args) == 1:
		return v.Id, &ast.List{Elts: c.Args}
	case at.Attr == "insert" && len(c.Args) == 2:
		return v.Id, &ast.List{Elts: c.Args[1:]}
	case at.Attr == "extend" && len(c.Args) == 1:
		return v.Id, c.Args[0]
	}
	return "", nil
}

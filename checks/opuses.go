package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// opUses indexes, once per file, what the per-op questions of the Step 5
// kinds look for, by the name they ask about: a file serving n ops was
// walked once per op (backendModuleUses, publicCalls).
type opUses struct {
	// bodyCalls are the calls in the statements of the module body (in
	// the order of File.CallsIn, statement by statement) by the last part
	// of what their callee resolves to.
	bodyCalls map[string][]*ast.Call
	// byFunc are the imports and the resolved calls of the file (in the
	// order of File.Nodes) by the function name they import or call.
	byFunc map[string][]funcUse
}

// funcUse is one import of a name (imp set) or one call whose callee
// resolves to a qualified name (call set).
type funcUse struct {
	imp   *ast.ImportFrom
	local string // the name the import binds
	call  *ast.Call
	head  string // the first part of the call's dotted callee
	full  string // the imported or resolved qualified name
}

var opUsesFact = source.NewFact(buildOpUses)

func buildOpUses(f *source.File) *opUses {
	u := &opUses{bodyCalls: map[string][]*ast.Call{}, byFunc: map[string][]funcUse{}}
	im := f.Imports()
	pkg := astutil.PackagePath(f.Path)
	if f.AST != nil && f.AST.Module != nil {
		for _, s := range f.AST.Module.Body {
			for _, c := range f.CallsIn(s) {
				if k, ok := resolvedTail(im, c.Func); ok {
					u.bodyCalls[k] = append(u.bodyCalls[k], c)
				}
			}
		}
	}
	for _, n := range f.Nodes() {
		switch s := n.(type) {
		case *ast.ImportFrom:
			base := astutil.ImportFromModule(pkg, s)
			for _, a := range s.Names {
				if a == nil {
					continue
				}
				local := a.Name
				if a.Asname != nil {
					local = *a.Asname
				}
				u.byFunc[a.Name] = append(u.byFunc[a.Name], funcUse{imp: s, local: local, full: astutil.JoinDotted(base, a.Name)})
			}
		case *ast.Call:
			d := astutil.DottedName(s.Func)
			if d == "" {
				continue
			}
			head, _, _ := strings.Cut(d, ".")
			if q, _ := im.Resolve(s.Func); q != "" {
				k := astutil.DottedTail(q)
				u.byFunc[k] = append(u.byFunc[k], funcUse{call: s, head: head, full: q})
			}
		}
	}
	return u
}

// resolvedTail returns the last part of the qualified name a name or an
// attribute chain resolves to (Imports.Resolve); ok is false for anything
// else. A chain a.b resolves to a name ending in .b: the attribute is the
// tail, without building the name.
func resolvedTail(im *astutil.Imports, e ast.Expr) (string, bool) {
	switch n := e.(type) {
	case *ast.Attribute:
		if n != nil && n.Attr != "" && strings.IndexByte(n.Attr, '.') < 0 {
			return n.Attr, true
		}
	case *ast.Name:
	default:
		return "", false
	}
	q, _ := im.Resolve(e)
	return astutil.DottedTail(q), q != ""
}

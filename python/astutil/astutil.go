// Package astutil holds helpers over Python syntax trees shared by the op
// table and the check kinds: dotted names, import alias resolution, string
// values (f-strings included), decorator and call matching, and module-level
// names.
package astutil

import (
	"math/big"
	"path"
	"strconv"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// DottedName returns the dotted name of a Name/Attribute chain such as
// `tilegym.ops.softmax`, or "" if e is anything else (a call, a subscript...).
func DottedName(e ast.Expr) string {
	if nm, ok := e.(*ast.Name); ok {
		if nm == nil {
			return ""
		}
		return nm.Id
	}
	n := dottedLen(e)
	if n <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(n)
	writeDotted(&b, e)
	return b.String()
}

// dottedLen returns the length of DottedName(e), or 0 when it is "".
func dottedLen(e ast.Expr) int {
	n := 0
	for x := e; ; {
		switch v := x.(type) {
		case *ast.Name:
			if v == nil || v.Id == "" {
				return 0
			}
			return n + len(v.Id)
		case *ast.Attribute:
			if v == nil {
				return 0
			}
			n += 1 + len(v.Attr)
			x = v.Value
		default:
			return 0
		}
	}
}

// writeDotted writes the dotted name of a chain that dottedLen accepts.
func writeDotted(b *strings.Builder, e ast.Expr) {
	switch v := e.(type) {
	case *ast.Name:
		b.WriteString(v.Id)
	case *ast.Attribute:
		writeDotted(b, v.Value)
		b.WriteByte('.')
		b.WriteString(v.Attr)
	}
}

// ModulePath returns the dotted Python module of a slash file path, with a
// leading "src/" layout directory removed: "src/tilegym/ops/cutile/softmax.py"
// is "tilegym.ops.cutile.softmax" and "src/tilegym/ops/cutile/__init__.py" is
// "tilegym.ops.cutile".
func ModulePath(file string) string {
	p := strings.TrimSuffix(file, ".py")
	p = strings.TrimPrefix(p, "src/")
	p = strings.TrimSuffix(p, "/__init__")
	if p == "__init__" {
		return ""
	}
	return strings.ReplaceAll(p, "/", ".")
}

// PackagePath returns the package that relative imports of file are
// resolved against: the module itself for an __init__.py, else its parent.
func PackagePath(file string) string {
	if path.Base(file) == "__init__.py" {
		return ModulePath(file)
	}
	m := ModulePath(file)
	if i := strings.LastIndexByte(m, '.'); i >= 0 {
		return m[:i]
	}
	return ""
}

// Imports maps the names a file binds by import statements to the fully
// qualified names they stand for. All import statements of the file count,
// including those inside functions (tests often import the op in the test
// method); a later binding of a name replaces an earlier one.
type Imports struct {
	// Local maps a bound name to its qualified name: `import cuda.tile as
	// ct` binds "ct" to "cuda.tile"; `from tilegym.ops import softmax as sm`
	// binds "sm" to "tilegym.ops.softmax"; `import tilegym.ops` binds
	// "tilegym" to "tilegym".
	Local map[string]string
	// aliases maps each name of an import statement to the qualified name
	// it imports (ResolveAlias).
	aliases map[*ast.Alias]string
}

// NewImports collects the imports of file f whose slash path is file
// (relative imports are resolved against its package).
func NewImports(file string, f *ast.File) *Imports {
	im := &Imports{Local: map[string]string{}, aliases: map[*ast.Alias]string{}}
	if f == nil || f.Module == nil {
		return im
	}
	pkg := PackagePath(file)
	eachStmt(f.Module.Body, func(n ast.Stmt) {
		switch s := n.(type) {
		case *ast.Import:
			for _, a := range s.Names {
				if a == nil {
					continue
				}
				im.aliases[a] = a.Name
				if a.Asname != nil {
					im.Local[*a.Asname] = a.Name
				} else {
					head, _, _ := strings.Cut(a.Name, ".")
					im.Local[head] = head
				}
			}
		case *ast.ImportFrom:
			base := ImportFromModule(pkg, s)
			for _, a := range s.Names {
				if a == nil || a.Name == "*" {
					continue
				}
				local := a.Name
				if a.Asname != nil {
					local = *a.Asname
				}
				im.Local[local] = JoinDotted(base, a.Name)
				im.aliases[a] = im.Local[local]
			}
		}
	})
	return im
}

// eachStmt calls fn for every statement of body and of the statements in
// it (function and class bodies, branches, handlers, cases), in the order
// ast.Inspect visits them, without visiting expressions.
func eachStmt(body []ast.Stmt, fn func(ast.Stmt)) {
	for _, s := range body {
		if s == nil {
			continue
		}
		fn(s)
		switch s := s.(type) {
		case *ast.FunctionDef:
			eachStmt(s.Body, fn)
		case *ast.AsyncFunctionDef:
			eachStmt(s.Body, fn)
		case *ast.ClassDef:
			eachStmt(s.Body, fn)
		case *ast.For:
			eachStmt(s.Body, fn)
			eachStmt(s.Orelse, fn)
		case *ast.AsyncFor:
			eachStmt(s.Body, fn)
			eachStmt(s.Orelse, fn)
		case *ast.While:
			eachStmt(s.Body, fn)
			eachStmt(s.Orelse, fn)
		case *ast.If:
			eachStmt(s.Body, fn)
			eachStmt(s.Orelse, fn)
		case *ast.With:
			eachStmt(s.Body, fn)
		case *ast.AsyncWith:
			eachStmt(s.Body, fn)
		case *ast.Match:
			for _, c := range s.Cases {
				if c != nil {
					eachStmt(c.Body, fn)
				}
			}
		case *ast.Try:
			eachStmt(s.Body, fn)
			for _, h := range s.Handlers {
				if h != nil {
					eachStmt(h.Body, fn)
				}
			}
			eachStmt(s.Orelse, fn)
			eachStmt(s.Finalbody, fn)
		case *ast.TryStar:
			eachStmt(s.Body, fn)
			for _, h := range s.Handlers {
				if h != nil {
					eachStmt(h.Body, fn)
				}
			}
			eachStmt(s.Orelse, fn)
			eachStmt(s.Finalbody, fn)
		}
	}
}

// ImportFromModule returns the absolute module a `from X import ...`
// statement imports from, resolving relative imports against pkg (the
// importing file's package): `from .softmax import f` in package
// tilegym.ops.cutile is "tilegym.ops.cutile.softmax".
func ImportFromModule(pkg string, s *ast.ImportFrom) string {
	mod := ""
	if s.Module != nil {
		mod = *s.Module
	}
	if s.Level == 0 {
		return mod
	}
	base := pkg
	for i := 1; i < s.Level; i++ {
		if j := strings.LastIndexByte(base, '.'); j >= 0 {
			base = base[:j]
		} else {
			base = ""
		}
	}
	return JoinDotted(base, mod)
}

func JoinDotted(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "." + b
}

// Resolve returns the qualified dotted name of a Name/Attribute chain, with
// its head replaced by what the head was imported as, and whether the head
// was imported at all. `ct.kernel` with `import cuda.tile as ct` is
// ("cuda.tile.kernel", true); an unimported `foo.bar` is ("foo.bar", false);
// a non-name expression is ("", false).
func (im *Imports) Resolve(e ast.Expr) (string, bool) {
	if q, ok := im.resolveChain(e); ok {
		return q, true
	}
	d := DottedName(e)
	if d == "" {
		return "", false
	}
	head, rest := d, "" // strings.Cut's general search cost more than the lookup: most are names
	if i := strings.IndexByte(d, '.'); i >= 0 {
		head, rest = d[:i], d[i+1:]
	}
	if im != nil {
		if q, ok := im.Local[head]; ok {
			return JoinDotted(q, rest), true
		}
	}
	return d, false
}

// ResolveAlias returns the qualified name a name of one of the file's
// import statements imports (`exp` of `from cuda.tile import exp` is
// "cuda.tile.exp", `cuda.tile as ct` of an import is "cuda.tile"), or ""
// for another alias and for `*`.
func (im *Imports) ResolveAlias(a *ast.Alias) string {
	if im == nil {
		return ""
	}
	return im.aliases[a]
}

// ResolveNode returns the qualified name a node stands for: Resolve's for
// a name or an attribute chain, ResolveAlias's for a name of an import
// statement, "" for any other node.
func (im *Imports) ResolveNode(n ast.Node) string {
	switch e := n.(type) {
	case *ast.Name:
		q, _ := im.Resolve(e)
		return q
	case *ast.Alias:
		return im.ResolveAlias(e)
	case *ast.Attribute:
		q, _ := im.Resolve(e)
		return q
	}
	return "" // what Resolve gives any other expression
}

// resolveChain is Resolve of an attribute chain whose head is imported,
// built in one piece: the resolved names are kept (the per-file callee
// lists, the used names), and building the dotted name first made each
// twice. ok is false for anything else.
func (im *Imports) resolveChain(e ast.Expr) (string, bool) {
	at, ok := e.(*ast.Attribute)
	if !ok || im == nil || at == nil {
		return "", false
	}
	n := dottedLen(e)
	if n <= 0 {
		return "", false
	}
	if at.Attr == "" {
		return "", false // no parser makes one; the rest could be ""
	}
	x := at.Value
	for {
		v, ok := x.(*ast.Attribute)
		if !ok {
			break
		}
		x = v.Value
	}
	head := x.(*ast.Name).Id // dottedLen accepted the chain
	q, ok := im.Local[head]
	if !ok || strings.IndexByte(head, '.') >= 0 {
		return "", false
	}
	// JoinDotted(q, rest): the rest is the chain after its head.
	var b strings.Builder
	b.Grow(len(q) + n - len(head))
	b.WriteString(q)
	writeRest(&b, at, q != "")
	return b.String(), true
}

// writeRest writes the parts of a chain after its head, each after a dot
// but the first when dot is false.
func writeRest(b *strings.Builder, at *ast.Attribute, dot bool) {
	if v, ok := at.Value.(*ast.Attribute); ok {
		writeRest(b, v, dot)
		dot = true
	}
	if dot {
		b.WriteByte('.')
	}
	b.WriteString(at.Attr)
}

// Is reports whether e names one of the qualified names: its resolved name
// is one of them, or e is not imported and its dotted name is one of them
// written out in full (`tilegym.backend.dispatch` after `import tilegym`
// resolves; so does an unresolved literal spelling).
func (im *Imports) Is(e ast.Expr, names []string) bool {
	if len(names) == 0 {
		return false
	}
	if match, ok := im.isFast(e, names); ok {
		return match
	}
	q, _ := im.Resolve(e)
	if q == "" {
		return false
	}
	for _, n := range names {
		if q == n {
			return true
		}
	}
	return false
}

// isFast is Is for the common case, without building the resolved name: a
// Name/Attribute chain of non-empty, undotted names whose head is not
// imported, or imported as a non-empty name. ok is false for anything
// else (Is then resolves the name).
func (im *Imports) isFast(e ast.Expr, names []string) (match, ok bool) {
	// The chain head.a1...ak, from the outside in.
	var head *ast.Name
	for x := e; head == nil; {
		switch v := x.(type) {
		case *ast.Attribute:
			if v == nil || v.Attr == "" || strings.IndexByte(v.Attr, '.') >= 0 {
				return false, false
			}
			x = v.Value
		case *ast.Name:
			if v == nil || v.Id == "" || strings.IndexByte(v.Id, '.') >= 0 {
				return false, false
			}
			head = v
		default:
			return false, true // not a name: Resolve gives "", which names nothing
		}
	}
	prefix := head.Id
	if im != nil {
		if q, imported := im.Local[head.Id]; imported {
			if q == "" {
				return false, false
			}
			prefix = q
		}
	}
	for _, n := range names {
		// n must be prefix, then "." + each attribute, inside out.
		rest := n
		x := e
		good := true
		for good {
			a, isAttr := x.(*ast.Attribute)
			if !isAttr {
				break
			}
			k := len(rest) - len(a.Attr)
			if k < 1 || rest[k-1] != '.' || rest[k:] != a.Attr {
				good = false
				break
			}
			rest = rest[:k-1]
			x = a.Value
		}
		if good && rest == prefix {
			return true, true
		}
	}
	return false, true
}

// AliasesOf returns the local names under which the module mod is bound
// in the file: "ct" for `import cuda.tile as ct`, "cuda.tile" for
// `import cuda.tile`, "tile" for `from cuda import tile`.
func (im *Imports) AliasesOf(mod string) []string {
	var out []string
	if im == nil {
		return nil
	}
	for local, q := range im.Local {
		switch {
		case q == mod:
			out = append(out, local)
		case local == q && strings.HasPrefix(mod, q+"."):
			// `import cuda.tile` binds "cuda"; the module is spelled in full.
			out = append(out, mod)
		}
	}
	return out
}

// Imported reports whether the file imports module mod or a name from it
// (mod or anything under it is the target of some binding).
func (im *Imports) Imported(mod string) bool {
	if im == nil {
		return false
	}
	for local, q := range im.Local {
		if q == mod || strings.HasPrefix(q, mod+".") {
			return true
		}
		if local == q && strings.HasPrefix(mod, q+".") {
			return true
		}
	}
	return false
}

// CallTo reports whether e is a call whose callee names one of names (see
// Imports.Is), and returns it.
func (im *Imports) CallTo(e ast.Expr, names []string) (*ast.Call, bool) {
	c, ok := e.(*ast.Call)
	if !ok || c == nil {
		return nil, false
	}
	return c, im.Is(c.Func, names)
}

// Decorator returns the call of the first decorator of decs that names one
// of names, written `@name(...)`; a bare `@name` (no call) returns (nil,
// expr, true).
func (im *Imports) Decorator(decs []ast.Expr, names []string) (*ast.Call, ast.Expr, bool) {
	for _, d := range decs {
		if c, ok := im.CallTo(d, names); ok {
			return c, d, true
		}
		if im.Is(d, names) {
			return nil, d, true
		}
	}
	return nil, nil, false
}

// CallArg returns the argument of a call given at position pos (0-based,
// -1 for keyword only) or by keyword kw ("" for positional only), or nil.
func CallArg(c *ast.Call, pos int, kw string) ast.Expr {
	if c == nil {
		return nil
	}
	if kw != "" {
		for _, k := range c.Keywords {
			if k != nil && k.Arg != nil && *k.Arg == kw {
				return k.Value
			}
		}
	}
	if pos >= 0 && pos < len(c.Args) {
		if _, star := c.Args[pos].(*ast.Starred); star {
			return nil
		}
		return c.Args[pos]
	}
	return nil
}

// StringValue returns the value of a string literal, of an f-string without
// replacement fields, or of a `+` concatenation of those.
func StringValue(e ast.Expr) (string, bool) {
	s, exact, ok := StringTemplate(e)
	if !ok || !exact {
		return "", false
	}
	return s, true
}

// StringTemplate renders a string literal, an f-string or a `+`
// concatenation of those with each replacement field shown as "{}":
// f"layer-norm-M{m}-GBps" is "layer-norm-M{}-GBps". exact is false when a
// replacement field was rendered; ok is false when e is not a string.
func StringTemplate(e ast.Expr) (s string, exact, ok bool) {
	switch e := e.(type) {
	case *ast.Constant:
		if e == nil {
			return "", false, false
		}
		v, isStr := e.Value.(string)
		if !isStr {
			return "", false, false
		}
		return v, true, true
	case *ast.JoinedStr:
		if e == nil {
			return "", false, false
		}
		var b strings.Builder
		exact = true
		for _, v := range e.Values {
			switch v := v.(type) {
			case *ast.Constant:
				if str, isStr := v.Value.(string); isStr {
					b.WriteString(str)
				}
			default:
				b.WriteString("{}")
				exact = false
			}
		}
		return b.String(), exact, true
	case *ast.BinOp:
		if e == nil || e.Op != ast.Add {
			return "", false, false
		}
		l, le, lok := StringTemplate(e.Left)
		r, re, rok := StringTemplate(e.Right)
		if !lok || !rok {
			return "", false, false
		}
		return l + r, le && re, true
	}
	return "", false, false
}

// StringList returns the string elements of a list or tuple literal with
// their nodes (other elements are ignored), and whether e is a list or tuple.
func StringList(e ast.Expr) ([]*ast.Constant, bool) {
	var elts []ast.Expr
	switch e := e.(type) {
	case *ast.List:
		elts = e.Elts
	case *ast.Tuple:
		elts = e.Elts
	default:
		return nil, false
	}
	var out []*ast.Constant
	for _, x := range elts {
		if c, ok := x.(*ast.Constant); ok {
			if _, isStr := c.Value.(string); isStr {
				out = append(out, c)
			}
		}
	}
	return out, true
}

// Docstring returns the docstring of a body (its first statement when that
// is a string literal), or nil.
func Docstring(body []ast.Stmt) *ast.Constant {
	if len(body) == 0 {
		return nil
	}
	es, ok := body[0].(*ast.ExprStmt)
	if !ok || es == nil {
		return nil
	}
	c, ok := es.Value.(*ast.Constant)
	if !ok || c == nil {
		return nil
	}
	if _, isStr := c.Value.(string); !isStr {
		return nil
	}
	return c
}

// TopLevelFuncs returns the functions defined at module level (also inside
// module-level if/try blocks), by name; a later definition wins.
func TopLevelFuncs(f *ast.File) map[string]*ast.FunctionDef {
	out := map[string]*ast.FunctionDef{}
	if f == nil || f.Module == nil {
		return out
	}
	EachTopLevel(f.Module.Body, func(s ast.Stmt) {
		if fd, ok := s.(*ast.FunctionDef); ok {
			out[fd.Name] = fd
		}
	})
	return out
}

// EachTopLevel calls fn for each module-level statement, descending into
// if/else, try and with blocks (which do not open a new scope).
func EachTopLevel(body []ast.Stmt, fn func(ast.Stmt)) {
	for _, s := range body {
		if s == nil {
			continue
		}
		fn(s)
		switch s := s.(type) {
		case *ast.If:
			EachTopLevel(s.Body, fn)
			EachTopLevel(s.Orelse, fn)
		case *ast.Try:
			EachTopLevel(s.Body, fn)
			for _, h := range s.Handlers {
				if h != nil {
					EachTopLevel(h.Body, fn)
				}
			}
			EachTopLevel(s.Orelse, fn)
			EachTopLevel(s.Finalbody, fn)
		case *ast.With:
			EachTopLevel(s.Body, fn)
		}
	}
}

// ModuleNames returns the names bound at module level (functions, classes,
// assignment targets, imports), mapped to the binding statement.
func ModuleNames(f *ast.File) map[string]ast.Stmt {
	out := map[string]ast.Stmt{}
	if f == nil || f.Module == nil {
		return out
	}
	var bind func(e ast.Expr, s ast.Stmt)
	bind = func(e ast.Expr, s ast.Stmt) {
		switch e := e.(type) {
		case *ast.Name:
			out[e.Id] = s
		case *ast.Tuple:
			for _, x := range e.Elts {
				bind(x, s)
			}
		case *ast.List:
			for _, x := range e.Elts {
				bind(x, s)
			}
		case *ast.Starred:
			bind(e.Value, s)
		}
	}
	EachTopLevel(f.Module.Body, func(s ast.Stmt) {
		switch s := s.(type) {
		case *ast.FunctionDef:
			out[s.Name] = s
		case *ast.AsyncFunctionDef:
			out[s.Name] = s
		case *ast.ClassDef:
			out[s.Name] = s
		case *ast.Assign:
			for _, t := range s.Targets {
				bind(t, s)
			}
		case *ast.AnnAssign:
			bind(s.Target, s)
		case *ast.AugAssign:
			bind(s.Target, s)
		case *ast.Import:
			for _, a := range s.Names {
				if a.Asname != nil {
					out[*a.Asname] = s
				} else {
					head, _, _ := strings.Cut(a.Name, ".")
					out[head] = s
				}
			}
		case *ast.ImportFrom:
			for _, a := range s.Names {
				if a.Asname != nil {
					out[*a.Asname] = s
				} else {
					out[a.Name] = s
				}
			}
		}
	})
	return out
}

// InspectFile walks every statement of a file with ast.Inspect.
func InspectFile(f *ast.File, fn func(ast.Node) bool) {
	if f == nil || f.Module == nil {
		return
	}
	for _, s := range f.Module.Body {
		if s != nil {
			ast.Inspect(s, fn)
		}
	}
}

// InspectScope walks the statements of one scope (a function's body) with
// ast.Inspect, not descending into the scopes nested in it: a def, lambda
// or class inside is neither given to fn nor entered. fn returns false to
// skip a node's children, as for ast.Inspect.
func InspectScope(body []ast.Stmt, fn func(ast.Node) bool) {
	for _, s := range body {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Lambda:
				return false
			}
			return fn(n)
		})
	}
}

// Calls returns every call inside n, in source order.
func Calls(n ast.Node) []*ast.Call {
	var out []*ast.Call
	ast.Inspect(n, func(n ast.Node) bool {
		if c, ok := n.(*ast.Call); ok {
			out = append(out, c)
		}
		return true
	})
	return out
}

// Param is one parameter of a function signature, flattened.
type Param struct {
	Arg     *ast.Arg
	Name    string
	Kind    ParamKind
	Default ast.Expr // nil when the parameter has none
	Index   int      // position among positional parameters (0-based); -1 for others
}

// ParamKind is how a parameter can be passed.
type ParamKind int

const (
	PosOnly ParamKind = iota
	PosOrKeyword
	VarPositional // *args
	KeywordOnly
	VarKeyword // **kwargs
)

// Params flattens a function's parameters in declaration order, pairing
// each with its default.
func Params(a *ast.Arguments) []Param {
	if a == nil {
		return nil
	}
	var out []Param
	npos := len(a.PosOnlyArgs) + len(a.Args)
	first := npos - len(a.Defaults)
	i := 0
	add := func(arg *ast.Arg, kind ParamKind) {
		p := Param{Arg: arg, Name: arg.Arg, Kind: kind, Index: i}
		if i >= first && i-first < len(a.Defaults) {
			p.Default = a.Defaults[i-first]
		}
		out = append(out, p)
		i++
	}
	for _, p := range a.PosOnlyArgs {
		if p != nil {
			add(p, PosOnly)
		}
	}
	for _, p := range a.Args {
		if p != nil {
			add(p, PosOrKeyword)
		}
	}
	if a.Vararg != nil {
		out = append(out, Param{Arg: a.Vararg, Name: a.Vararg.Arg, Kind: VarPositional, Index: -1})
	}
	for j, p := range a.KwOnlyArgs {
		if p == nil {
			continue
		}
		q := Param{Arg: p, Name: p.Arg, Kind: KeywordOnly, Index: -1}
		if j < len(a.KwDefaults) {
			q.Default = a.KwDefaults[j]
		}
		out = append(out, q)
	}
	if a.Kwarg != nil {
		out = append(out, Param{Arg: a.Kwarg, Name: a.Kwarg.Arg, Kind: VarKeyword, Index: -1})
	}
	return out
}

// ExprString renders a simple expression as Python source, for messages
// and for structural comparison of defaults: constants, names, attributes,
// unary minus, tuples, lists, subscripts and calls of those. Anything else
// renders as "...".
func ExprString(e ast.Expr) string {
	switch e := e.(type) {
	case nil:
		return ""
	case *ast.Constant:
		switch v := e.Value.(type) {
		case nil:
			return "None"
		case bool:
			if v {
				return "True"
			}
			return "False"
		case *big.Int:
			return v.String()
		case float64:
			s := strconvFloat(v)
			return s
		case string:
			return quotePy(v)
		case ast.Ellipsis:
			return "..."
		}
		return "..."
	case *ast.Name:
		return e.Id
	case *ast.Attribute:
		return ExprString(e.Value) + "." + e.Attr
	case *ast.UnaryOp:
		switch e.Op {
		case ast.USub:
			return "-" + ExprString(e.Operand)
		case ast.UAdd:
			return "+" + ExprString(e.Operand)
		case ast.Not:
			return "not " + ExprString(e.Operand)
		}
	case *ast.Tuple:
		parts := make([]string, len(e.Elts))
		for i, x := range e.Elts {
			parts[i] = ExprString(x)
		}
		if len(parts) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case *ast.List:
		parts := make([]string, len(e.Elts))
		for i, x := range e.Elts {
			parts[i] = ExprString(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *ast.Subscript:
		return ExprString(e.Value) + "[" + ExprString(e.Slice) + "]"
	case *ast.BinOp:
		if e.Op == ast.BitOr {
			return ExprString(e.Left) + " | " + ExprString(e.Right)
		}
	case *ast.Call:
		parts := []string{}
		for _, a := range e.Args {
			parts = append(parts, ExprString(a))
		}
		for _, k := range e.Keywords {
			if k.Arg != nil {
				parts = append(parts, *k.Arg+"="+ExprString(k.Value))
			} else {
				parts = append(parts, "**"+ExprString(k.Value))
			}
		}
		return ExprString(e.Func) + "(" + strings.Join(parts, ", ") + ")"
	}
	return "..."
}

func strconvFloat(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eIN") {
		s += ".0"
	}
	return s
}

func quotePy(s string) string { return strconv.Quote(s) }

func IsNoneExpr(e ast.Expr) bool {
	c, ok := e.(*ast.Constant)
	return ok && c.Value == nil
}

// ChainHead returns the name at the root of a Name/Attribute chain (the
// part of DottedName before the first dot), or "" when e is no such chain.
func ChainHead(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Name:
			if x == nil {
				return ""
			}
			return x.Id
		case *ast.Attribute:
			if x == nil {
				return ""
			}
			e = x.Value
		default:
			return ""
		}
	}
}

// DottedTail returns the last part of a dotted name.
func DottedTail(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// SiblingImportPaths returns the paths of the same-directory modules the
// file at path imports from (`from mod import x`, `from .mod import x`), whether or not
// they exist.
func SiblingImportPaths(path string, f *ast.File) []string {
	if f == nil || f.Module == nil {
		return nil
	}
	dir := ""
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir = path[:i+1]
	}
	var out []string
	for _, s := range f.Module.Body {
		if imp, ok := s.(*ast.ImportFrom); ok && imp.Module != nil && imp.Level <= 1 && !strings.Contains(*imp.Module, ".") {
			out = append(out, dir+*imp.Module+".py")
		}
	}
	return out
}

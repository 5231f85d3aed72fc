// Package pattern matches Python structural patterns on syntax trees of
// package ast, after semgrep's patterns: a pattern is Python source in
// which $X is a metavariable (any expression, bound to the first one it
// matches; a second $X must be the same text), $_ matches anything
// unbound, and `...` matches any expression, or any run of arguments,
// elements, statements or a def's parameters where it stands in a list
// (`def $F(..., $P=$D, ...)`: a parameter written without a default
// matches one without). Dotted names in a
// pattern are fully qualified: `cuda.tile.launch(...)` matches
// `ct.launch(...)` in a file that imports cuda.tile as ct, and `launch(...)`
// in one that imports it from cuda.tile, as the caller's Resolver says; a
// dotted name (or `cuda.tile.$F`) also matches the name of an import
// statement that imports it. It knows Python, not TileGym.
package pattern

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/python/parser"
)

// mvPrefix is what $X becomes in the source the parser reads.
const mvPrefix = "__mv_"

var metavarRE = regexp.MustCompile(`\$([A-Z_][A-Z0-9_]*)`)

// A Pattern is a parsed pattern: an expression, or one statement.
type Pattern struct {
	Source string
	node   ast.Node // an ast.Expr, or an ast.Stmt
	vars   []string // its metavariables, in order of first use
	// What a target must be for the pattern to match, computed once: an
	// index asks for every node type and name it meets.
	kinds        []string // Kinds
	anchor, qual string   // Anchor, Qualifier
}

// Parse parses a pattern with the package's own Python parser.
func Parse(src string) (*Pattern, error) {
	text := rewriteParams(metavarRE.ReplaceAllString(src, mvPrefix+"$1"))
	f, err := parser.ParseFile("pattern", []byte(text))
	if err != nil {
		return nil, fmt.Errorf("pattern %q does not parse as Python: %v", src, err)
	}
	if f.Module == nil || len(f.Module.Body) != 1 {
		return nil, fmt.Errorf("pattern %q: want one expression or one statement", src)
	}
	p := &Pattern{Source: src}
	if es, ok := f.Module.Body[0].(*ast.ExprStmt); ok {
		p.node = es.Value
	} else {
		p.node = f.Module.Body[0]
	}
	seen := map[string]bool{}
	for _, m := range metavarRE.FindAllStringSubmatch(src, -1) {
		if m[1] != "_" && !seen[m[1]] {
			seen[m[1]] = true
			p.vars = append(p.vars, m[1])
		}
	}
	p.kinds, p.anchor, p.qual = kindsOf(p.node), anchorOf(p.node), qualifierOf(p.node)
	return p, nil
}

// Root returns the metavariable the pattern is ($X: "X"), else "".
func (p *Pattern) Root() string {
	name, _ := mvName(p.node)
	return name
}

// Vars returns the names of the pattern's metavariables (without $).
func (p *Pattern) Vars() []string { return p.vars }

// A Resolver gives the qualified dotted name of a Name or Attribute chain
// of the file being matched (through its imports) or of a name of an
// import statement (an *ast.Alias: what it imports), or "" for another
// node.
type Resolver func(n ast.Node) string

// Ident is what a metavariable standing for a name that is not an
// expression binds: an attribute's name (cuda.tile.$F, at the whole
// attribute's position), a def's name (def $F(): no position).
type Ident struct {
	ast.Attrs
	Id string
}

// Bindings maps a metavariable's name (without $) to the node it matched.
type Bindings map[string]ast.Node

// Match reports whether n matches the pattern, adding the metavariables'
// bindings to b (which may be nil when the caller reads none).
func (p *Pattern) Match(n ast.Node, resolve Resolver, b Bindings) bool {
	if b == nil {
		b = Bindings{}
	}
	m := matcher{resolve: resolve, b: b}
	return m.node(p.node, n)
}

// MatchWhere is Match with a check of each metavariable's binding, made as
// it binds: a binding the check refuses makes the matcher try the others
// (`(..., $E, ...)` finds the element that passes, not the first).
func (p *Pattern) MatchWhere(n ast.Node, resolve Resolver, b Bindings, check func(name string, n ast.Node) bool) bool {
	if b == nil {
		b = Bindings{}
	}
	m := matcher{resolve: resolve, b: b, check: check}
	return m.node(p.node, n)
}

// nameKinds are the types of the nodes a qualified name may be written
// as: a name, an attribute chain, a name of an import statement.
var nameKinds = []string{"Attribute", "Name", "Alias"}

// Kinds returns the type names a target's node may have for the pattern
// to match ("Call", "For"), or nil when a node of any type may: the root is
// a metavariable or `...`. A qualified name (`triton.jit`, `cuda.tile.$F`)
// may be a name, an attribute or an import's name.
func (p *Pattern) Kinds() []string { return p.kinds }

func kindsOf(n ast.Node) []string {
	if isWild(n) {
		return nil
	}
	if _, ok := mvName(n); ok {
		return nil
	}
	if isDotted(n) || qualifiedAttr(n) != nil {
		return nameKinds
	}
	return []string{reflect.TypeOf(n).Elem().Name()}
}

// qualifiedAttr returns a pattern node that is `dotted.$F` (an attribute
// whose name is a metavariable, of a dotted name), else nil.
func qualifiedAttr(n ast.Node) *ast.Attribute {
	a, ok := n.(*ast.Attribute)
	if ok && strings.HasPrefix(a.Attr, mvPrefix) && isDotted(a.Value) {
		return a
	}
	return nil
}

// Anchor returns a name that the last part of a target's own name must
// be for the pattern to match, or "" when the pattern fixes none. A
// target's own name is an Attribute's attribute name, the last part of
// what a Name or an import's name resolves to, or for a Call the callee's.
// The pattern's root is an attribute with a fixed name (`triton.jit`,
// `$X.shape`) or a call of one (`cuda.tile.load(...)`,
// `$K.replace_hints(...)`) or of a dotted name (`setattr(...)`). A caller
// may skip the pattern on a node whose name differs: it cannot match there.
func (p *Pattern) Anchor() string { return p.anchor }

func anchorOf(n ast.Node) string {
	if c, ok := n.(*ast.Call); ok {
		if v, ok := c.Func.(*ast.Name); ok && isDotted(v) {
			return v.Id
		}
		n = c.Func
	}
	if a, ok := n.(*ast.Attribute); ok && !strings.HasPrefix(a.Attr, mvPrefix) {
		return a.Attr
	}
	return ""
}

// Qualifier returns the name that a target's qualifier must be for the
// pattern to match, or "" when the pattern fixes none: the dotted name of
// a root `dotted.$F` or of a call of one (`cuda.tile.$F(...)`). A
// target's qualifier is an Attribute's value resolved, the part of what a
// Name or an import's name resolves to before its last dot ("" without
// one), or for a Call, its callee's. A caller may skip the pattern on a
// node whose qualifier differs: it cannot match there.
func (p *Pattern) Qualifier() string { return p.qual }

func qualifierOf(n ast.Node) string {
	if c, ok := n.(*ast.Call); ok {
		n = c.Func
	}
	if a := qualifiedAttr(n); a != nil {
		return astutil.DottedName(a.Value)
	}
	return ""
}

// Type returns the type name a target's node must have for the pattern to
// match ("Call", "For"), or "" when nodes of several types may (Kinds).
func (p *Pattern) Type() string {
	if k := p.Kinds(); len(k) == 1 {
		return k[0]
	}
	return ""
}

type matcher struct {
	resolve Resolver
	b       Bindings
	check   func(name string, n ast.Node) bool
	bound   []string // the names bound, in order: undone back to a mark
}

// mvName returns the metavariable a pattern node is ($X), if it is one.
func mvName(n ast.Node) (string, bool) {
	switch v := n.(type) {
	case *ast.Name:
		return strings.CutPrefix(v.Id, mvPrefix)
	case *ast.ExprStmt:
		return mvName(v.Value)
	}
	return "", false
}

// isWild reports whether a pattern node is `...` (as an expression or as
// a statement).
func isWild(n ast.Node) bool {
	switch v := n.(type) {
	case *ast.Constant:
		_, ok := v.Value.(ast.Ellipsis)
		return ok
	case *ast.ExprStmt:
		return isWild(v.Value)
	}
	return false
}

func (m *matcher) bind(name string, n ast.Node) bool {
	if name == "_" {
		return true
	}
	if old, ok := m.b[name]; ok {
		if oi, ok := old.(*Ident); ok {
			ni, ok := n.(*Ident)
			return ok && ni.Id == oi.Id
		}
		// The same tree (a target holds no metavariable).
		same := matcher{resolve: m.resolve, b: Bindings{}}
		return same.node(old, n)
	}
	if m.check != nil && !m.check(name, n) {
		return false
	}
	m.b[name] = n
	m.bound = append(m.bound, name)
	return true
}

// isNil reports whether an interface holds nothing or a nil pointer.
func isNil(n any) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// node matches one pattern node against one target node.
func (m *matcher) node(p, t ast.Node) bool {
	if isNil(p) || isNil(t) {
		return isNil(p) && isNil(t)
	}
	if isWild(p) {
		return true
	}
	if name, ok := mvName(p); ok {
		if _, isExpr := p.(*ast.Name); isExpr {
			// An expression, or the name of an import (which stands for
			// what it imports, as a name does).
			if _, ok := t.(ast.Expr); !ok {
				if _, ok := t.(*ast.Alias); !ok {
					return false
				}
			}
		}
		return m.bind(name, t)
	}
	// A dotted name without metavariables is compared resolved.
	if isDotted(p) {
		if m.resolve != nil {
			return dottedIs(p, m.resolve(t))
		}
		te, ok := t.(ast.Expr)
		return ok && dottedIs(p, astutil.DottedName(te))
	}
	switch pv := p.(type) {
	case *ast.Attribute:
		tv, ok := t.(*ast.Attribute)
		if !ok {
			// `cuda.tile.$F` also matches a bare name or an import's name
			// that resolves to cuda.tile.<name>.
			return qualifiedAttr(pv) != nil && m.qualified(pv, t)
		}
		if name, ok := strings.CutPrefix(pv.Attr, mvPrefix); ok {
			if isDotted(pv.Value) {
				// The value holds no metavariable: checked first, it spares
				// binding (and checking) the name of every other attribute.
				return m.node(pv.Value, tv.Value) && m.bind(name, &Ident{Attrs: tv.Attrs, Id: tv.Attr})
			}
			return m.bind(name, &Ident{Attrs: tv.Attrs, Id: tv.Attr}) && m.node(pv.Value, tv.Value)
		}
		return pv.Attr == tv.Attr && m.node(pv.Value, tv.Value)
	case *ast.Call:
		tv, ok := t.(*ast.Call)
		return ok && m.call(pv, tv)
	case *ast.FunctionDef:
		tv, ok := t.(*ast.FunctionDef)
		return ok && m.funcDef(pv, tv)
	// What generic does, without reflection, for the node types the
	// catalog's patterns are offered most (an assignment to every `$K =
	// ...`, every subscript, loop and tuple): the same fields in the same
	// order, positions and contexts ignored.
	case *ast.Assign:
		// The value's type is looked at before the targets bind (and check)
		// anything: `$K = (..., $E, ...)` is offered every assignment.
		tv, ok := t.(*ast.Assign)
		return ok && !refuses(pv.Value, tv.Value) &&
			m.list(toNodes(pv.Targets), toNodes(tv.Targets)) && m.node(pv.Value, tv.Value)
	case *ast.Subscript:
		tv, ok := t.(*ast.Subscript)
		return ok && m.node(pv.Value, tv.Value) && m.node(pv.Slice, tv.Slice)
	case *ast.Tuple:
		tv, ok := t.(*ast.Tuple)
		return ok && m.list(toNodes(pv.Elts), toNodes(tv.Elts))
	case *ast.List:
		tv, ok := t.(*ast.List)
		return ok && m.list(toNodes(pv.Elts), toNodes(tv.Elts))
	case *ast.For:
		tv, ok := t.(*ast.For)
		return ok && m.node(pv.Target, tv.Target) && m.node(pv.Iter, tv.Iter) &&
			m.list(toNodes(pv.Body), toNodes(tv.Body)) && m.list(toNodes(pv.Orelse), toNodes(tv.Orelse))
	case *ast.Import:
		tv, ok := t.(*ast.Import)
		return ok && m.imported(pv.Names, tv.Names)
	case *ast.ImportFrom:
		tv, ok := t.(*ast.ImportFrom)
		return ok && pv.Level == tv.Level && value(m, reflect.ValueOf(pv.Module), reflect.ValueOf(tv.Module)) &&
			m.imported(pv.Names, tv.Names)
	}
	return generic(m, reflect.ValueOf(p).Elem(), reflect.ValueOf(t).Elem())
}

// refuses reports whether a pattern node cannot match a target node
// whatever is bound: node matches a pattern node that is not a name, an
// attribute, a metavariable or `...` only with a node of its own type.
// It spares binding the other parts of a pattern.
func refuses(p, t ast.Node) bool {
	switch p.(type) {
	case *ast.Name, *ast.Attribute, *ast.ExprStmt:
		return false
	}
	if isNil(p) || isNil(t) || isWild(p) {
		return false
	}
	return reflect.TypeOf(p) != reflect.TypeOf(t)
}

// qualified matches `dotted.$F` against a name or an import's name
// (not an attribute) whose resolved name is the dotted name and one part
// more, which $F binds (at the target's position).
func (m *matcher) qualified(p *ast.Attribute, t ast.Node) bool {
	if m.resolve == nil {
		return false
	}
	switch t.(type) {
	case *ast.Name, *ast.Alias:
	default:
		return false
	}
	q := m.resolve(t)
	i := strings.LastIndexByte(q, '.')
	if i < 0 || !dottedIs(p.Value, q[:i]) {
		return false
	}
	name, _ := strings.CutPrefix(p.Attr, mvPrefix)
	return m.bind(name, &Ident{Attrs: *t.Attributes(), Id: q[i+1:]})
}

// call matches a call: the callee, the positional arguments (where `...`
// is any run of them) and the keywords, in any order; with a `...` among
// the arguments the target may have keywords the pattern does not name.
func (m *matcher) call(p, t *ast.Call) bool {
	// A callee of another type first (`$K[$G](...)` is offered every
	// call), then what the arguments and keywords need, counted before the
	// callee is matched (the callee binds and checks metavariables).
	if refuses(p.Func, t.Func) {
		return false
	}
	open, fixed := false, 0
	for _, a := range p.Args {
		if isWild(a) {
			open = true
		} else {
			fixed++
		}
	}
	if len(t.Args) < fixed || !open && len(t.Args) != fixed || !open && len(t.Keywords) != len(p.Keywords) {
		return false
	}
	for _, pk := range p.Keywords {
		if !slices.ContainsFunc(t.Keywords, func(tk *ast.Keyword) bool { return sameKeyword(pk, tk) }) {
			return false
		}
	}
	if !m.node(p.Func, t.Func) {
		return false
	}
	if !m.list(toNodes(p.Args), toNodes(t.Args)) {
		return false
	}
	used := make([]bool, len(t.Keywords))
	for _, pk := range p.Keywords {
		found := false
		for i, tk := range t.Keywords {
			if used[i] || !sameKeyword(pk, tk) {
				continue
			}
			save := m.snapshot()
			if m.node(pk.Value, tk.Value) {
				used[i], found = true, true
				break
			}
			m.restore(save) // a failed attempt binds nothing

		}
		if !found {
			return false
		}
	}
	if !open {
		for _, u := range used {
			if !u {
				return false
			}
		}
	}
	return true
}

// imported matches the names of an import statement: a pattern names
// some of what a statement imports, in its order (`import cutile` matches
// `import os, cutile`; `from cutile import $N`, each statement importing
// from cutile once, $N its first name).
func (m *matcher) imported(p, t []*ast.Alias) bool {
	if len(p) == 0 {
		return true
	}
	for k := range t {
		save := m.snapshot()
		if m.node(p[0], t[k]) && m.imported(p[1:], t[k+1:]) {
			return true
		}
		m.restore(save)
	}
	return false
}

func sameKeyword(p, t *ast.Keyword) bool {
	if p.Arg == nil || t.Arg == nil {
		return p.Arg == nil && t.Arg == nil
	}
	return *p.Arg == *t.Arg
}

func toNodes[T ast.Node](list []T) []ast.Node {
	out := make([]ast.Node, len(list))
	for i, e := range list {
		out[i] = e
	}
	return out
}

// list matches a list of pattern nodes against a list of target nodes, a
// `...` matching any run.
func (m *matcher) list(p, t []ast.Node) bool {
	return seq(m, p, t, isWild, m.node)
}

// seq matches pattern items against target items, one by one, an item for
// which wild is true matching any run of them (backtracking; patterns are
// short): the sequence matcher of node lists and of parameter lists.
func seq[T any](m *matcher, p, t []T, wild func(T) bool, one func(p, t T) bool) bool {
	if len(p) == 0 {
		return len(t) == 0
	}
	if wild(p[0]) {
		for k := 0; k <= len(t); k++ {
			save := m.snapshot()
			if seq(m, p[1:], t[k:], wild, one) {
				return true
			}
			m.restore(save)
		}
		return false
	}
	if len(t) == 0 {
		return false
	}
	save := m.snapshot()
	if one(p[0], t[0]) && seq(m, p[1:], t[1:], wild, one) {
		return true
	}
	m.restore(save)
	return false
}

// snapshot marks the bindings made so far; restore undoes those made
// since (a binding is only ever added).
func (m *matcher) snapshot() int { return len(m.bound) }

func (m *matcher) restore(mark int) {
	for _, name := range m.bound[mark:] {
		delete(m.b, name)
	}
	m.bound = m.bound[:mark]
}

// isDotted reports whether a pattern node is a dotted name without
// metavariables (one astutil.DottedName gives without mvPrefix), checked
// without building it.
func isDotted(n ast.Node) bool {
	for {
		switch v := n.(type) {
		case *ast.Name:
			return v != nil && v.Id != "" && !strings.Contains(v.Id, mvPrefix)
		case *ast.Attribute:
			if v == nil || strings.Contains(v.Attr, mvPrefix) {
				return false
			}
			n = v.Value
		default:
			return false
		}
	}
}

// dottedIs reports whether q is the dotted name of a node isDotted
// accepts, compared part by part from the end without building it.
func dottedIs(n ast.Node, q string) bool {
	for {
		switch v := n.(type) {
		case *ast.Name:
			return q == v.Id
		case *ast.Attribute:
			k := len(q) - len(v.Attr) - 1
			if k < 0 || q[k] != '.' || q[k+1:] != v.Attr {
				return false
			}
			q, n = q[:k], v.Value
		default:
			return false
		}
	}
}

var (
	attrsType = reflect.TypeOf(ast.Attrs{})
	nodeType  = reflect.TypeOf((*ast.Node)(nil)).Elem()
)

// A nodeMatcher matches pattern nodes, lists of them and metavariables:
// the matcher, and the plain reference its tests compare it with, which
// share generic and value.
type nodeMatcher interface {
	node(p, t ast.Node) bool
	list(p, t []ast.Node) bool
	bind(name string, n ast.Node) bool
}

// generic matches two nodes of the same type field by field: node fields
// recursively, lists of nodes as lists, a string field that is a
// metavariable ($F as a def's name) binds it, other values equal;
// positions and contexts are ignored.
func generic(m nodeMatcher, p, t reflect.Value) bool {
	if p.Type() != t.Type() {
		return false
	}
	for i := 0; i < p.NumField(); i++ {
		f := p.Type().Field(i)
		if f.Type == attrsType || f.Name == "Ctx" || f.Name == "TypeComment" || f.Name == "Kind" {
			continue
		}
		if !value(m, p.Field(i), t.Field(i)) {
			return false
		}
	}
	return true
}

func value(m nodeMatcher, pf, tf reflect.Value) bool {
	switch {
	case pf.Type().Implements(nodeType) && pf.Kind() == reflect.Interface:
		pn, _ := pf.Interface().(ast.Node)
		tn, _ := tf.Interface().(ast.Node)
		return m.node(pn, tn)
	case pf.Kind() == reflect.Pointer && pf.Type().Implements(nodeType):
		var pn, tn ast.Node
		if !pf.IsNil() {
			pn = pf.Interface().(ast.Node)
		}
		if !tf.IsNil() {
			tn = tf.Interface().(ast.Node)
		}
		return m.node(pn, tn)
	case pf.Kind() == reflect.Pointer:
		if pf.IsNil() || tf.IsNil() {
			return pf.IsNil() && tf.IsNil()
		}
		if pf.Elem().Kind() == reflect.Struct {
			return generic(m, pf.Elem(), tf.Elem())
		}
		return value(m, pf.Elem(), tf.Elem())
	case pf.Kind() == reflect.Slice && pf.Type().Elem().Implements(nodeType):
		pl := make([]ast.Node, pf.Len())
		for i := range pl {
			pl[i], _ = pf.Index(i).Interface().(ast.Node)
		}
		tl := make([]ast.Node, tf.Len())
		for i := range tl {
			tl[i], _ = tf.Index(i).Interface().(ast.Node)
		}
		return m.list(pl, tl)
	case pf.Kind() == reflect.Slice:
		if pf.Len() != tf.Len() {
			return false
		}
		for i := 0; i < pf.Len(); i++ {
			if !value(m, pf.Index(i), tf.Index(i)) {
				return false
			}
		}
		return true
	case pf.Kind() == reflect.String:
		if name, ok := strings.CutPrefix(pf.String(), mvPrefix); ok {
			return m.bind(name, &Ident{Id: tf.String()})
		}
		return pf.String() == tf.String()
	case pf.Kind() == reflect.Struct:
		return generic(m, pf, tf)
	case pf.Kind() == reflect.Interface:
		// Constant.Value: compared as Python writes it.
		return fmt.Sprint(pf.Interface()) == fmt.Sprint(tf.Interface())
	}
	return pf.CanInterface() && tf.CanInterface() && reflect.DeepEqual(pf.Interface(), tf.Interface())
}

// A def pattern's parameter list is rewritten before it is parsed, as
// Python allows neither `...` there nor a parameter without a default
// after one with: `...` becomes a parameter named wildParam<n>, and a
// parameter without a default gets the default noDefault.
const (
	wildParam = "__pw_dots"
	noDefault = "__pw_nodefault"
)

var defRE = regexp.MustCompile(`\bdef\s+\w+\s*\(`)

// rewriteParams rewrites the parameter lists of the defs of a pattern.
func rewriteParams(text string) string {
	var b strings.Builder
	n := 0
	for {
		loc := defRE.FindStringIndex(text)
		if loc == nil {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:loc[1]])
		text = text[loc[1]:]
		// The list up to the matching parenthesis, cut at its top-level commas.
		depth, end := 0, len(text)
		var cuts []int
		for i := 0; i < len(text) && end == len(text); i++ {
			switch text[i] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth == 0 {
					end = i
				}
				depth--
			case ',':
				if depth == 0 {
					cuts = append(cuts, i)
				}
			}
		}
		start := 0
		for _, c := range append(cuts, end) {
			piece := text[start:c]
			p := strings.TrimSpace(piece)
			switch {
			case p == "...":
				fmt.Fprintf(&b, "%s%d=%s", wildParam, n, noDefault)
				n++
			case p == "" || strings.HasPrefix(p, "*") || p == "/" || topLevelEq(p):
				b.WriteString(piece)
			default:
				b.WriteString(piece + "=" + noDefault)
			}
			if c < end {
				b.WriteString(",")
			}
			start = c + 1
		}
		text = text[end:]
	}
}

// topLevelEq reports whether a parameter has a default (an "=" outside
// brackets).
func topLevelEq(p string) bool {
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '=':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// A param is one parameter of a def (astutil's flattening), as a
// pattern reads it.
type param struct {
	astutil.Param
	wild      bool // a pattern's `...`
	noDefault bool // a pattern's parameter written without a default
}

func params(a *ast.Arguments) []param {
	var out []param
	for _, x := range astutil.Params(a) {
		p := param{Param: x, wild: strings.HasPrefix(x.Name, wildParam)}
		if n, ok := x.Default.(*ast.Name); ok && n.Id == noDefault {
			p.Default, p.noDefault = nil, true
		}
		out = append(out, p)
	}
	return out
}

// starOf tells a plain parameter (0) from *args (1) and **kwargs (2).
func starOf(k astutil.ParamKind) int {
	switch k {
	case astutil.VarPositional:
		return 1
	case astutil.VarKeyword:
		return 2
	}
	return 0
}

// funcDef matches a def: its name, its parameters (with `...`), its body
// and, when the pattern gives them, its decorators (each must match one
// of the target's; the target may have more) and its return annotation.
func (m *matcher) funcDef(p, t *ast.FunctionDef) bool {
	if name, ok := strings.CutPrefix(p.Name, mvPrefix); ok {
		if !m.bind(name, &Ident{Id: t.Name}) {
			return false
		}
	} else if p.Name != t.Name {
		return false
	}
	for _, pd := range p.DecoratorList {
		if !slices.ContainsFunc(t.DecoratorList, func(td ast.Expr) bool {
			save := m.snapshot()
			if m.node(pd, td) {
				return true
			}
			m.restore(save)
			return false
		}) {
			return false
		}
	}
	if p.Returns != nil && !m.node(p.Returns, t.Returns) {
		return false
	}
	return m.params(params(p.Args), params(t.Args)) && m.list(toNodes(p.Body), toNodes(t.Body))
}

// params matches a pattern's parameters against a def's, `...` matching
// any run of them (backtracking, as list).
func (m *matcher) params(p, t []param) bool {
	return seq(m, p, t, func(x param) bool { return x.wild }, m.param)
}

// param matches one parameter: its kind (plain, *, **), its name (a
// metavariable binds it, at the parameter's position), its annotation
// when the pattern gives one, its default (none when the pattern has
// none).
func (m *matcher) param(p, t param) bool {
	if starOf(p.Kind) != starOf(t.Kind) {
		return false
	}
	if name, ok := strings.CutPrefix(p.Name, mvPrefix); ok {
		if !m.bind(name, &Ident{Attrs: t.Arg.Attrs, Id: t.Name}) {
			return false
		}
	} else if p.Name != t.Name {
		return false
	}
	if p.Arg.Annotation != nil && !m.node(p.Arg.Annotation, t.Arg.Annotation) {
		return false
	}
	switch {
	case p.noDefault:
		return t.Default == nil
	case p.Default != nil:
		return t.Default != nil && m.node(p.Default, t.Default)
	}
	return true
}

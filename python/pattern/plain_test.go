package pattern

import (
	"reflect"
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// The matcher as first written, which the tests hold the matcher to (but
// for one fix both have: a keyword tried and refused binds nothing): the
// pattern's dotted names built at each comparison, the bindings copied
// before each element of a list is tried, a call's callee matched before
// its arguments are counted.

// matchPlain is MatchWhere with plainMatcher.
func (p *Pattern) matchPlain(n ast.Node, resolve Resolver, b Bindings, check func(name string, n ast.Node) bool) bool {
	m := plainMatcher{resolve: resolve, b: b, check: check}
	return m.node(p.node, n)
}

type plainMatcher struct {
	resolve Resolver
	b       Bindings
	check   func(name string, n ast.Node) bool
}

func (m *plainMatcher) bind(name string, n ast.Node) bool {
	if name == "_" {
		return true
	}
	if old, ok := m.b[name]; ok {
		if oi, ok := old.(*Ident); ok {
			ni, ok := n.(*Ident)
			return ok && ni.Id == oi.Id
		}
		// The same tree (a target holds no metavariable).
		same := plainMatcher{resolve: m.resolve, b: Bindings{}}
		return same.node(old, n)
	}
	if m.check != nil && !m.check(name, n) {
		return false
	}
	m.b[name] = n
	return true
}

// node matches one pattern node against one target node.
func (m *plainMatcher) node(p, t ast.Node) bool {
	if isNil(p) || isNil(t) {
		return isNil(p) && isNil(t)
	}
	if isWild(p) {
		return true
	}
	if name, ok := mvName(p); ok {
		if _, isExpr := p.(*ast.Name); isExpr {
			_, alias := t.(*ast.Alias)
			if _, ok := t.(ast.Expr); !ok && !alias {
				return false
			}
		}
		return m.bind(name, t)
	}
	// A dotted name without metavariables is compared resolved.
	if pe, ok := p.(ast.Expr); ok {
		if d := astutil.DottedName(pe); d != "" && !strings.Contains(d, mvPrefix) {
			if m.resolve != nil {
				return m.resolve(t) == d
			}
			te, ok := t.(ast.Expr)
			return ok && astutil.DottedName(te) == d
		}
	}
	switch pv := p.(type) {
	case *ast.Attribute:
		tv, ok := t.(*ast.Attribute)
		if !ok {
			// dotted.$F: a name or an import's name resolving to
			// dotted.<one more part>.
			d := astutil.DottedName(pv.Value)
			name, isMV := strings.CutPrefix(pv.Attr, mvPrefix)
			if !isMV || d == "" || strings.Contains(d, mvPrefix) || m.resolve == nil {
				return false
			}
			var at ast.Attrs
			switch v := t.(type) {
			case *ast.Name:
				at = v.Attrs
			case *ast.Alias:
				at = v.Attrs
			default:
				return false
			}
			q := m.resolve(t)
			rest, ok := strings.CutPrefix(q, d+".")
			if !ok || rest == "" || strings.Contains(rest, ".") {
				return false
			}
			return m.bind(name, &Ident{Attrs: at, Id: rest})
		}
		if name, ok := strings.CutPrefix(pv.Attr, mvPrefix); ok {
			return m.bind(name, &Ident{Attrs: tv.Attrs, Id: tv.Attr}) && m.node(pv.Value, tv.Value)
		}
		return pv.Attr == tv.Attr && m.node(pv.Value, tv.Value)
	case *ast.Call:
		tv, ok := t.(*ast.Call)
		return ok && m.call(pv, tv)
	case *ast.FunctionDef:
		tv, ok := t.(*ast.FunctionDef)
		return ok && m.funcDef(pv, tv)
	case *ast.Import:
		tv, ok := t.(*ast.Import)
		return ok && m.someNames(len(pv.Names), tv.Names, func(names []*ast.Alias) bool {
			return generic(m, reflect.ValueOf(pv).Elem(), reflect.ValueOf(&ast.Import{Names: names}).Elem())
		})
	case *ast.ImportFrom:
		tv, ok := t.(*ast.ImportFrom)
		return ok && m.someNames(len(pv.Names), tv.Names, func(names []*ast.Alias) bool {
			some := *tv
			some.Names = names
			return generic(m, reflect.ValueOf(pv).Elem(), reflect.ValueOf(&some).Elem())
		})
	}
	return generic(m, reflect.ValueOf(p).Elem(), reflect.ValueOf(t).Elem())
}

// someNames reports whether the statement with only n of its names
// (names, in order) matches, the choices tried in lexicographic order.
func (m *plainMatcher) someNames(n int, names []*ast.Alias, match func([]*ast.Alias) bool) bool {
	var pick func(from int, chosen []*ast.Alias) bool
	pick = func(from int, chosen []*ast.Alias) bool {
		if len(chosen) == n {
			save := m.snapshot()
			if match(chosen) {
				return true
			}
			m.restore(save)
			return false
		}
		for k := from; k < len(names); k++ {
			if pick(k+1, append(chosen[:len(chosen):len(chosen)], names[k])) {
				return true
			}
		}
		return false
	}
	return pick(0, nil)
}

// call matches a call: the callee, the positional arguments (where `...`
// is any run of them) and the keywords, in any order; with a `...` among
// the arguments the target may have keywords the pattern does not name.
func (m *plainMatcher) call(p, t *ast.Call) bool {
	if !m.node(p.Func, t.Func) {
		return false
	}
	if !m.list(toNodes(p.Args), toNodes(t.Args)) {
		return false
	}
	open := false
	for _, a := range p.Args {
		if isWild(a) {
			open = true
		}
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
			m.restore(save)

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

// list matches a list of pattern nodes against a list of target nodes, a
// `...` matching any run (backtracking; patterns are short).
func (m *plainMatcher) list(p, t []ast.Node) bool {
	if len(p) == 0 {
		return len(t) == 0
	}
	if isWild(p[0]) {
		for k := 0; k <= len(t); k++ {
			save := m.snapshot()
			if m.list(p[1:], t[k:]) {
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
	if m.node(p[0], t[0]) && m.list(p[1:], t[1:]) {
		return true
	}
	m.restore(save)
	return false
}

func (m *plainMatcher) snapshot() Bindings {
	c := make(Bindings, len(m.b))
	for k, v := range m.b {
		c[k] = v
	}
	return c
}

func (m *plainMatcher) restore(s Bindings) {
	clear(m.b)
	for k, v := range s {
		m.b[k] = v
	}
}

func (m *plainMatcher) funcDef(p, t *ast.FunctionDef) bool {
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
func (m *plainMatcher) params(p, t []param) bool {
	if len(p) == 0 {
		return len(t) == 0
	}
	if p[0].wild {
		for k := 0; k <= len(t); k++ {
			save := m.snapshot()
			if m.params(p[1:], t[k:]) {
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
	if m.param(p[0], t[0]) && m.params(p[1:], t[1:]) {
		return true
	}
	m.restore(save)
	return false
}

// param matches one parameter: its kind (plain, *, **), its name (a
// metavariable binds it, at the parameter's position), its annotation
// when the pattern gives one, its default (none when the pattern has
// none).
func (m *plainMatcher) param(p, t param) bool {
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

package checks

// Which rules' patterns may match which nodes (the index), and the one
// walk of a file that matches them all (findAll).

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/python/pattern"
	"github.com/tilegym/tilegym-lint/python/requires"
	"github.com/tilegym/tilegym-lint/source"
)

// A PatternMatch is one finding of a pattern rule in a file.
type PatternMatch struct {
	At    ast.Node          // nil: the file (a require that fails)
	Vars  map[string]string // match, value, name
	Binds map[string]string // the text of each metavariable (when the params ask for it: a relation's subjects)
}

// A patternIndex says, for a node's type and attribute name (nodeAnchor),
// which rules may find something at it and with which of their patterns;
// built as the keys are met, it serves every file the rules look at.
type patternIndex struct {
	ps    []*PatternParams
	byKey map[indexKey]*concern
}

type indexKey struct {
	t      reflect.Type
	anchor string
}

// A concern is what a node of one key may be to the rules.
type concern struct {
	kind  string      // the node's type name (nodeKind)
	rules []candidate // in the order of the rules
}

// A candidate is a rule that may find something at a node: its require
// may match there, or some of its patterns (pats, in the rule's order),
// or its nodes list the node's type.
type candidate struct {
	i    int
	req  bool
	pats []*pattern.Pattern
}

func newPatternIndex(ps []*PatternParams) *patternIndex {
	return &patternIndex{ps: ps, byKey: map[indexKey]*concern{}}
}

// nodeAnchor is the last part of a node's own name, what pattern.Anchor
// constrains: an Attribute's attribute name, a call's callee's (an
// Attribute's, or the last part of what a Name resolves to); else "".
func nodeAnchor(resolve pattern.Resolver, n ast.Node) string {
	switch v := n.(type) {
	case *ast.Call:
		switch f := v.Func.(type) {
		case *ast.Attribute:
			return f.Attr
		case *ast.Name:
			q := resolve(f)
			return q[strings.LastIndexByte(q, '.')+1:]
		}
	case *ast.Attribute:
		return v.Attr
	}
	return ""
}

// mayMatch reports whether a pattern may match a node of type kind whose
// own name ends in anchor.
func mayMatch(pt *pattern.Pattern, kind, anchor string) bool {
	t, pa := pt.Type(), pt.Anchor()
	return (t == "" || t == kind) && (pa == "" || anchor == "" || pa == anchor)
}

// of returns the concern of the nodes of a key: a rule's patterns are
// offered the nodes of their rule's types (PatternParams.kinds) that they
// may match (mayMatch), its nodes those listed, its require those it may
// match.
func (ix *patternIndex) of(key indexKey) *concern {
	if c := ix.byKey[key]; c != nil {
		return c
	}
	c := &concern{kind: typeKind(key.t)}
	for i, p := range ix.ps {
		cd := candidate{i: i, req: p.require != nil && mayMatch(p.require, c.kind, key.anchor)}
		if p.kinds == nil || p.kinds[c.kind] {
			for _, pt := range p.pats {
				if mayMatch(pt, c.kind, key.anchor) {
					cd.pats = append(cd.pats, pt)
				}
			}
		}
		if cd.req || len(cd.pats) > 0 || slices.Contains(p.Nodes, c.kind) {
			c.rules = append(c.rules, cd)
		}
	}
	ix.byKey[key] = c
	return c
}

// findAll returns the findings of the rules of ix that look at a parsed
// file (on[i]: rule i does; nil: all do), from one walk of its tree;
// admitted gives the versions of a dependency the file's project admits
// (nil: every version).
func findAll(f *source.File, ix *patternIndex, on []bool, admitted func(dep string) requires.Range) [][]PatternMatch {
	ps := ix.ps
	fm := newFileMatcher(f)
	fm.admitted = admitted
	out := make([][]PatternMatch, len(ps))
	first := make([]ast.Node, len(ps))
	found := make([]bool, len(ps))
	looks := func(i int) bool { return on == nil || on[i] }
	checks := make([]func(string, ast.Node) bool, len(ps))
	for i, p := range ps {
		if looks(i) {
			checks[i] = p.check(fm)
		}
	}
	// The concern of each key the file's nodes have, looked up once.
	fn := fileNodesOf(f)
	concerns := make([]*concern, len(fn.keys))
	for k, key := range fn.keys {
		concerns[k] = ix.of(key)
	}
	path := make([]ast.Node, 0, 32)
	for j, n := range fn.nodes {
		path = append(path[:fn.depth[j]], n)
		c := concerns[fn.key[j]]
		for _, cd := range c.rules {
			i := cd.i
			if !looks(i) {
				continue
			}
			p := ps[i]
			if cd.req && !found[i] && p.require.Match(n, fm.resolve, nil) {
				found[i] = true
			}
			at, b, ok := p.match(fm, path, c.kind, checks[i], cd.pats)
			if !ok {
				continue
			}
			if first[i] == nil {
				first[i] = at
			}
			if p.require == nil {
				m := PatternMatch{At: at, Vars: matchVars(fm, n, at)}
				if p.binds {
					m.Binds = map[string]string{}
					for k, x := range b {
						m.Binds[k] = bindingText(fm, x)
					}
				}
				out[i] = append(out[i], m)
			}
		}
	}
	for i, p := range ps {
		if looks(i) && p.require != nil && (len(p.pats) == 0 || first[i] != nil) && !found[i] {
			out[i] = append(out[i], PatternMatch{At: first[i], Vars: map[string]string{"match": "", "value": "", "name": ""}})
		}
	}
	return out
}

// match returns the node a match is reported at, when the node at the end
// of path (of type kind, nodeKind's) is one; check is p.check(fm), pats
// those of p.pats that may match the node.
func (p *PatternParams) match(fm *fileMatcher, path []ast.Node, kind string, check func(string, ast.Node) bool, pats []*pattern.Pattern) (ast.Node, pattern.Bindings, bool) {
	n := path[len(path)-1]
	fm.path = path
	if len(p.Nodes) > 0 && slices.Contains(p.Nodes, kind) && p.inContexts(fm, path) {
		return n, pattern.Bindings{}, true
	}
	if p.kinds != nil && !p.kinds[kind] {
		return nil, nil, false
	}
	// One map serves every attempt in the file; a match gets a copy.
	if fm.b == nil {
		fm.b = pattern.Bindings{}
	}
	for _, pt := range pats {
		b := fm.b
		clear(b)
		if !pt.MatchWhere(n, fm.resolve, b, check) {
			continue
		}
		b = maps.Clone(b)
		at, ok := p.holds(fm, b)
		if !ok {
			continue
		}
		if !p.inContexts(fm, path) {
			return nil, nil, false
		}
		if at == nil {
			at = n
			if p.Report != "" {
				at = b[p.Report]
			}
		}
		return at, b, true
	}
	return nil, nil, false
}

func matchVars(fm *fileMatcher, n, at ast.Node) map[string]string {
	v := map[string]string{"match": nodeSource(fm.f, n), "value": nodeSource(fm.f, at), "name": ""}
	switch x := at.(type) {
	case *pattern.Ident:
		v["name"] = x.Id
		if x.Lineno == 0 {
			v["value"] = x.Id
		}
	case *ast.Name:
		v["name"] = x.Id
	case *ast.Attribute:
		v["name"] = x.Attr
	case *ast.Alias:
		v["name"] = x.Name
	case *ast.Call:
		v["name"] = astutil.DottedTail(astutil.DottedName(x.Func))
		if a, ok := x.Func.(*ast.Attribute); ok && v["name"] == "" {
			v["name"] = a.Attr // a method of a call's result: f(x).to(...)
		}
	}
	return v
}

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

// A patternIndex says, for a node's type and the parts of its own name
// (nodeNames), which rules may find something at it and with which of
// their patterns; built as the keys are met, it serves every file the
// rules look at.
type patternIndex struct {
	ps []*PatternParams
	// By node type, the rules that may find something at a node of it
	// and the concerns of its keys; common by commonSlot.
	byType map[reflect.Type]*typeConcern
	common [commonSlots]*typeConcern
	// The anchors a match of each pattern of each rule may have (nil:
	// any), as its constraints say (listAnchors).
	anchors [][]map[string]bool
	// The names the rules' patterns and anchors compare a node's anchor
	// and qualifier with, numbered from 2 (names[0] is "", names[1] any
	// other name, which no pattern compares equal): a node's key holds the
	// numbers of its names, so that the nodes whose names no pattern
	// mentions share the key of their type (self.weight, x.shape).
	names  []string
	nameID map[string]int32
}

// A node's names: the numbers of its anchor and qualifier (nodeNames)
// among the index's names.
type nameKey struct{ anchor, qual int32 }

// otherName stands for any name the index's patterns do not mention: it is
// no anchor, qualifier or listed anchor (a name holds no NUL).
const otherName = "\x00"

// A typeConcern is what the nodes of one type may be to the rules.
type typeConcern struct {
	t     reflect.Type
	rules []int    // the rules that may find something at a node of the type
	none  *concern // the type's concern when rules is empty, whatever the names
	// The concern of each of the type's keys met so far.
	byKey map[nameKey]*concern
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
	ix := &patternIndex{ps: ps, byType: map[reflect.Type]*typeConcern{},
		anchors: make([][]map[string]bool, len(ps)), names: []string{"", otherName}, nameID: map[string]int32{}}
	name := func(s string) {
		if _, ok := ix.nameID[s]; !ok && s != "" {
			ix.nameID[s] = int32(len(ix.names))
			ix.names = append(ix.names, s)
		}
	}
	for i, p := range ps {
		ix.anchors[i] = make([]map[string]bool, len(p.pats))
		for j, pt := range p.pats {
			ix.anchors[i][j] = listAnchors(p, pt)
			for _, a := range slices.Sorted(maps.Keys(ix.anchors[i][j])) {
				name(a)
			}
		}
		for _, pt := range append(slices.Clip(p.pats), p.require) {
			if pt != nil {
				name(pt.Anchor())
				name(pt.Qualifier())
			}
		}
	}
	return ix
}

// nameOf returns the number of a name of a node among the index's names.
func (ix *patternIndex) nameOf(s string) int32 {
	if s == "" {
		return 0
	}
	if id, ok := ix.nameID[s]; ok {
		return id
	}
	return 1
}

// listAnchors returns the anchors a match of a pattern that is a bare
// metavariable may have when the metavariable must be a name, an
// attribute or an import's name whose qualified name is in a list (A09's
// `$F`): the last parts of the list's values, gated or not, when each is
// a dotted name (a name resolving to no dotted name has no anchor). nil:
// any.
func listAnchors(p *PatternParams, pt *pattern.Pattern) map[string]bool {
	w := p.Where[pt.Root()]
	if pt.Root() == "" || w == nil || w.In == "" || w.WithLocals || len(w.Kinds) == 0 || p.lists[w.In] == nil {
		return nil
	}
	for _, k := range w.Kinds {
		if k != "Name" && k != "Attribute" && k != "Alias" {
			return nil // another node's text is its source
		}
	}
	set := map[string]bool{}
	for _, v := range p.lists[w.In].Values() {
		if !strings.Contains(v, ".") {
			return nil
		}
		set[v[strings.LastIndexByte(v, '.')+1:]] = true
	}
	return set
}

// nodeNames returns the parts of a node's own name that pattern.Anchor
// and pattern.Qualifier constrain: anchor, the last part of its name (an
// Attribute's attribute name, of what a Name or an import's name resolves
// to, a call's callee's) or "" when it has none; qual, the rest (an
// Attribute's value resolved, what a Name or an import's name resolves to
// up to its last dot, a call's callee's). A Name or an import's name
// resolving to no dotted name (a local variable: most names) has neither:
// no qualified pattern matches it, and such names share one key.
func nodeNames(resolve pattern.Resolver, n ast.Node) (anchor, qual string) {
	if c, ok := n.(*ast.Call); ok {
		switch f := c.Func.(type) {
		case *ast.Attribute:
			n = f
		case *ast.Name:
			// A call's anchor is its callee's name even when undotted
			// (setattr(...)): calls are few.
			q := resolve(f)
			i := strings.LastIndexByte(q, '.')
			return q[i+1:], q[:max(i, 0)]
		default:
			return "", ""
		}
	}
	switch v := n.(type) {
	case *ast.Attribute:
		return v.Attr, resolve(v.Value)
	case *ast.Name, *ast.Alias:
		q := resolve(v)
		if i := strings.LastIndexByte(q, '.'); i >= 0 {
			return q[i+1:], q[:i]
		}
	}
	return "", ""
}

// mayMatch reports whether a pattern may match a node of type kind whose
// own name has these parts (nodeNames) and whose anchor is in anchors
// (nil: any). A node without an anchor (a local variable's name, a call
// of a call's result) matches no pattern with one: such a pattern is a
// dotted name, an attribute with a fixed name or a call of either.
func mayMatch(pt *pattern.Pattern, kind, anchor, qual string, anchors map[string]bool) bool {
	t, pa, pq := pt.Type(), pt.Anchor(), pt.Qualifier()
	return (t == "" || t == kind) && (pa == "" || pa == anchor) &&
		(pq == "" || pq == qual) && (anchors == nil || anchors[anchor])
}

// typeOf returns the rules that may find something at node n, of type t.
func (ix *patternIndex) typeOf(n ast.Node, t reflect.Type) *typeConcern {
	slot := commonSlot(n)
	if tc := ix.common[slot]; tc != nil {
		return tc
	}
	tc, ok := ix.byType[t]
	if !ok {
		tc = ix.typeConcern(t)
		ix.byType[t] = tc
	}
	if slot > 0 {
		ix.common[slot] = tc
	}
	return tc
}

// commonSlots is one more than the number of node types commonSlot
// numbers.
const commonSlots = 9

// commonSlot numbers the node types most nodes have (upstream TileGym:
// Name 37%, Attribute, Constant and Call 9-11% each, then Assign,
// Keyword, Arg, BinOp), so that the index finds their rules without
// hashing a type; 0: another type.
func commonSlot(n ast.Node) int {
	switch n.(type) {
	case *ast.Name:
		return 1
	case *ast.Attribute:
		return 2
	case *ast.Constant:
		return 3
	case *ast.Call:
		return 4
	case *ast.Assign:
		return 5
	case *ast.Keyword:
		return 6
	case *ast.Arg:
		return 7
	case *ast.BinOp:
		return 8
	}
	return 0
}

// of returns the concern of the nodes of type tc.t whose names are k: a
// rule's patterns are offered the nodes of their rule's types
// (PatternParams.kinds) that they may match (mayMatch), its nodes those
// listed, its require those it may match.
func (ix *patternIndex) of(tc *typeConcern, k nameKey) *concern {
	if tc.none != nil {
		return tc.none
	}
	if c := tc.byKey[k]; c != nil {
		return c
	}
	c := &concern{kind: typeKind(tc.t)}
	anchor, qual := ix.names[k.anchor], ix.names[k.qual]
	for _, i := range tc.rules {
		p := ix.ps[i]
		cd := candidate{i: i, req: p.require != nil && mayMatch(p.require, c.kind, anchor, qual, nil)}
		if p.kinds == nil || p.kinds[c.kind] {
			for j, pt := range p.pats {
				if mayMatch(pt, c.kind, anchor, qual, ix.anchors[i][j]) {
					cd.pats = append(cd.pats, pt)
				}
			}
		}
		if cd.req || len(cd.pats) > 0 || slices.Contains(p.Nodes, c.kind) {
			c.rules = append(c.rules, cd)
		}
	}
	tc.byKey[k] = c
	return c
}

// typeConcern returns the rules that may find something at a node of a
// type, whatever its name: the rules' concerns (of) with the names left
// out.
func (ix *patternIndex) typeConcern(t reflect.Type) *typeConcern {
	kind := typeKind(t)
	may := func(pt *pattern.Pattern) bool { return pt.Type() == "" || pt.Type() == kind }
	tc := &typeConcern{t: t, byKey: map[nameKey]*concern{}}
	for i, p := range ix.ps {
		if p.require != nil && may(p.require) || (p.kinds == nil || p.kinds[kind]) && slices.ContainsFunc(p.pats, may) ||
			slices.Contains(p.Nodes, kind) {
			tc.rules = append(tc.rules, i)
		}
	}
	if len(tc.rules) == 0 {
		tc.none = &concern{kind: kind}
	}
	return tc
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
	fn := fileNodesOf(f)
	path := make([]ast.Node, 0, 32)
	for j, n := range fn.nodes {
		path = append(path[:fn.depth[j]], n)
		tc := ix.typeOf(n, reflect.TypeOf(n))
		if tc.none != nil {
			continue // no rule looks at the type: its names are not needed
		}
		anchor, qual := nodeNames(fm.resolve, n)
		c := ix.of(tc, nameKey{ix.nameOf(anchor), ix.nameOf(qual)})
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
				out[i] = append(out[i], p.matchAt(fm, n, at, b))
			}
		}
	}
	for i, p := range ps {
		if looks(i) && p.require != nil && (len(p.pats) == 0 || first[i] != nil) && !found[i] {
			out[i] = append(out[i], requireMissing(first[i]))
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
	// A node outside a rule's contexts is no match: when they ask only
	// about the enclosing defs, that is cheaper to see than a pattern's
	// match (TR02's cuda.tile.$F, every cuda.tile name of a file, inside
	// @triton.jit).
	if p.ctxFirst && !p.inContexts(fm, path) {
		return nil, nil, false
	}
	if len(p.Nodes) > 0 && slices.Contains(p.Nodes, kind) && p.inContexts(fm, path) {
		return n, pattern.Bindings{}, true
	}
	// pats holds no pattern for a node of a type outside p.kinds (of).
	// One map serves every attempt in the file; a match gets a copy.
	if fm.b == nil {
		fm.b = pattern.Bindings{}
	}
	for _, pt := range pats {
		b := fm.b
		if len(b) > 0 {
			clear(b)
		}
		if !pt.MatchWhere(n, fm.resolve, b, check) {
			continue
		}
		at, ok := p.holds(fm, b)
		if !ok {
			continue
		}
		if !p.ctxFirst && !p.inContexts(fm, path) {
			return nil, nil, false
		}
		b = maps.Clone(b)
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

// matchAt is the match of p found at node n and reported at at, with the
// bindings b when the rule's texts use them.
func (p *PatternParams) matchAt(fm *fileMatcher, n, at ast.Node, b pattern.Bindings) PatternMatch {
	m := PatternMatch{At: at, Vars: matchVars(fm, n, at)}
	if p.binds {
		m.Binds = map[string]string{}
		for k, x := range b {
			m.Binds[k] = bindingText(fm, x)
		}
	}
	return m
}

// requireMissing is the finding of a rule whose require no node of a file
// matches, reported at the rule's first match (nil: the file).
func requireMissing(first ast.Node) PatternMatch {
	return PatternMatch{At: first, Vars: map[string]string{"match": "", "value": "", "name": ""}}
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

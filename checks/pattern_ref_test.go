package checks

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/python/pattern"
	"github.com/tilegym/tilegym-lint/python/requires"
	"github.com/tilegym/tilegym-lint/source"
)

// The plain forms of the pattern kind's fast paths, which the tests hold
// them to on the corpus.

// walkPlain is walk with a visitor per node.
func walkPlain(f *ast.File, fn func(path []ast.Node)) {
	var path []ast.Node
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		path = append(path, n)
		fn(path)
		first := true
		ast.Inspect(n, func(c ast.Node) bool {
			if first {
				first = false
				return true
			}
			visit(c)
			return false
		})
		path = path[:len(path)-1]
	}
	for _, s := range f.Module.Body {
		visit(s)
	}
}

// findAllPlain is findAll offering every node to every rule, with names
// resolved each time they are compared.
func findAllPlain(f *source.File, ps []*PatternParams, admitted func(dep string) requires.Range) [][]PatternMatch {
	fm := &fileMatcher{f: f, im: f.Imports(), defs: astutil.TopLevelFuncs(f.AST), admitted: admitted}
	fm.resolve = fm.im.ResolveNode
	out := make([][]PatternMatch, len(ps))
	first := make([]ast.Node, len(ps))
	found := make([]bool, len(ps))
	walkPlain(f.AST, func(path []ast.Node) {
		n := path[len(path)-1]
		kind := nodeKind(n)
		for i, p := range ps {
			if p.require != nil && !found[i] && p.require.Match(n, fm.resolve, nil) {
				found[i] = true
			}
			if len(p.pats) == 0 && len(p.Nodes) == 0 {
				continue
			}
			at, b, ok := p.matchPlain(fm, path, kind, p.pats)
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
	})
	for i, p := range ps {
		if p.require != nil && (len(p.pats) == 0 || first[i] != nil) && !found[i] {
			out[i] = append(out[i], requireMissing(first[i]))
		}
	}
	return out
}

// matchPlain is match with every constraint checked again once a
// pattern matches (holdsPlain), and the bindings copied before.
func (p *PatternParams) matchPlain(fm *fileMatcher, path []ast.Node, kind string, pats []*pattern.Pattern) (ast.Node, pattern.Bindings, bool) {
	n := path[len(path)-1]
	fm.path = path
	if len(p.Nodes) > 0 && slices.Contains(p.Nodes, kind) && p.inContexts(fm, path) {
		return n, pattern.Bindings{}, true
	}
	if p.kinds != nil && !p.kinds[kind] {
		return nil, nil, false
	}
	for _, pt := range pats {
		b := pattern.Bindings{}
		if !pt.MatchWhere(n, fm.resolve, b, p.check(fm)) {
			continue
		}
		at, ok := p.holdsPlain(fm, maps.Clone(b))
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

// holdsPlain is holds checking every constraint of every binding.
func (p *PatternParams) holdsPlain(fm *fileMatcher, b pattern.Bindings) (at ast.Node, ok bool) {
	for _, name := range slices.Sorted(maps.Keys(p.Where)) {
		n := b[name]
		if n == nil {
			continue
		}
		elt, ok := p.Where[name].holds(fm, p, n)
		if !ok {
			return nil, false
		}
		if elt != nil && (p.Report == "" || p.Report == name) {
			at = elt
		}
	}
	return at, true
}

// PatternFastMismatches runs the rules on a parsed file with findAll and
// with findAllPlain, and the file's shared walk (fileNodes) and walkPlain
// over it, and returns how they differ and how many matches and nodes were
// compared. The rules run twice: in a project that declares no version of
// its dependencies, and in one that declares cuda-tile >= 1.3 (the gated
// items of the catalog's lists, A09's deprecated APIs, are members then).
func PatternFastMismatches(f *source.File, ps []*PatternParams) (diffs []string, compared int) {
	var fast, plain [][]ast.Node
	fileNodesOf(f).walk(func(p []ast.Node) { fast = append(fast, append([]ast.Node(nil), p...)) })
	walkPlain(f.AST, func(p []ast.Node) { plain = append(plain, append([]ast.Node(nil), p...)) })
	if !slices.EqualFunc(fast, plain, func(a, b []ast.Node) bool { return slices.Equal(a, b) }) {
		diffs = append(diffs, fmt.Sprintf("%s: fileNodes.walk visits %d paths, walkPlain %d, or other ones", f.Path, len(fast), len(plain)))
	}
	compared += len(plain)
	decls := SnippetRequires("# requires: cuda-tile>=1.3\n")
	for _, admitted := range []func(dep string) requires.Range{nil, func(dep string) requires.Range {
		r, _ := requires.Admitted(decls, dep)
		return r
	}} {
		got, want := findAll(f, newPatternIndex(ps), nil, admitted), findAllPlain(f, ps, admitted)
		for i := range ps {
			if !reflect.DeepEqual(got[i], want[i]) {
				p := ps[i]
				diffs = append(diffs, fmt.Sprintf("%s: rule %d (pattern %q, any %q, nodes %q, require %q; cuda-tile>=1.3 declared: %v): findAll gives %d matches, findAllPlain %d, or other ones",
					f.Path, i, p.Pattern, p.Any, p.Nodes, p.Require, admitted != nil, len(got[i]), len(want[i])))
			}
			compared += len(want[i])
		}
	}
	return diffs, compared
}

// PatternBinds returns a copy of p whose matches carry their bindings'
// text, as a relation's subjects do.
func PatternBinds(p *PatternParams) *PatternParams {
	q := *p
	q.binds = true
	return &q
}

// PatternFinder returns findAll with one index of the rules for every
// file, as the pattern kind runs them.
func PatternFinder(ps []*PatternParams) func(f *source.File) [][]PatternMatch {
	ix := newPatternIndex(ps)
	return func(f *source.File) [][]PatternMatch { return findAll(f, ix, nil, nil) }
}

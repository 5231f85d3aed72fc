package layout

import (
	"sort"
	"strings"
)

// DefaultNames are the names of upstream TileGym's dispatcher API.
func DefaultNames() *Names {
	return &Names{
		Dispatch:         []string{"tilegym.backend.dispatch", "tilegym.backend.dispatcher.dispatch"},
		RegisterImpl:     []string{"tilegym.backend.register_impl", "tilegym.backend.dispatcher.register_impl"},
		BackendAvailable: []string{"tilegym.backend.is_backend_available", "tilegym.backend.selector.is_backend_available", "tilegym.is_backend_available"},
		CuTileBackend:    "cutile",
		Kernel:           []string{"cuda.tile.kernel"},
		Directive:        "tilegym-lint:",
	}
}

// LayoutNames returns the names of a layout, filling unset fields with the
// defaults.
func LayoutNames(l *Layout) *Names {
	d := DefaultNames()
	if l == nil || l.Names == nil {
		return d
	}
	n := *l.Names
	if len(n.Dispatch) == 0 {
		n.Dispatch = d.Dispatch
	}
	if len(n.RegisterImpl) == 0 {
		n.RegisterImpl = d.RegisterImpl
	}
	if len(n.BackendAvailable) == 0 {
		n.BackendAvailable = d.BackendAvailable
	}
	if n.CuTileBackend == "" {
		n.CuTileBackend = d.CuTileBackend
	}
	if len(n.Kernel) == 0 {
		n.Kernel = d.Kernel
	}
	if n.Directive == "" {
		n.Directive = d.Directive
	}
	return &n
}

// ScopeMatch says that a path belongs to a scope, with the suite bound by
// "{suite}" in the scope's patterns ("" when it has none).
type ScopeMatch struct {
	Scope *Scope
	Suite string
}

// MatchBound matches p against patterns with the suite bound (patterns
// without "{suite}" match for any suite).
func MatchBound(patterns []string, suite, p string) bool {
	for _, pat := range patterns {
		if _, ok := MatchPath(ExpandSuite(pat, suite), p); ok {
			return true
		}
	}
	return false
}

// UnderDir reports whether slash path p is inside directory dir.
func UnderDir(dir, p string) bool {
	dir = strings.TrimSuffix(dir, "/")
	return dir != "" && len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir)
}

// DispatchScope returns the scope whose dispatch files include p.
func DispatchScope(l *Layout, p string) (ScopeMatch, bool) {
	if l == nil {
		return ScopeMatch{}, false
	}
	for _, sc := range l.Scopes {
		for _, pat := range sc.Dispatch {
			if suite, ok := MatchPath(pat, p); ok {
				return ScopeMatch{sc, suite}, true
			}
		}
	}
	return ScopeMatch{}, false
}

// MatchAnyPath reports whether p matches one of patterns (bound already).
func MatchAnyPath(patterns []string, p string) bool {
	for _, pat := range patterns {
		if _, ok := MatchPath(pat, p); ok {
			return true
		}
	}
	return false
}

// InCuTile reports whether a path is in some scope's cuTile package.
func InCuTile(l *Layout, p string) bool {
	for _, sc := range l.Scopes {
		if sc.CuTile != "" {
			if _, ok := MatchPath(strings.TrimSuffix(sc.CuTile, "/")+"/**", p); ok {
				return true
			}
		}
	}
	return false
}

// StepPath reports whether a path is a test or benchmark file of some
// scope (of any suite).
func StepPath(l *Layout, p string) bool {
	for _, sc := range l.Scopes {
		if _, ok := MatchAny(sc.Tests, p); ok {
			return true
		}
		if _, ok := MatchAny(sc.Benchmarks, p); ok {
			return true
		}
	}
	return false
}

func UnderAny(dirs []string, p string) bool {
	for _, d := range dirs {
		if UnderDir(d, p) {
			return true
		}
	}
	return false
}

// InScope reports whether the layout reads a path: a .py file matched by a
// scope's dispatch, test or benchmark globs, under a scope's cuTile package,
// or matched by Include, and matched by no Exclude glob.
func (l *Layout) InScope(path string) bool {
	if !strings.HasSuffix(path, ".py") {
		return false
	}
	for _, g := range l.Exclude {
		if Matches(g, path) {
			return false
		}
	}
	if _, ok := MatchAny(l.Include, path); ok {
		return true
	}
	for _, s := range l.Scopes {
		if _, ok := MatchAny(s.Dispatch, path); ok {
			return true
		}
		if _, ok := MatchAny(s.Tests, path); ok {
			return true
		}
		if _, ok := MatchAny(s.Benchmarks, path); ok {
			return true
		}
		if s.CuTile != "" {
			if _, ok := MatchPath(s.CuTile+"/**", path); ok {
				return true
			}
		}
	}
	return false
}

// ScanDirs returns the directories that hold every file the layout can put
// in scope: the literal directory prefixes of its globs, none inside
// another, sorted. ok is false when a glob has no such prefix (it may
// match anywhere), or one that is not a plain relative directory path;
// then the whole snapshot must be listed.
func (l *Layout) ScanDirs() (dirs []string, ok bool) {
	var globs []string
	globs = append(globs, l.Include...)
	for _, s := range l.Scopes {
		globs = append(globs, s.Dispatch...)
		globs = append(globs, s.Tests...)
		globs = append(globs, s.Benchmarks...)
		if s.CuTile != "" {
			globs = append(globs, s.CuTile+"/**")
		}
	}
	seen := map[string]bool{}
	for _, g := range globs {
		p := GlobPrefix(g)
		if p == "" {
			return nil, false
		}
		for _, seg := range strings.Split(p, "/") {
			if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "\\") {
				return nil, false
			}
		}
		seen[p] = true
	}
	for p := range seen {
		dirs = append(dirs, p)
	}
	sort.Strings(dirs)
	var out []string
next:
	for _, d := range dirs {
		for _, o := range out {
			if UnderDir(o, d) {
				continue next
			}
		}
		out = append(out, d)
	}
	return out, true
}

// Binding is a scope with its suite bound ("" for none).
type Binding struct {
	Scope *Scope
	Suite string
}

// BindingIndex finds which of a list of bindings match a path: one
// exhaustive match per scope (boundSuites), then the bindings looked up by
// suite, instead of one match per binding, which is quadratic when the
// files and the suites grow together.
type BindingIndex struct {
	list     []Binding
	patterns map[*Scope][]string
	scopes   []*Scope
	all      map[*Scope][]int          // every binding of the scope
	bySuite  map[*Scope]map[string]int // Literal suites
	odd      map[*Scope][]int          // the others
}

// NewBindingIndex indexes list; patterns gives the globs of a scope that
// a path must match.
func NewBindingIndex(list []Binding, patterns func(*Scope) []string) *BindingIndex {
	x := &BindingIndex{list: list, patterns: map[*Scope][]string{}, all: map[*Scope][]int{}, bySuite: map[*Scope]map[string]int{}, odd: map[*Scope][]int{}}
	for i, b := range list {
		if x.bySuite[b.Scope] == nil {
			x.bySuite[b.Scope] = map[string]int{}
			x.scopes = append(x.scopes, b.Scope)
			if b.Scope != nil {
				x.patterns[b.Scope] = patterns(b.Scope)
			}
		}
		x.all[b.Scope] = append(x.all[b.Scope], i)
		if _, dup := x.bySuite[b.Scope][b.Suite]; dup || !literal(b.Suite) {
			x.odd[b.Scope] = append(x.odd[b.Scope], i)
		} else {
			x.bySuite[b.Scope][b.Suite] = i
		}
	}
	return x
}

// Match returns the positions in the list of the bindings b for which
// MatchBound(patterns(b.Scope), b.Suite, p) holds, in ascending order.
func (x *BindingIndex) Match(p string) []int {
	var out []int
	for _, sc := range x.scopes {
		pats := x.patterns[sc]
		if len(pats) == 0 {
			continue
		}
		set := boundSuites(pats, p)
		if set.all {
			out = append(out, x.all[sc]...)
			continue
		}
		cands := x.odd[sc]
		for _, s := range set.suites {
			if i, ok := x.bySuite[sc][s]; ok {
				cands = append(cands[:len(cands):len(cands)], i)
			}
		}
		if i, ok := x.bySuite[sc][""]; ok {
			cands = append(cands[:len(cands):len(cands)], i)
		}
		for _, i := range cands {
			if set.has(x.list[i].Suite) {
				out = append(out, i)
			}
		}
	}
	sort.Ints(out)
	return out
}

// HasSuite reports whether the scope binds {suite}: its dispatch files,
// tests, benchmarks or cuTile package are a suite's.
func (sc *Scope) HasSuite() bool {
	for _, ps := range [][]string{sc.Dispatch, sc.Tests, sc.Benchmarks, {sc.CuTile}} {
		for _, p := range ps {
			if strings.Contains(p, "{suite}") {
				return true
			}
		}
	}
	return false
}

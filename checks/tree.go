package checks

// What the relation kind and a rule's when and unless read of a
// repository, each read once.

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/requires"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// A Tree is what a relation reads of a repository: the paths of its files
// (any type, listed under a directory when asked), their text, the parsed
// Python files, and decoded JSON / TOML documents; each read once. It is
// safe for concurrent use: the relation kind runs its rules on every
// processor over one tree.
type Tree struct {
	repo *optable.Repo
	src  source.Source

	mu     sync.Mutex // guards all, listed, under and tops
	all    []string
	listed bool
	under  map[string][]string
	tops   map[string]bool // top directories listed whole into under (false: listing it failed)

	globs   memo[string, *capGlob]  // the globs compiled, by source
	matched memo[string, globFiles] // the files each glob matches, by source
	data    memo[string, []byte]
	py      memo[string, *source.File]
	docs    memo[string, decoded]
	table   *optable.OpTable                 // names a subject in an op's file after the op
	declOne sync.Once                        // makes decl
	decl    *declared                        // what the projects declare, read when a subject pattern asks
	texts   memo[string, *textRE]            // the text regexps compiled, by source (nil: it does not compile)
	values  memo[string, *regexp.Regexp]     // the value regexps compiled, by source (nil: it does not compile)
	pats    memo[string, *treePattern]       // the pattern checks compiled, by source (nil: it does not compile)
	subj    memo[subjectKey, []PatternMatch] // the matches of each rule's subject pattern, by file
}

// A decoded is a JSON or TOML file decoded, or why it could not be.
type decoded struct {
	v   any
	err error
}

// A memo holds a value computed once per key, safe for concurrent use: a
// caller asking for a key being computed waits for it, one asking for
// another key does not.
type memo[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*memoCell[V]
}

type memoCell[V any] struct {
	once sync.Once
	v    V
}

// get returns the value of k, computing it with f on first use.
func (m *memo[K, V]) get(k K, f func() V) V {
	m.mu.Lock()
	if m.m == nil {
		m.m = map[K]*memoCell[V]{}
	}
	c := m.m[k]
	if c == nil {
		c = &memoCell[V]{}
		m.m[k] = c
	}
	m.mu.Unlock()
	c.once.Do(func() { c.v = f() })
	return c.v
}

// NewTree returns the tree of a repository model (its Source, else its
// parsed files alone).
func NewTree(repo *optable.Repo) *Tree {
	return &Tree{repo: repo, src: repo.Source, under: map[string][]string{}, tops: map[string]bool{}}
}

// declared returns what the projects of the repository declare.
func (t *Tree) declared() *declared {
	t.declOne.Do(func() { t.decl = newDeclared(t.repo) })
	return t.decl
}

// A treePattern is a pattern check of the relation kind, compiled once
// per source, with its matches in each file it was asked about: subjects
// that share a pattern and a file (a check of the whole repository, an
// op's files) match it once. Its indexes (built as keys are met, so one
// per goroutine at a time) are reused from file to file.
type treePattern struct {
	p     *PatternParams
	ixs   sync.Pool // of *patternIndex
	found memo[*source.File, []PatternMatch]
}

// pattern returns a pattern check compiled (nil when it does not compile).
func (t *Tree) pattern(src string) *treePattern {
	return t.pats.get(src, func() *treePattern {
		p, err := (&PatternParams{Pattern: src}).compile()
		if err != nil {
			return nil
		}
		tp := &treePattern{p: p}
		tp.ixs.New = func() any { return newPatternIndex([]*PatternParams{p}) }
		return tp
	})
}

// find returns the matches of the pattern in a parsed file, as
// PatternParams.Find does (shared: callers do not modify them).
func (tp *treePattern) find(f *source.File) []PatternMatch {
	return tp.found.get(f, func() []PatternMatch {
		ix := tp.ixs.Get().(*patternIndex)
		defer tp.ixs.Put(ix)
		return findAll(f, ix, nil, nil)[0]
	})
}

type subjectKey struct {
	p *PatternParams
	f *source.File
}

// subjectMatches returns the matches of a rule's subject pattern in a
// parsed file (shared: callers do not modify them).
func (t *Tree) subjectMatches(p *PatternParams, f *source.File) []PatternMatch {
	return t.subj.get(subjectKey{p, f}, func() []PatternMatch {
		return findAll(f, newPatternIndex([]*PatternParams{p}), nil, t.declared().admitted(f.Path))[0]
	})
}

// matchAhead matches, before the rules run, the patterns whose files are
// known beforehand: the subject patterns of the rules that apply, and
// their checks of a pattern with neither captures nor a capture in the
// files they look in. Each file is walked once for all the patterns that
// look at it, on every processor (as the pattern kind walks its files),
// instead of once per pattern on the goroutine of the rule that asks; a
// file's matches go where subjectMatches and treePattern.find look.
// Matching a pattern on a file costs the same wherever it is done, so a
// rule finds what it found without it.
func (t *Tree) matchAhead(rs []*rules.Rule) {
	var ps []*PatternParams  // the patterns matched ahead
	var tps []*treePattern   // a check's treePattern (nil: a subject pattern)
	on := map[string][]int{} // by file: the patterns that look at it
	look := func(i int, paths []string) {
		for _, q := range paths {
			on[q] = append(on[q], i)
		}
	}
	for _, rule := range rs {
		p := rule.Params.(*RelationParams)
		if !t.Applies(p.When, p.Unless) {
			continue
		}
		if p.sub != nil {
			ps, tps = append(ps, p.sub), append(tps, nil)
			look(len(ps)-1, p.subjectFiles(t, rule.Files))
		}
		for _, r := range append(slices.Clone(p.Require), p.Forbid...) {
			if r.Pattern == "" || r.In == "" || strings.Contains(r.Pattern, "{") || strings.Contains(r.In, "{") {
				continue
			}
			tp := t.pattern(r.Pattern)
			if tp == nil || slices.Contains(tps, tp) {
				continue
			}
			ps, tps = append(ps, tp.p), append(tps, tp)
			paths, _ := t.files(t.glob(r.In))
			look(len(ps)-1, paths)
		}
	}
	if len(ps) == 0 {
		return
	}
	order := slices.Sorted(maps.Keys(on))
	source.ForEachWorker(len(order), func() func(int) {
		ix := newPatternIndex(ps)
		return func(j int) { t.matchFile(order[j], ps, tps, on[order[j]], ix) }
	})
}

// matchFile matches ahead the patterns ps (tps: matchAhead's) that look at
// file q (on: their indexes), with a worker's index of them.
func (t *Tree) matchFile(q string, ps []*PatternParams, tps []*treePattern, on []int, ix *patternIndex) {
	f := t.python(q)
	if f == nil {
		return
	}
	looks := make([]bool, len(ps))
	var admitted func(string) requires.Range
	for _, i := range on {
		looks[i] = true
		if tps[i] == nil {
			// Only a subject pattern has constraints, which may read
			// the versions the project declares.
			admitted = t.declared().admitted(f.Path)
		}
	}
	for i, ms := range findAll(f, ix, looks, admitted) {
		if !looks[i] {
			continue
		}
		if tps[i] != nil {
			tps[i].found.get(f, func() []PatternMatch { return ms })
		} else {
			t.subj.get(subjectKey{ps[i], f}, func() []PatternMatch { return ms })
		}
	}
}

// textRE returns a text regexp compiled, once per source however many
// subjects and rules use it (nil when it does not compile).
func (t *Tree) textRE(src string) *textRE {
	return t.texts.get(src, func() *textRE {
		re, _ := compileTextRE(src)
		return re
	})
}

// valueRE returns a value regexp compiled, once per source (nil when it
// does not compile).
func (t *Tree) valueRE(src string) *regexp.Regexp {
	return t.values.get(src, func() *regexp.Regexp {
		re, _ := regexp.Compile(src)
		return re
	})
}

// list returns the sorted paths under a directory ("": all).
func (t *Tree) list(dir string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if out, ok := t.under[dir]; ok {
		return out
	}
	var out []string
	if dl, ok := t.src.(source.DirLister); ok && dir != "" && !t.listed {
		out = t.listUnder(dl, dir)
	} else {
		if !t.listed {
			t.listed = true
			if t.src != nil {
				t.all, _ = t.src.List()
			}
			// The parsed files are the snapshot's own, whatever the source
			// lists (a check from a map of files in tests).
			t.all = append(t.all, t.repo.Paths...)
			sort.Strings(t.all)
			t.all = slices.Compact(t.all)
		}
		for _, p := range t.all {
			if dir == "" || strings.HasPrefix(p, dir+"/") {
				out = append(out, p)
			}
		}
	}
	t.under[dir] = out
	return out
}

// listUnder lists a directory through a DirLister: the files under its
// top directory are listed once, and each directory below it takes its
// part of them (the rules ask for src/ and a dozen directories below it;
// each was a walk of its own). What ListUnder lists under a directory is
// what it lists under its top directory with that prefix, so only a
// failure to list the top directory (an unreadable directory somewhere
// in it) falls back to listing the directory alone.
func (t *Tree) listUnder(dl source.DirLister, dir string) []string {
	top, _, _ := strings.Cut(dir, "/")
	if top == "" || top == "." || top == ".." {
		out, _ := dl.ListUnder([]string{dir})
		return out
	}
	ok, listed := t.tops[top]
	if !listed {
		all, err := dl.ListUnder([]string{top})
		ok = err == nil
		t.tops[top] = ok
		t.under[top] = all
	}
	if top == dir {
		return t.under[top]
	}
	if !ok {
		out, _ := dl.ListUnder([]string{dir})
		return out
	}
	all := t.under[top]
	i, _ := slices.BinarySearch(all, dir+"/")
	j := i
	for j < len(all) && strings.HasPrefix(all[j], dir+"/") {
		j++
	}
	return all[i:j:j]
}

// A globFiles is what a glob matches in the tree: the paths, each with
// its captures (shared: callers copy a map before they change it).
type globFiles struct {
	paths []string
	caps  []map[string]string
}

// glob returns a glob compiled, once per source however many subjects and
// rules use it.
func (t *Tree) glob(src string) *capGlob {
	return t.globs.get(src, func() *capGlob { return compileCapGlob(src) })
}

// files returns the files a glob matches, with their captures (nothing
// when it does not compile), found once per glob.
func (t *Tree) files(g *capGlob) ([]string, []map[string]string) {
	if g.err != nil {
		return nil, nil
	}
	m := t.matched.get(g.src, func() globFiles {
		var m globFiles
		if g.dir {
			seen := map[string]bool{}
			for _, p := range t.list(g.prefix) {
				for d := path.Dir(p); d != "." && d != "" && !seen[d]; d = path.Dir(d) {
					seen[d] = true
					if c, ok := g.match(d); ok {
						m.paths = append(m.paths, d)
						m.caps = append(m.caps, c)
					}
				}
			}
			sort.Sort(byPath{m.paths, m.caps})
			return m
		}
		for _, p := range t.list(g.prefix) {
			if c, ok := g.match(p); ok {
				m.paths = append(m.paths, p)
				m.caps = append(m.caps, c)
			}
		}
		return m
	})
	return m.paths, m.caps
}

type byPath struct {
	p []string
	c []map[string]string
}

func (b byPath) Len() int           { return len(b.p) }
func (b byPath) Less(i, j int) bool { return b.p[i] < b.p[j] }
func (b byPath) Swap(i, j int)      { b.p[i], b.p[j] = b.p[j], b.p[i]; b.c[i], b.c[j] = b.c[j], b.c[i] }

// text returns a file's content (nil when it cannot be read).
func (t *Tree) text(p string) []byte {
	if f := t.repo.Files[p]; f != nil {
		return f.Src
	}
	return t.data.get(p, func() []byte {
		if t.src == nil {
			return nil
		}
		d, _ := t.src.ReadFile(p)
		if len(d) > source.MaxFileBytes {
			d = d[:source.MaxFileBytes]
		}
		return d
	})
}

// python returns a Python file parsed, or nil when it does not parse.
func (t *Tree) python(p string) *source.File {
	if f := t.repo.Files[p]; f != nil {
		if f.AST == nil || f.AST.Module == nil {
			return nil
		}
		return f
	}
	return t.py.get(p, func() *source.File {
		if !strings.HasSuffix(p, ".py") {
			return nil
		}
		d := t.text(p)
		if d == nil {
			return nil
		}
		f := source.ParseFile(p, d)
		if f.AST == nil || f.AST.Module == nil {
			return nil
		}
		return f
	})
}

// doc returns a JSON or TOML file decoded (by its extension), or an error.
func (t *Tree) doc(p string) (any, error) {
	d := t.docs.get(p, func() decoded {
		var v any
		var err error
		data := t.text(p)
		switch path.Ext(p) {
		case ".json":
			err = json.Unmarshal(data, &v)
		case ".toml":
			var m map[string]any
			_, err = toml.Decode(string(data), &m)
			v = m
		default:
			err = fmt.Errorf("not a .json or .toml file")
		}
		if err != nil {
			return decoded{nil, fmt.Errorf("%s: %v", p, err)}
		}
		return decoded{v, nil}
	})
	return d.v, d.err
}

package checks

// What the relation kind and a rule's when and unless read of a
// repository, each read once.

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/source"
)

// A Tree is what a relation reads of a repository: the paths of its files
// (any type, listed under a directory when asked), their text, the parsed
// Python files, and decoded JSON / TOML documents; each read once.
type Tree struct {
	repo    *optable.Repo
	src     source.Source
	all     []string
	listed  bool
	under   map[string][]string
	tops    map[string]bool      // top directories listed whole into under (false: listing it failed)
	globs   map[string]*capGlob  // the globs compiled, by source
	matched map[string]globFiles // the files each glob matches, by source
	data    map[string][]byte
	py      map[string]*source.File
	docs    map[string]any
	docErrs map[string]error
	table   *optable.OpTable          // names a subject in an op's file after the op
	decl    *declared                 // what the projects declare, read when a subject pattern asks
	texts   map[string]*textRE        // the text regexps compiled, by source (nil: it does not compile)
	values  map[string]*regexp.Regexp // the value regexps compiled, by source (nil: it does not compile)
	pats    map[string]*treePattern   // the pattern checks compiled, by source (nil: it does not compile)
}

// NewTree returns the tree of a repository model (its Source, else its
// parsed files alone).
func NewTree(repo *optable.Repo) *Tree {
	return &Tree{repo: repo, src: repo.Source, under: map[string][]string{}, tops: map[string]bool{},
		globs: map[string]*capGlob{}, matched: map[string]globFiles{}, data: map[string][]byte{},
		py: map[string]*source.File{}, docs: map[string]any{}, docErrs: map[string]error{}, texts: map[string]*textRE{},
		pats: map[string]*treePattern{}, values: map[string]*regexp.Regexp{}}
}

// A treePattern is a pattern check of the relation kind, compiled once
// per source, with one index for every file and its matches in each file
// it was asked about: subjects that share a pattern and a file (a check
// of the whole repository, an op's files) match it once.
type treePattern struct {
	p     *PatternParams
	ix    *patternIndex
	found map[*source.File][]PatternMatch
}

// pattern returns a pattern check compiled (nil when it does not compile).
func (t *Tree) pattern(src string) *treePattern {
	tp, ok := t.pats[src]
	if !ok {
		if p, err := (&PatternParams{Pattern: src}).compile(); err == nil {
			tp = &treePattern{p: p, ix: newPatternIndex([]*PatternParams{p}), found: map[*source.File][]PatternMatch{}}
		}
		t.pats[src] = tp
	}
	return tp
}

// find returns the matches of the pattern in a parsed file, as
// PatternParams.Find does (shared: callers do not modify them).
func (tp *treePattern) find(f *source.File) []PatternMatch {
	ms, ok := tp.found[f]
	if !ok {
		ms = findAll(f, tp.ix, nil, nil)[0]
		tp.found[f] = ms
	}
	return ms
}

// textRE returns a text regexp compiled, once per source however many
// subjects and rules use it (nil when it does not compile).
func (t *Tree) textRE(src string) *textRE {
	re, ok := t.texts[src]
	if !ok {
		re, _ = compileTextRE(src)
		t.texts[src] = re
	}
	return re
}

// valueRE returns a value regexp compiled, once per source (nil when it
// does not compile).
func (t *Tree) valueRE(src string) *regexp.Regexp {
	re, ok := t.values[src]
	if !ok {
		re, _ = regexp.Compile(src)
		t.values[src] = re
	}
	return re
}

// list returns the sorted paths under a directory ("": all).
func (t *Tree) list(dir string) []string {
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
	g, ok := t.globs[src]
	if !ok {
		g = compileCapGlob(src)
		t.globs[src] = g
	}
	return g
}

// files returns the files a glob matches, with their captures (nothing
// when it does not compile), found once per glob.
func (t *Tree) files(g *capGlob) ([]string, []map[string]string) {
	if g.err != nil {
		return nil, nil
	}
	if m, ok := t.matched[g.src]; ok {
		return m.paths, m.caps
	}
	var paths []string
	var caps []map[string]string
	if g.dir {
		seen := map[string]bool{}
		for _, p := range t.list(g.prefix) {
			for d := path.Dir(p); d != "." && d != "" && !seen[d]; d = path.Dir(d) {
				seen[d] = true
				if c, ok := g.match(d); ok {
					paths = append(paths, d)
					caps = append(caps, c)
				}
			}
		}
		sort.Sort(byPath{paths, caps})
	} else {
		for _, p := range t.list(g.prefix) {
			if c, ok := g.match(p); ok {
				paths = append(paths, p)
				caps = append(caps, c)
			}
		}
	}
	t.matched[g.src] = globFiles{paths, caps}
	return paths, caps
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
	if d, ok := t.data[p]; ok {
		return d
	}
	var d []byte
	if t.src != nil {
		d, _ = t.src.ReadFile(p)
		if len(d) > source.MaxFileBytes {
			d = d[:source.MaxFileBytes]
		}
	}
	t.data[p] = d
	return d
}

// python returns a Python file parsed, or nil when it does not parse.
func (t *Tree) python(p string) *source.File {
	if f := t.repo.Files[p]; f != nil {
		if f.AST == nil || f.AST.Module == nil {
			return nil
		}
		return f
	}
	if f, ok := t.py[p]; ok {
		return f
	}
	var f *source.File
	if strings.HasSuffix(p, ".py") {
		if d := t.text(p); d != nil {
			f = source.ParseFile(p, d)
			if f.AST == nil || f.AST.Module == nil {
				f = nil
			}
		}
	}
	t.py[p] = f
	return f
}

// doc returns a JSON or TOML file decoded (by its extension), or an error.
func (t *Tree) doc(p string) (any, error) {
	if d, ok := t.docs[p]; ok {
		return d, t.docErrs[p]
	}
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
		err = fmt.Errorf("%s: %v", p, err)
		v = nil
	}
	t.docs[p], t.docErrs[p] = v, err
	return v, err
}

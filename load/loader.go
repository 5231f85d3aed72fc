package load

// A check of some ops (--op) reads every file in scope but parses only the
// files that can bear on those ops: parsing is most of the cost of a check,
// and one op's files are a small part of a checkout.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
	"golang.org/x/text/unicode/norm"
)

// Load parses what the wanted ops need (everything when a dispatch file
// does not parse).
func (l *Loader) Load(want map[string]bool) *optable.Repo {
	if !l.Seed(nil) {
		l.ParseAll()
		return l.Repo
	}
	return l.CloseOver(want)
}

// CheckUntilRead runs check and, while a finding it reports (of those keep
// accepts, nil for all) is located in or relates to a file not parsed
// (whose parse error would have dropped the finding, see
// blameParseErrors), parses those files and checks again.
// The result of check is of any type T; findings returns its findings.
func CheckUntilRead[T any](l *Loader, repo *optable.Repo, want map[string]bool, check func(*optable.Repo) (T, error), findings func(T) []analysis.Diagnostic, keep func(analysis.Diagnostic) bool) (T, error) {
	for {
		res, err := check(repo)
		if err != nil {
			return res, err
		}
		var more []int
		seen := map[int]bool{}
		add := func(p string) {
			if i, ok := l.Index[p]; ok && !l.Parsed[i] && !seen[i] {
				seen[i] = true
				more = append(more, i)
			}
		}
		for _, d := range findings(res) {
			if keep != nil && !keep(d) {
				continue
			}
			add(d.File)
			for _, r := range d.Related {
				add(r.File)
			}
		}
		if len(more) == 0 {
			return res, nil
		}
		sort.Ints(more)
		l.Parse(more)
		repo.Table = nil
		if want != nil {
			repo = l.CloseOver(want)
		}
	}
}

// A Loader holds a snapshot whose files are all read and some parsed: the
// files a check of some ops, or of a change, needs are parsed on demand
// (CloseOver, Parse), and the op table of those parsed so far is built
// when asked for (OpTable).
type Loader struct {
	Repo   *optable.Repo
	Layout *layout.Layout
	Data   [][]byte        // each file's content, by index in Repo.Paths
	Index  map[string]int  // path -> index in Repo.Paths
	Parsed []bool          // by index: the file is parsed (in Repo.Files)
	APIs   map[string]bool // the API packages of every scope

	// What each file can be (see CloseOver), by index: a test or benchmark
	// of some scope; a module that registers ops (it spells register_impl:
	// the last part of the name, as written or imported); one with
	// non-ASCII text (whose identifiers may normalize to a name). Found as
	// a file is read, or taken from Other for a file the same (ClassesFrom).
	step      []bool
	Registers []bool
	NonASCII  []bool

	// same[i]: the file's content is that of the same path in Other, whose
	// parsed file is then shared (a file is a pure function of its path
	// and content).
	same  []bool
	Other *Loader

	// mu guards Repo.Files against the reads of another loader (whose
	// Other this one is), which may parse on another goroutine.
	mu sync.Mutex

	// shared, when not nil, is shared by a head's loader (Other nil) and
	// its base's: a file of the head, or of the base the same as the
	// head's, is parsed once by whichever asks first, the other waiting.
	shared *sharedParses

	warm func(*source.File) // see warmer

	// scanned: the names CloseOver has looked for in the files then
	// unparsed (see unscanned).
	scanned map[scanKey]bool

	// Names are more names CloseOver parses every registration of (the
	// undeclared ops a change registers).
	Names map[string]bool

	// table is the op table of the files parsed, when built since they
	// were last added to (see OpTable).
	table *optable.OpTable
}

// OpTable returns the op table of the files parsed, built once for them.
func (l *Loader) OpTable() *optable.OpTable {
	if l.table == nil {
		l.table = optable.BuildOpTable(l.Repo)
		keepWrappers(l.Repo, l.table)
	}
	return l.table
}

// NewLoader lists and reads the files in scope of a snapshot.
func NewLoader(src source.Source, lay *layout.Layout, cfg *config.Config) (*Loader, error) {
	return NewLoaderReusing(src, lay, cfg, nil)
}

// NewLoaderReusing is NewLoader taking a file's content from known
// when it has it (the same file of another snapshot, when the same).
// Without known, the files every check parses (see seed) are parsed as
// soon as read, by the reading workers.
func NewLoaderReusing(src source.Source, lay *layout.Layout, cfg *config.Config, known func(path string) ([]byte, bool)) (*Loader, error) {
	repo, err := ListRepo(src, lay, cfg)
	if err != nil {
		return nil, err
	}
	return ReadLoader(src, repo, known)
}

// ReadLoader is NewLoaderReusing with the snapshot listed (ListRepo).
func ReadLoader(src source.Source, repo *optable.Repo, known func(path string) ([]byte, bool)) (*Loader, error) {
	n := len(repo.Paths)
	l := &Loader{Repo: repo, Layout: repo.Layout, Data: make([][]byte, n), Parsed: make([]bool, n), APIs: map[string]bool{}, Index: map[string]int{}}
	for i, p := range repo.Paths {
		l.Index[p] = i
	}
	// The API packages of every scope (of each suite with a dispatch file;
	// Seed adds those of the ops' scopes).
	if l.Layout != nil {
		for _, sc := range l.Layout.Scopes {
			if !sc.HasSuite() {
				for _, m := range optable.APIModules(sc, "") {
					l.APIs[m] = true
				}
			}
		}
	}
	for _, p := range repo.Paths {
		if sm, ok := layout.DispatchScope(l.Layout, p); ok {
			for _, m := range optable.APIModules(sm.Scope, sm.Suite) {
				l.APIs[m] = true
			}
		}
	}
	errs := make([]error, n)
	l.same = make([]bool, n)
	l.step, l.Registers, l.NonASCII = make([]bool, n), make([]bool, n), make([]bool, n)
	register := registerWords(l.Layout)
	var early []*source.File
	if known == nil {
		early = make([]*source.File, n)
		l.warm = warmer(l.Layout, repo.Paths)
	}
	source.ForEach(n, func(i int) {
		if known != nil {
			if data, ok := known(repo.Paths[i]); ok {
				l.Data[i] = data
				l.same[i] = true
				return
			}
		}
		l.Data[i], errs[i] = src.ReadFile(repo.Paths[i])
		if errs[i] == nil {
			l.step[i] = layout.StepPath(l.Layout, repo.Paths[i])
			l.NonASCII[i] = hasNonASCII(l.Data[i])
			l.Registers[i] = l.NonASCII[i] || containsAny(l.Data[i], register)
		}
		if early != nil && errs[i] == nil && l.isSeed(repo.Paths[i]) {
			early[i] = source.ParseFile(repo.Paths[i], l.Data[i])
			l.warm(early[i])
		}
	})
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", repo.Paths[i], err)
		}
	}
	for i, f := range early {
		if f != nil {
			repo.Files[repo.Paths[i]] = f
			l.Parsed[i] = true
		}
	}
	return l, nil
}

// ClassesFrom takes what each file the same as other's can be (see
// Loader.step) from other.
func (l *Loader) ClassesFrom(other *Loader) {
	for i, p := range l.Repo.Paths {
		if j, ok := other.Index[p]; ok && l.same[i] {
			l.step[i], l.Registers[i], l.NonASCII[i] = other.step[j], other.Registers[j], other.NonASCII[j]
		}
	}
}

// isSeed reports whether seed parses a file in any case: a dispatch file,
// a cuTile __init__.py, a module of an API package.
func (l *Loader) isSeed(p string) bool {
	if _, ok := layout.DispatchScope(l.Layout, p); ok {
		return true
	}
	return path.Base(p) == "__init__.py" && layout.InCuTile(l.Layout, p) || l.APIs[astutil.PackagePath(p)]
}

// Parse parses the files at these indexes.
func (l *Loader) Parse(idx []int) {
	files := make([]*source.File, len(idx))
	if l.warm == nil {
		l.warm = warmer(l.Layout, l.Repo.Paths)
	}
	warm := l.warm
	source.ForEach(len(idx), func(k int) {
		i := idx[k]
		p := l.Repo.Paths[i]
		if l.shared != nil && (l.Other == nil || l.same[i]) {
			files[k] = l.shared.get(p, func() *source.File {
				f := source.ParseFile(p, l.Data[i])
				warm(f)
				return f
			})
			return
		}
		if l.same[i] && l.Other != nil {
			if f := l.Other.file(p); f != nil {
				files[k] = f
				return
			}
		}
		files[k] = source.ParseFile(p, l.Data[i])
		warm(files[k])
	})
	l.mu.Lock()
	for k, i := range idx {
		l.Repo.Files[l.Repo.Paths[i]] = files[k]
		l.Parsed[i] = true
	}
	if len(idx) > 0 {
		l.table = nil
	}
	l.mu.Unlock()
}

// sharedParses are the parsed files of a head snapshot, by path, that its
// base's loader shares (see Loader.shared).
type sharedParses struct {
	mu sync.Mutex
	m  map[string]*sharedParse
}

type sharedParse struct {
	once sync.Once
	f    *source.File
}

// ShareParses makes head and base (whose other is head) share their parses,
// starting with the files head has parsed.
func ShareParses(head, base *Loader) {
	s := &sharedParses{m: map[string]*sharedParse{}}
	for p, f := range head.Repo.Files {
		e := &sharedParse{f: f}
		e.once.Do(func() {})
		s.m[p] = e
	}
	head.shared, base.shared = s, s
}

// get returns the file parsed at p, parsing it unless done or under way.
func (s *sharedParses) get(p string, parse func() *source.File) *source.File {
	s.mu.Lock()
	e := s.m[p]
	if e == nil {
		e = &sharedParse{}
		s.m[p] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.f = parse() })
	return e.f
}

// file returns a parsed file, or nil; safe while l parses on another
// goroutine.
func (l *Loader) file(p string) *source.File {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Repo.Files[p]
}

// ParseAll parses every file not parsed yet.
func (l *Loader) ParseAll() {
	var rest []int
	for i := range l.Repo.Paths {
		if !l.Parsed[i] {
			rest = append(rest, i)
		}
	}
	l.Parse(rest)
}

// Seed parses the files every check needs (the dispatch files, the cuTile
// __init__s, the interface modules of the API packages) and extra files,
// those not parsed yet. It reports false when a dispatch file does not
// parse.
func (l *Loader) Seed(extra []string) bool {
	ex := map[string]bool{}
	for _, p := range extra {
		ex[p] = true
	}
	var seed []int
	for i, p := range l.Repo.Paths {
		if l.isSeed(p) || ex[p] {
			seed = append(seed, i)
		}
	}
	var todo []int
	for _, i := range seed {
		if !l.Parsed[i] {
			todo = append(todo, i)
		}
	}
	l.Parse(todo)
	for _, i := range seed {
		if _, ok := layout.DispatchScope(l.Layout, l.Repo.Paths[i]); ok && l.Repo.Files[l.Repo.Paths[i]].AST == nil {
			return false
		}
	}
	// The API packages of the ops' scopes too (an op registered in a
	// suite without a dispatch file), and the modules they import * from:
	// dispatch-callers reads their names.
	// (The table is not the loader's until they are parsed: keepWrappers
	// keeps the first one's wrappers, read from the API packages.)
	tab := optable.BuildOpTable(l.Repo)
	more := false
	for _, op := range tab.Ops {
		if op.Scope == nil {
			continue
		}
		for _, m := range optable.APIModules(op.Scope, op.Suite) {
			if !l.APIs[m] {
				l.APIs[m] = true
				more = true
			}
		}
	}
	var apis []int
	if more {
		apis = l.unparsed(func(p string) bool { return l.isSeed(p) })
		l.Parse(apis)
	}
	star := map[string]bool{}
	for _, p := range l.starImportedByAPIs() {
		star[p] = true
	}
	stars := l.unparsed(func(p string) bool { return star[p] })
	l.Parse(stars)
	if len(apis) == 0 && len(stars) == 0 && l.table == nil {
		l.table = tab
		keepWrappers(l.Repo, tab)
	}
	return true
}

// unparsed returns the indexes of the files not parsed yet whose paths
// keep says.
func (l *Loader) unparsed(keep func(string) bool) []int {
	var out []int
	for i, p := range l.Repo.Paths {
		if !l.Parsed[i] && keep(p) {
			out = append(out, i)
		}
	}
	return out
}

// keepWrappers keeps in repo, unless known, the wrappers of the op table
// built from it. The interface modules are all parsed (seed), so they do
// not change as more files are parsed: the tables built later take them.
func keepWrappers(repo *optable.Repo, tab *optable.OpTable) {
	if repo.Wrappers != nil {
		return
	}
	repo.Wrappers = map[string][]string{}
	for op, w := range tab.Wrappers {
		repo.Wrappers[op.Name] = w
	}
}

// CloseOver parses, round by round, the files the wanted ops need (what
// opsNeeds computes from the op table so far) and returns the repository.
func (l *Loader) CloseOver(want map[string]bool) *optable.Repo {
	repo, lay, data, parsed := l.Repo, l.Layout, l.Data, l.Parsed
	n := len(repo.Paths)
	step, registers := l.step, l.Registers
	for round := 0; ; round++ {
		tab := l.OpTable()
		need := opsNeeds(tab, lay, want)
		for name := range l.Names {
			need.names[name] = true
		}
		// The names looked for before are in no file still unparsed (each
		// file that had one was parsed): look for the new.
		fresh := l.unscanned(need)
		fresh.indexUses()
		quoted := fresh.names
		wanted := make([]bool, n)
		source.ForEach(n, func(i int) {
			if parsed[i] {
				return
			}
			p := repo.Paths[i]
			wanted[i] = need.path(p) || registers[i] && hasQuoted(data[i], quoted) ||
				step[i] && fresh.step(p, data[i])
		})
		var more []int
		for i, w := range wanted {
			if w {
				more = append(more, i)
			}
		}
		if len(more) == 0 {
			// Every file that can register a selected op is parsed: for
			// one with no cuTile implementation, a file of its cuTile
			// package that does not parse may register it.
			dirs := missingCuTile(tab, lay, want)
			for i, p := range repo.Paths {
				if !parsed[i] && layout.UnderAny(dirs, p) {
					more = append(more, i)
				}
			}
		}
		if len(more) == 0 {
			repo.Table = tab // of the files parsed, all of them
			return repo
		}
		l.Parse(more)
		// The modules imported by the cuTile modules just parsed that may
		// register a related op (and their parents): the next round would
		// need them if they do (see opsNeeds). Parsed now, they save a
		// round; if not needed, they are files more (which only brings the
		// check nearer the whole one).
		mods := map[string]bool{}
		for _, i := range more {
			p := repo.Paths[i]
			if f := repo.Files[p]; f.AST != nil && registers[i] && layout.InCuTile(lay, p) && hasQuoted(data[i], quoted) {
				for _, q := range f.Imports().Local {
					mods[q] = true
					if j := strings.LastIndexByte(q, '.'); j >= 0 {
						mods[q[:j]] = true
					}
				}
			}
		}
		// The sibling modules the tests and benchmarks just parsed import
		// (from bench_rope import get_supported_backends): read by the
		// Step 5 kinds.
		sibs := map[string]bool{}
		for _, i := range more {
			p := repo.Paths[i]
			if f := repo.Files[p]; f.AST != nil && step[i] {
				for _, sp := range astutil.SiblingImportPaths(f.Path, f.AST) {
					sibs[sp] = true
				}
			}
		}
		if len(mods) > 0 || len(sibs) > 0 {
			var spec []int
			for i, p := range repo.Paths {
				if !parsed[i] && (mods[astutil.ModulePath(p)] || sibs[p]) {
					spec = append(spec, i)
				}
			}
			l.Parse(spec)
		}
	}
}

// unscanned returns the names of need (quoted, and used by tests and
// benchmarks) that the loader has not looked for in its unparsed files
// yet, and records them as looked for: the caller parses every file that
// has one.
func (l *Loader) unscanned(need *needs) *needs {
	if l.scanned == nil {
		l.scanned = map[scanKey]bool{}
	}
	fresh := &needs{names: WordSet{}}
	for name := range need.names {
		if k := (scanKey{word: name}); !l.scanned[k] {
			l.scanned[k] = true
			fresh.names[name] = true
		}
	}
	for _, sw := range need.uses {
		var ts []useTarget
		for _, t := range sw.targets {
			if k := (scanKey{sw.scope, sw.suite, t.q}); !l.scanned[k] {
				l.scanned[k] = true
				ts = append(ts, t)
			}
		}
		if len(ts) > 0 {
			words := WordSet{}
			for _, t := range ts {
				words[t.last] = true
			}
			fresh.uses = append(fresh.uses, scopeUses{sw.scope, sw.suite, ts, words})
		}
	}
	return fresh
}

// scanKey is a name looked for in quotes (scope nil), or a qualified name
// looked for in a scope's tests and benchmarks.
type scanKey struct {
	scope *layout.Scope
	suite string
	word  string
}

// needs says which further files a check of some ops must parse: the
// files that register a related op (name it in quotes), the test and
// benchmark files named after one or that may use one (see step), and the
// files of some modules and directories.
type needs struct {
	names   WordSet         // the names of the related ops
	uses    []scopeUses     // the names through which files use them, by scope
	modules map[string]bool // dotted modules whose files are needed
	dirs    []string        // directories all of whose files are needed

	tests, benchmarks *layout.BindingIndex // of uses (indexUses)
}

// indexUses indexes the scopes of nd.uses by their test and benchmark
// globs (step): a path is matched once per scope, not once per use, which
// in a check in batches is once per suite of the batch's ops.
func (nd *needs) indexUses() {
	list := make([]layout.Binding, len(nd.uses))
	for i, sw := range nd.uses {
		list[i] = layout.Binding{Scope: sw.scope, Suite: sw.suite}
	}
	nd.tests = layout.NewBindingIndex(list, func(sc *layout.Scope) []string { return sc.Tests })
	nd.benchmarks = layout.NewBindingIndex(list, func(sc *layout.Scope) []string { return sc.Benchmarks })
}

// scopeUses are the qualified names through which the test and benchmark
// files of a scope (and suite) use its related ops.
type scopeUses struct {
	scope   *layout.Scope
	suite   string
	targets []useTarget
	words   WordSet // the last words of the targets, looked for in one pass
}

// useTarget is a name through which a file uses an op: the op's name in an
// API module ("tilegym.ops.softmax"), or (in tests only) a public wrapper
// of it.
type useTarget struct {
	q         string
	last      string // the last part of q: a word the file has, if it uses q
	testsOnly bool
}

// step reports whether a test or benchmark file is needed: it is one of
// the scope of a related op, and is named after it (test_<func>.py, any
// of its words in its path) or may use it (mayUse, asked only when the
// file has the word).
func (nd *needs) step(p string, src []byte) bool {
	tests, benchmarks := nd.tests.Match(p), nd.benchmarks.Match(p)
	slices.Sort(tests)
	slices.Sort(benchmarks)
	for len(tests) > 0 || len(benchmarks) > 0 {
		// The uses whose scope has p as a test or a benchmark, in order.
		var i int
		isTest := len(tests) > 0 && (len(benchmarks) == 0 || tests[0] <= benchmarks[0])
		if isTest {
			i = tests[0]
			tests = tests[1:]
			if len(benchmarks) > 0 && benchmarks[0] == i {
				benchmarks = benchmarks[1:]
			}
		} else {
			i = benchmarks[0]
			benchmarks = benchmarks[1:]
		}
		sw := nd.uses[i]
		found := WordSet{}
		for _, w := range sw.words.Find(src) {
			found[w] = true
		}
		var qs []string
		for _, t := range sw.targets {
			if strings.Contains(p, t.last) {
				return true
			}
			if (isTest || !t.testsOnly) && found[t.last] {
				qs = append(qs, t.q)
			}
		}
		if len(qs) > 0 && mayUse(p, src, qs) {
			return true
		}
	}
	return false
}

// hasQuoted reports whether src has one of the names between two like
// quotes ("name" or 'name'), as containsAny of the names quoted both ways
// does (see quotedNames; an op name holds no quote), in one pass whatever
// the number of names: a check in batches asks it of every file once per
// batch. Each quote is looked up with the text up to the next like quote,
// one kind of quote at a time.
func hasQuoted(src []byte, names WordSet) bool {
	if len(names) == 0 {
		return false
	}
	longest := 0
	for name := range names {
		longest = max(longest, len(name))
	}
	for _, q := range []byte{'"', '\''} {
		for i := 0; ; {
			j := bytes.IndexByte(src[i:], q)
			if j < 0 {
				break
			}
			start := i + j + 1
			k := bytes.IndexByte(src[start:], q)
			if k < 0 {
				break
			}
			if k <= longest && names[string(src[start:start+k])] {
				return true
			}
			i = start + k // the closing quote opens the next candidate
		}
	}
	return false
}

// path reports whether a file is needed for its path alone.
func (nd *needs) path(p string) bool {
	return nd.modules[astutil.ModulePath(p)] || layout.UnderAny(nd.dirs, p)
}

// opsNeeds computes, from the op table of the files parsed so far, what
// else the selected ops need (Loader.Load, CloseOver).
func opsNeeds(tab *optable.OpTable, lay *layout.Layout, want map[string]bool) *needs {
	nd := &needs{names: WordSet{}, modules: map[string]bool{}}
	type key struct {
		scope *layout.Scope
		suite string
	}
	byScope := map[key]int{} // index in nd.uses
	selected := tab.Select(want)
	// The files of the selected ops (not their dispatch file, which every
	// op of the scope shares), and the ops that share one of them.
	shared := map[string]bool{}
	for _, op := range selected {
		for _, im := range op.Impls {
			shared[im.File.Path] = true
		}
		for _, f := range op.Tests {
			shared[f.Path] = true
		}
		for _, f := range op.Benchmarks {
			shared[f.Path] = true
		}
	}
	related := map[*optable.Op]bool{}
	for _, op := range selected {
		related[op] = true
	}
	for _, op := range tab.Ops {
		if related[op] {
			continue
		}
		for _, im := range op.Impls {
			if shared[im.File.Path] {
				related[op] = true
			}
		}
		for _, f := range op.Tests {
			if shared[f.Path] {
				related[op] = true
			}
		}
		for _, f := range op.Benchmarks {
			if shared[f.Path] {
				related[op] = true
			}
		}
	}
	for _, op := range tab.Ops {
		if !related[op] {
			continue
		}
		nd.names[op.Name] = true
		if op.Scope != nil {
			k := key{op.Scope, op.Suite}
			i, ok := byScope[k]
			if !ok {
				i = len(nd.uses)
				byScope[k] = i
				nd.uses = append(nd.uses, scopeUses{scope: op.Scope, suite: op.Suite})
			}
			nd.uses[i].targets = append(nd.uses[i].targets, useTargets(tab, op)...)
		}
		for _, im := range op.Impls {
			if im.Module == "" {
				continue
			}
			// The modules it imports, and their parents (a name imported
			// from a module).
			for _, q := range im.File.Imports().Local {
				nd.modules[q] = true
				if i := strings.LastIndexByte(q, '.'); i >= 0 {
					nd.modules[q[:i]] = true
				}
			}
			// The sub-packages of the cuTile package it is in.
			levels := strings.Count(im.Module, ".")
			if path.Base(im.File.Path) == "__init__.py" {
				levels++
			}
			d := path.Dir(im.File.Path)
			for ; levels > 0; levels-- {
				nd.dirs = append(nd.dirs, d)
				d = path.Dir(d)
			}
		}
	}
	return nd
}

// missingCuTile returns the cuTile packages of the selected ops that have
// no cuTile implementation.
func missingCuTile(tab *optable.OpTable, lay *layout.Layout, want map[string]bool) []string {
	names := layout.LayoutNames(lay)
	var dirs []string
	for _, op := range tab.Select(want) {
		if len(op.ImplsFor(names.CuTileBackend)) == 0 && op.Scope != nil && op.Scope.CuTile != "" {
			dirs = append(dirs, strings.TrimSuffix(layout.ExpandSuite(op.Scope.CuTile, op.Suite), "/"))
		}
	}
	return dirs
}

// useTargets returns the names through which a test or benchmark file
// uses an op (see matchTestsAndBenchmarks): its function name, and its
// stub's name, in each API module of its scope; in a test, a public wrapper
// of it.
func useTargets(tab *optable.OpTable, op *optable.Op) []useTarget {
	funcs := []string{op.Func}
	if op.Stub != nil && op.Stub.Def != nil && op.Stub.Def.Name != op.Func {
		funcs = append(funcs, op.Stub.Def.Name)
	}
	var out []useTarget
	for _, api := range optable.APIModules(op.Scope, op.Suite) {
		for _, f := range funcs {
			out = append(out, useTarget{q: api + "." + f, last: f})
		}
	}
	for _, w := range tab.Wrappers[op] {
		out = append(out, useTarget{q: w, last: astutil.DottedTail(w), testsOnly: true})
	}
	for _, q := range optable.ImplFuncQNames(op) {
		out = append(out, useTarget{q: q, last: astutil.DottedTail(q)})
	}
	return out
}

// WordSet is a set of Python identifiers looked up in source text.
type WordSet map[string]bool

// wordByte[c]: c is a letter, digit, underscore or non-ASCII byte.
var wordByte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	return t
}()

// Find returns the words of the set that the text has, each once: as a
// whole word (a maximal run of letters, digits, underscores and non-ASCII
// bytes), or, in a run with non-ASCII bytes, anywhere in its NFKC normal
// form (the form the parser gives identifiers).
func (ws WordSet) Find(src []byte) []string {
	if len(ws) == 0 {
		return nil
	}
	// A run is looked up only when some word of the set has its first
	// byte and its length (lengths over 63 share a bit).
	var lens [256]uint64
	for w := range ws {
		lens[w[0]] |= 1 << min(len(w), 63)
	}
	var found []string
	seen := map[string]bool{}
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			found = append(found, w)
		}
	}
	for i := 0; i < len(src); {
		if !wordByte[src[i]] {
			i++
			continue
		}
		j := i
		ascii := true
		for j < len(src) && wordByte[src[j]] {
			if src[j] >= 0x80 {
				ascii = false
			}
			j++
		}
		w := src[i:j]
		if lens[w[0]]&(1<<min(len(w), 63)) != 0 && ws[string(w)] && !seen[string(w)] {
			add(string(w))
		}
		if !ascii {
			nw := norm.NFKC.String(string(w))
			for x := range ws {
				if strings.Contains(nw, x) {
					add(x)
				}
			}
		}
		i = j
	}
	return found
}

// containsAny reports whether src contains one of the byte strings.
func containsAny(src []byte, subs [][]byte) bool {
	for _, w := range subs {
		if bytes.Contains(src, w) {
			return true
		}
	}
	return false
}

// HasWord reports whether src has w as a whole word: not preceded or
// followed by a letter, digit, underscore or non-ASCII byte.
func HasWord(src []byte, w string) bool {
	return !eachWord(src, w, func(int) bool { return false })
}

// eachWord calls fn with the offset of each place src has w as a whole
// word, in order, while fn returns true; it reports whether every call
// did.
func eachWord(src []byte, w string, fn func(j int) bool) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(w))
		if j < 0 {
			return true
		}
		j += i
		end := j + len(w)
		if (j == 0 || !wordByte[src[j-1]]) && (end == len(src) || !wordByte[src[end]]) && !fn(j) {
			return false
		}
		i = j + 1
	}
}

// hasNonASCII reports whether src has a byte over 0x7f.
func hasNonASCII(src []byte) bool {
	i := 0
	for ; i+8 <= len(src); i += 8 {
		if binary.LittleEndian.Uint64(src[i:])&0x8080808080808080 != 0 {
			return true
		}
	}
	for ; i < len(src); i++ {
		if src[i] >= 0x80 {
			return true
		}
	}
	return false
}

// Content returns the content of a file of the snapshot, read.
func (l *Loader) Content(path string) ([]byte, bool) {
	i, ok := l.Index[path]
	if !ok {
		return nil, false
	}
	return l.Data[i], true
}

// starImportedByAPIs returns the paths the modules that the parsed files
// of the API packages import * from may have: the names of an API package
// include theirs (Seed reads them).
func (l *Loader) starImportedByAPIs() []string {
	var out []string
	for p, f := range l.Repo.Files {
		if f.AST == nil || f.AST.Module == nil || !l.APIs[astutil.PackagePath(p)] {
			continue
		}
		pkg := astutil.PackagePath(p)
		astutil.EachTopLevel(f.AST.Module.Body, func(s ast.Stmt) {
			imp, ok := s.(*ast.ImportFrom)
			if !ok {
				return
			}
			for _, a := range imp.Names {
				if a != nil && a.Name == "*" {
					rel := strings.ReplaceAll(astutil.ImportFromModule(pkg, imp), ".", "/")
					out = append(out, "src/"+rel+".py", rel+".py", "src/"+rel+"/__init__.py", rel+"/__init__.py")
				}
			}
		})
	}
	return out
}

package load

// A check of some ops (--op) reads every file in scope but parses only the
// files that can bear on those ops: parsing is most of the cost of a check,
// and one op's files are a small part of a checkout.

import (
	"fmt"
	"sort"
	"sync"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/source"
)

// ParseMore parses the files of paths not parsed yet (paths outside the
// snapshot are left out) and reports whether there were any.
func (l *Loader) ParseMore(paths []string) bool {
	var more []int
	seen := map[int]bool{}
	for _, p := range paths {
		if i, ok := l.Index[p]; ok && !l.Parsed[i] && !seen[i] {
			seen[i] = true
			more = append(more, i)
		}
	}
	if len(more) == 0 {
		return false
	}
	sort.Ints(more)
	l.Parse(more)
	return true
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
	// a file is read, or taken from other for a file the same (ShareWith).
	step      []bool
	Registers []bool
	NonASCII  []bool

	// same[i]: the file's content is that of the same path in other, whose
	// parsed file is then shared (a file is a pure function of its path
	// and content).
	same  []bool
	other *Loader

	// mu guards Repo.Files against the reads of another loader (whose
	// other this one is), which may parse on another goroutine.
	mu sync.Mutex

	// shared, when not nil, is shared by a head's loader (other nil) and
	// its base's: a file of the head, or of the base the same as the
	// head's, is parsed once by whichever asks first, the other waiting.
	shared *sharedParses

	warm func(*source.File) // see warmer

	// scanned: the names CloseOver has looked for in the files then
	// unparsed (see unscanned).
	scanned map[scanKey]bool

	// undeclared are more names CloseOver parses every registration of
	// (the undeclared ops a change registers; see SetUndeclared).
	undeclared map[string]bool

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

// DropTable leaves the repository without the op table and the wrappers
// the loader gave it (Repo.Table, Repo.Wrappers), so that a check of it
// builds both from every file parsed by then (change mode's whole check
// of a snapshot, after ParseAll or in batches).
func (l *Loader) DropTable() { l.Repo.Table, l.Repo.Wrappers = nil, nil }

// UseWrappersOf gives l's repository the public wrappers of other's: a
// change's base takes its head's when the change edits no module of an
// API package (the modules defining them are the same in both).
func (l *Loader) UseWrappersOf(other *Loader) { l.Repo.Wrappers = other.Repo.Wrappers }

// SetRoot sets the root the repository's paths are shown relative to: the
// checkout as given, when the files were read from git.
func (l *Loader) SetRoot(root string) { l.Repo.Root = root }

// NewLoader lists and reads the files in scope of a snapshot.
func NewLoader(src source.Source, s *config.Setup) (*Loader, error) {
	return NewLoaderReusing(src, s, nil)
}

// NewLoaderReusing is NewLoader taking a file's content from known
// when it has it (the same file of another snapshot, when the same).
// Without known, the files every check parses (see seed) are parsed as
// soon as read, by the reading workers.
func NewLoaderReusing(src source.Source, s *config.Setup, known func(path string) ([]byte, bool)) (*Loader, error) {
	repo, err := ListRepo(src, s)
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

// ShareWith makes l the base snapshot of head's change: a file of l the
// same as head's takes what head found it can be (see Loader.step) and is
// parsed once for both.
func (l *Loader) ShareWith(head *Loader) {
	l.other = head
	l.classesFrom(head)
	shareParses(head, l)
}

// SetUndeclared makes CloseOver parse every registration of these names
// too (the undeclared ops a change registers); nil for none.
func (l *Loader) SetUndeclared(names map[string]bool) { l.undeclared = names }

// Undeclared returns the names SetUndeclared gave.
func (l *Loader) Undeclared() map[string]bool { return l.undeclared }

// classesFrom takes what each file the same as other's can be (see
// Loader.step) from other.
func (l *Loader) classesFrom(other *Loader) {
	for i, p := range l.Repo.Paths {
		if j, ok := other.Index[p]; ok && l.same[i] {
			l.step[i], l.Registers[i], l.NonASCII[i] = other.step[j], other.Registers[j], other.NonASCII[j]
		}
	}
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
		if l.shared != nil && (l.other == nil || l.same[i]) {
			files[k] = l.shared.get(p, func() *source.File {
				f := source.ParseFile(p, l.Data[i])
				warm(f)
				return f
			})
			return
		}
		if l.same[i] && l.other != nil {
			if f := l.other.file(p); f != nil {
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

// shareParses makes head and base (whose other is head) share their parses,
// starting with the files head has parsed.
func shareParses(head, base *Loader) {
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

// Content returns the content of a file of the snapshot, read.
func (l *Loader) Content(path string) ([]byte, bool) {
	i, ok := l.Index[path]
	if !ok {
		return nil, false
	}
	return l.Data[i], true
}

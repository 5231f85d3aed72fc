// Package change is change mode: it checks one change (a diff against a
// base revision, staged or not) and reports the findings it brings, on the
// ops it concerns. Its reference is the whole check of both snapshots (the
// head and the base rebuilt from the diff): checking only the ops the change
// can concern gives the same report, and the tests hold it to that.
package change

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// LineRange is an inclusive range of 1-based lines.
type LineRange struct{ Start, End int }

// Change is what a change touches: the files it modifies, with the line
// ranges of their new version, relative to the checked root.
type Change struct {
	Root    string // the checked root
	Base    string // the revision the change is against, as given
	Staged  bool   // the change is the index, not the working tree
	Files   []string
	Lines   map[string][]LineRange // changed lines of each file's new version
	Whole   map[string]bool        // new files: every line changed
	Deleted map[string]bool        // files the change deletes
	// Renames maps the base's path of each file the change moves (as
	// git's rename detection finds them among the files it deletes and
	// adds) to the head's. The moved file is still Deleted at its old path
	// and Whole at its new one; findings are matched across the move.
	Renames map[string]string
	// renamed, when not nil, is closed once Renames is set: git finds
	// the moves while the snapshots are checked (see waitRenames).
	renamed chan struct{}

	// diffs is what git diff says of each changed file, which rebuilds
	// its old version (see baseSource).
	diffs map[string]*git.FileDiff
	// gaps holds the ranges of Lines that stand for lines removed with
	// nothing in their place: the two lines around the removal.
	gaps map[string][]LineRange
}

// Touches reports whether the change modifies any line in [start, end] of file.
func (c *Change) Touches(file string, start, end int) bool {
	if c.Whole[file] {
		return true
	}
	for _, r := range c.Lines[file] {
		if r.Start <= end && start <= r.End {
			return true
		}
	}
	return false
}

// Edits reports whether the change modifies any line in [start, end] of
// file other than by removing lines next to it: a line beside a removed
// one is not edited (an __init__ entry next to a deleted one is another
// op's).
func (c *Change) Edits(file string, start, end int) bool {
	if c.Whole[file] {
		return true
	}
	gaps := c.gaps[file]
next:
	for _, r := range c.Lines[file] {
		for _, g := range gaps {
			if r == g {
				continue next
			}
		}
		if r.Start <= end && start <= r.End {
			return true
		}
	}
	return false
}

// HasFile reports whether the change modifies file.
func (c *Change) HasFile(file string) bool {
	_, ok := c.Lines[file]
	return ok || c.Whole[file]
}

// FromGit computes a change with git: against the merge base of base and
// HEAD, the working tree (with uncommitted and untracked files) or, when
// staged, the index. base "" means HEAD. It runs `git diff -U0` and, when
// the working tree has files the index does not hold, `git ls-files
// --others` on them (see git.Untracked).
func FromGit(root, base string, staged bool) (*Change, error) {
	return gitChange(root, base, staged, func() ([]string, error) {
		return (&source.DiskSource{Dir: root, Lenient: true}).List()
	})
}

// gitChange is FromGit with listed giving the working tree's files (those
// the check lists are enough) that may be untracked; it is called while git
// diff runs.
func gitChange(root, base string, staged bool, listed func() ([]string, error)) (*Change, error) {
	if base == "" {
		base = "HEAD"
	}
	if err := git.CheckDiff(root, base); err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	var untracked []string
	var untrackedErr error
	if !staged {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var paths []string
			if paths, untrackedErr = listed(); untrackedErr == nil {
				untracked, untrackedErr = git.Untracked(root, paths)
			}
		}()
	}
	d, diffErr := git.Changes(root, base, staged)
	wg.Wait()
	if diffErr != nil {
		return nil, diffErr
	}
	ch := &Change{
		Root: root, Base: base, Staged: staged,
		Lines: map[string][]LineRange{}, Whole: map[string]bool{}, Deleted: map[string]bool{},
	}
	ch.addDiff(d.Files)
	if len(ch.Deleted) > 0 && ch.hasNew() {
		// The moves among the deleted and new files, apart (the diff
		// above, without renames, is what rebuilds the base's files), and
		// meanwhile: only finishChange needs them.
		ch.renamed = make(chan struct{})
		go func() {
			defer close(ch.renamed)
			ch.Renames = ch.moves(d.Renames())
		}()
	}
	if !staged {
		if err := untrackedErr; err != nil {
			return nil, err
		}
		for _, p := range untracked {
			ch.Whole[p] = true
		}
	}
	seen := map[string]bool{}
	for f := range ch.Deleted {
		seen[f] = true
	}
	for f := range ch.Lines {
		seen[f] = true
	}
	for f := range ch.Whole {
		seen[f] = true
	}
	for f := range seen {
		ch.Files = append(ch.Files, f)
	}
	sort.Strings(ch.Files)
	return ch, nil
}

// addDiff records what git diff says of the files: the lines each changes
// in its new version, the new and deleted files, and (in diffs) how to
// rebuild each old version.
func (ch *Change) addDiff(files []*git.FileDiff) {
	for _, d := range files {
		name := d.Path
		if ch.diffs == nil {
			ch.diffs = map[string]*git.FileDiff{}
		}
		if prev := ch.diffs[name]; prev != nil && prev.Deleted && d.New {
			// A type change (a file that became a symbolic link, or the
			// other way): the old side is the deletion's.
			delete(ch.Deleted, name)
			ch.Whole[name] = true
			ch.Lines[name] = nil
			continue
		}
		switch {
		case d.Deleted:
			ch.Deleted[name] = true
		case d.SawPatch || d.Binary || d.New:
			if _, ok := ch.Lines[name]; !ok {
				ch.Lines[name] = nil
			}
			if d.New {
				ch.Whole[name] = true
			} else if d.Binary {
				ch.Lines[name] = append(ch.Lines[name], LineRange{1, int(^uint(0) >> 1)})
			}
			for _, h := range d.Hunks {
				if h.NewCount == 0 {
					// Lines removed after line start: the lines around them changed.
					ch.Lines[name] = append(ch.Lines[name], LineRange{h.NewStart, h.NewStart + 1})
					if ch.gaps == nil {
						ch.gaps = map[string][]LineRange{}
					}
					ch.gaps[name] = append(ch.gaps[name], LineRange{h.NewStart, h.NewStart + 1})
				} else {
					ch.Lines[name] = append(ch.Lines[name], LineRange{h.NewStart, h.NewStart + h.NewCount - 1})
				}
			}
		default:
			continue // a mode change: the content is the same
		}
		ch.diffs[name] = d
	}
	for f := range ch.Deleted {
		delete(ch.Lines, f)
	}
}

// hasNew reports whether the diff adds a file.
func (c *Change) hasNew() bool {
	for _, d := range c.diffs {
		if d.New {
			return true
		}
	}
	return false
}

// waitRenames waits for git to find the moves of the change, if it
// looks for them.
func (c *Change) waitRenames() {
	if c.renamed != nil {
		<-c.renamed
	}
}

// moves keeps the renames git found that move a file the change deletes to
// one it adds (as the diff without renames says; it reads nothing else of
// c, whose untracked files are added meanwhile), or nil.
func (c *Change) moves(renames map[string]string) map[string]string {
	out := map[string]string{}
	for from, to := range renames {
		if d := c.diffs[to]; c.Deleted[from] && d != nil && d.New {
			out[from] = to
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// TouchedOps returns the ops a change touches: a new or edited dispatch
// stub, a changed module registering the op, a changed line of a cuTile
// __init__ naming the op's module or function, a changed test or
// benchmark file of the op.
func TouchedOps(t *optable.OpTable, ch *Change) map[string]bool {
	out := map[string]bool{}
	for _, op := range t.Ops {
		for _, s := range op.Stubs {
			if s.File == nil || s.Def == nil {
				continue
			}
			// The stub from the comment lines right above it (where a skip
			// directive may be, see findSkips).
			start := optable.StubStartLine(s)
			for lines := optable.CommentLines(s.File); start > 1 && lines[start-1]; {
				start--
			}
			if ch.Touches(s.File.Path, start, s.Def.End().Line) {
				out[op.Name] = true
			}
		}
		for _, im := range op.Impls {
			if im.File != nil && ch.HasFile(im.File.Path) {
				out[op.Name] = true
			}
		}
		for _, f := range append(append([]*source.File(nil), op.Tests...), op.Benchmarks...) {
			if ch.HasFile(f.Path) {
				out[op.Name] = true
			}
		}
	}
	for _, in := range t.Inits {
		if in.File == nil || !ch.HasFile(in.File.Path) {
			continue
		}
		initNamedOps(t, in.File.Path, touchedInitNames(in, ch), out)
	}
	return out
}

// initNamedOps adds to out the ops that names of the __init__ at file
// concern: whose cuTile package holds the __init__ and whose function is
// named, or whose module is named as the __init__ names it (relative to
// its package).
func initNamedOps(t *optable.OpTable, file string, names map[string]bool, out map[string]bool) {
	if len(names) == 0 {
		return
	}
	dir, pkg := path.Dir(file), astutil.ModulePath(file)+"."
	for _, op := range t.Ops {
		if names[op.Func] && op.Scope != nil && layout.UnderDir(strings.TrimSuffix(layout.ExpandSuite(op.Scope.CuTile, op.Suite), "/"), file) {
			out[op.Name] = true
		}
		for _, im := range op.Impls {
			if im.Module != "" && layout.UnderDir(dir, im.File.Path) && names[strings.TrimPrefix(astutil.ModulePath(im.File.Path), pkg)] {
				out[op.Name] = true
			}
		}
	}
}

// removedInitOps adds to out the ops whose entries (module import,
// function import, __all__ string) a change removes from a cuTile
// __init__ it edits: a deleted line is charged to its op.
func removedInitOps(ch *Change, head, base *optable.OpTable, out map[string]bool) {
	if head == nil || base == nil {
		return
	}
	for _, bi := range base.Inits {
		file := bi.File.Path
		if !ch.HasFile(file) || ch.Deleted[file] {
			continue
		}
		hi := initOf(head, file)
		if hi == nil {
			continue
		}
		he := initEntries(hi)
		names := map[string]bool{}
		for k, n := range initEntries(bi) {
			if he[k] < n {
				names[k.module], names[k.name] = true, true
			}
		}
		delete(names, "")
		initNamedOps(head, file, names, out)
	}
}

// touchedInitNames returns the names that the entries of an __init__ on
// lines the change edits name: imported modules and names, __all__
// strings. An entry beside a removed line is not edited: the removed
// entry is charged to its own op by comparing the two versions
// (removedInitOps, initChangeWords).
func touchedInitNames(in *optable.Init, ch *Change) map[string]bool {
	names := map[string]bool{}
	for _, imp := range append(append([]*optable.InitImport(nil), in.ModuleImports...), in.FuncImports...) {
		if imp.Stmt != nil && ch.Edits(in.File.Path, imp.Stmt.Pos().Line, imp.Stmt.End().Line) {
			names[imp.Name] = true
			names[imp.Module] = true
		}
	}
	for _, c := range in.All {
		if ch.Edits(in.File.Path, c.Pos().Line, c.End().Line) {
			if s, ok := c.Value.(string); ok {
				names[s] = true
			}
		}
	}
	return names
}

// CheckGit is FromGit then Check, the working tree listed
// and read, and the files every check parses (see seed) parsed, while git
// computes the change. The result is Check's.
func CheckGit(root, base string, staged bool, cat *rules.Catalog, cfg *config.Config, lay *layout.Layout, opts checker.Options) (*checker.Result, error) {
	if staged {
		ch, err := FromGit(root, base, staged)
		if err != nil {
			return nil, err
		}
		res, _, err := checkChangeWith(ch, cat, cfg, lay, opts, true, nil)
		return res, err
	}
	type loaded struct {
		l   *load.Loader
		err error
	}
	head := make(chan loaded, 1)
	type list struct {
		paths []string
		err   error
	}
	listed := make(chan list, 1)
	go func() {
		src := &source.DiskSource{Dir: root}
		repo, err := load.ListRepo(src, lay, cfg)
		if err != nil {
			listed <- list{nil, err}
			head <- loaded{nil, err}
			return
		}
		listed <- list{repo.Paths, nil}
		l, err := load.ReadLoader(src, repo, nil)
		if err == nil && l.Seed(nil) {
			l.OpTable() // and the wrappers, which the base shares
		}
		head <- loaded{l, err}
	}()
	// The files that may be untracked: those the check lists, and the
	// configuration files at the root (a new one changes every op).
	ch, err := gitChange(root, base, staged, func() ([]string, error) {
		ls := <-listed
		paths := ls.paths
		for _, name := range config.FileNames {
			if fi, err := os.Lstat(filepath.Join(root, name)); err == nil && fi.Mode().IsRegular() {
				paths = append(paths, name)
			}
		}
		return paths, ls.err
	})
	h := <-head
	if err == nil {
		err = h.err
	}
	if err != nil {
		return nil, err
	}
	res, _, err := checkChangeWith(ch, cat, cfg, lay, opts, true, h.l)
	return res, err
}

// batchesFor is the number of batches a whole check of a snapshot runs in
// (checker.Batches; a test makes it more).
var batchesFor = checker.Batches

// checkChangeWith is checkChange with, when hl is not nil, the working
// tree's files already read by it (and some parsed).
//
// Checking by ops, the base snapshot is the head's with the change taken
// back (baseSource); checking whole, as a reference, it is the merge base's
// tree as git lists it (git.Source).
func checkChangeWith(ch *Change, cat *rules.Catalog, cfg *config.Config, lay *layout.Layout, opts checker.Options, byOps bool, hl *load.Loader) (*checker.Result, bool, error) {
	var head source.Source = &source.DiskSource{Dir: ch.Root}
	if ch.Staged {
		gs := &git.Source{Dir: ch.Root, Rev: git.IndexRev}
		defer gs.Close()
		head = gs
	}
	if byOps {
		res, baseRes, ok, hl, bl, err := checkChangeOps(ch, head, cat, cfg, lay, hl)
		if err != nil {
			return nil, false, err
		}
		if ok {
			return finishChange(ch, res, baseRes, opts), true, nil
		}
		hl.Repo.Root = ch.Root
		if k := max(batchesFor(hl), batchesFor(bl)); k > 1 {
			// Large snapshots, each checked whole in batches (so that
			// only one batch's trees are live), one after the other.
			for _, l := range []*load.Loader{hl, bl} {
				l.Unshare()
				l.Repo.Table, l.Repo.Wrappers = nil, nil
			}
			res, err := checker.CheckLoaded(hl, cat, cfg, k)
			if err != nil {
				return nil, false, err
			}
			baseRes, err := checker.CheckLoaded(bl, cat, cfg, k)
			if err != nil {
				return nil, false, err
			}
			return finishChange(ch, res, baseRes, opts), false, nil
		}
		// The whole snapshots, from the files read: the base's files the
		// same as the head's are parsed once.
		for _, l := range []*load.Loader{hl, bl} {
			l.ParseAll()
			l.Repo.Table, l.Repo.Wrappers = nil, nil
		}
		// The two checks run together (they share the files the same in
		// both, whose facts are computed once, guarded).
		var baseErr error
		done := make(chan struct{})
		go func() {
			defer close(done)
			baseRes, baseErr = checker.Check(bl.Repo, cat, cfg, checker.Options{})
		}()
		res, err = checker.Check(hl.Repo, cat, cfg, checker.Options{})
		<-done
		if err != nil {
			return nil, false, err
		}
		if baseErr != nil {
			return nil, false, baseErr
		}
		return finishChange(ch, res, baseRes, opts), false, nil
	}
	top, prefix, mb, err := git.Revs(ch.Root, ch.Base)
	if err != nil {
		return nil, false, err
	}
	baseSrc := &git.Source{Dir: top, Rev: mb, Prefix: strings.TrimSuffix(prefix, "/")}
	defer baseSrc.Close()
	headRepo, err := load.Load(head, lay, cfg)
	if err != nil {
		return nil, false, err
	}
	headRepo.Root = ch.Root
	res, err := checker.Check(headRepo, cat, cfg, checker.Options{})
	if err != nil {
		return nil, false, err
	}
	baseRepo, err := load.Load(baseSrc, lay, cfg)
	if err != nil {
		return nil, false, err
	}
	baseRes, err := checker.Check(baseRepo, cat, cfg, checker.Options{})
	if err != nil {
		return nil, false, err
	}
	return finishChange(ch, res, baseRes, opts), false, nil
}

// checkChangeOps checks the two snapshots of a change parsing only what the
// ops of the change need (load.Loader.CloseOver), when that gives what whole checks
// give for the ops Check keeps. ok is false, and the whole snapshots
// must be checked, when the change adds or deletes a dispatch file or an
// __init__.py, edits a configuration file, edits a shared file in a way
// sharedChangeOps cannot scope, when a changed file does not parse, or when
// a finding of no op other than an undeclared registration (TG206) lands
// in a changed file.
//
// The ops Check keeps are those the change touches (TouchedOps: a
// new or edited stub, a changed module registering them, a changed
// __init__ entry naming them, a changed test or benchmark of theirs, a
// deleted file of theirs) and those with a new finding in a changed file.
// The ops checked are those owning a changed file, in one snapshot or the
// other (other than by their stub), those sharedChangeOps gives for the
// shared files, and those whose public wrappers differ (when an API
// module changed): every other op's findings are the same in both
// snapshots, and none is in a file the change touches but the op's own.
// So the ops kept are among those checked, and their findings, and
// whether each was pre-existing, are the same as in whole checks. An
// undeclared registration in a changed file (a finding of no op) is
// pre-existing if the base has one of the same name, anywhere: both
// snapshots parse every file that registers the name.
//
// It returns the loaders of the two snapshots, every file of which is read,
// for the whole checks when ok is false. hl, when not nil, is the head's
// loader, its files read.
func checkChangeOps(ch *Change, head source.Source, cat *rules.Catalog, cfg *config.Config, lay *layout.Layout, hl *load.Loader) (res, baseRes *checker.Result, ok bool, _, bl *load.Loader, err error) {
	if lay == nil {
		lay = &layout.Layout{}
	}
	var files []string
	files = append(files, ch.Files...)
	for f := range ch.Deleted {
		if !ch.HasFile(f) {
			files = append(files, f)
		}
	}
	// The shared files the change edits (dispatch files, cuTile
	// __init__s) are scoped by sharedChangeOps; a new or deleted one, or
	// __init__.py (a package made or unmade), and the configuration make
	// every op's check.
	whole := false
	var shared, own []string
	for _, f := range files {
		base := path.Base(f)
		_, dispatch := layout.DispatchScope(lay, f)
		if slices.Contains(config.FileNames, base) || (dispatch || base == "__init__.py") && (ch.Whole[f] || ch.Deleted[f]) {
			whole = true
		}
		if dispatch || base == "__init__.py" && layout.InCuTile(lay, f) {
			shared = append(shared, f)
		} else {
			own = append(own, f)
		}
	}
	if hl == nil {
		if hl, err = load.NewLoader(head, lay, cfg); err != nil {
			return nil, nil, false, nil, nil, err
		}
	}
	// The base is the head with the change taken back: a file the change
	// leaves alone is the head's.
	base := newBaseSource(ch.Root, hl, ch)
	bl, err = load.NewLoaderReusing(base, lay, cfg, base.unchanged)
	if err != nil {
		return nil, nil, false, nil, nil, err
	}
	bl.Other = hl // the base's files the same as the head's are parsed once
	bl.ClassesFrom(hl)
	load.ShareParses(hl, bl)
	if whole {
		return nil, nil, false, hl, bl, nil
	}
	// Each snapshot on its own goroutine, where they work apart.
	both := func(fn func(k int, l *load.Loader)) {
		done := make(chan struct{})
		go func() { defer close(done); fn(1, bl) }()
		fn(0, hl)
		<-done
	}
	// The public wrappers of the ops (which decide which tests are an
	// op's) are defined in the modules of the API packages: unless the
	// change edits one, they are the same in both snapshots, and the base
	// takes the head's; else the ops whose wrappers differ are checked.
	related := map[string]bool{}
	api := false
	for _, f := range files {
		api = api || hl.APIs[astutil.PackagePath(f)] && path.Base(f) != "__init__.py"
	}
	if !hl.Seed(nil) {
		return nil, nil, false, hl, bl, nil
	}
	if !api {
		hl.OpTable()
		bl.Repo.Wrappers = hl.Repo.Wrappers
	}
	// The base's seed and table when they are needed, the head's table
	// meanwhile.
	seeded := true
	both(func(k int, l *load.Loader) {
		switch {
		case k == 0:
			l.OpTable()
		case api || len(shared) > 0:
			if seeded = l.Seed(nil); seeded {
				l.OpTable()
			}
		}
	})
	if !seeded {
		return nil, nil, false, hl, bl, nil
	}
	// A change that removes a dispatch stub leaves the op's callers in
	// files it does not change: the snapshots are checked whole.
	if len(shared) > 0 && len(removedStubs(hl.OpTable(), bl.OpTable())) > 0 {
		return nil, nil, false, hl, bl, nil
	}
	if api {
		for _, l := range []*load.Loader{hl, bl} {
			for _, op := range l.OpTable().Ops {
				if !slices.Equal(hl.Repo.Wrappers[op.Name], bl.Repo.Wrappers[op.Name]) {
					related[op.Name] = true
				}
			}
		}
	}
	if len(shared) > 0 {
		ops, ok := sharedChangeOps(ch, hl, bl, shared, both)
		if !ok {
			return nil, nil, false, hl, bl, nil
		}
		for op := range ops {
			related[op] = true
		}
	}
	// The ops its changed files belong to, then (with those of both) its
	// check.
	relatedOf := make([]map[string]bool, 2)
	okOf := make([]bool, 2)
	both(func(k int, l *load.Loader) { relatedOf[k], okOf[k] = changeOps(l, own, shared) })
	if !okOf[0] || !okOf[1] {
		return nil, nil, false, hl, bl, nil
	}
	for _, r := range relatedOf {
		for op := range r {
			related[op] = true
		}
	}
	// A registration in a changed file of an op no stub declares is a
	// finding of no op (TG206), pre-existing if the base registers that
	// name anywhere: each snapshot parses every file that does.
	hl.Names = undeclared(ch, hl, bl)
	bl.Names = hl.Names
	// A registration no stub declares may be an op being added (see
	// addStublessOps), whose files only the whole snapshots show.
	for name := range hl.Names {
		for _, l := range []*load.Loader{hl, bl} {
			if l.OpTable().ByName[name] != nil {
				return nil, nil, false, hl, bl, nil
			}
		}
	}
	hl.Repo.Root = ch.Root
	check := func(repo *optable.Repo) (*checker.Result, error) {
		return checker.Check(repo, cat, cfg, checker.Options{Focus: related})
	}
	// Only the findings of the ops of the change count (the others' are
	// not whole), and those of no op in changed files.
	keep := func(d analysis.Diagnostic) bool {
		return d.Op != "" && related[d.Op] || d.Op == "" && ch.HasFile(d.File)
	}
	results := make([]*checker.Result, 2)
	errs := make([]error, 2)
	both(func(k int, l *load.Loader) {
		repo := l.CloseOver(related)
		results[k], errs[k] = load.CheckUntilRead(l, repo, related, check, (*checker.Result).Findings, keep)
	})
	for _, err := range errs {
		if err != nil {
			return nil, nil, false, nil, nil, err
		}
	}
	res, baseRes = results[0], results[1]
	if len(res.Errors) > 0 || len(baseRes.Errors) > 0 {
		return nil, nil, false, hl, bl, nil
	}
	for _, d := range res.Diagnostics {
		if d.Op == "" && ch.HasFile(d.File) && d.Rule.Kind != checks.ImplOrphanAnalyzer.Name {
			return nil, nil, false, hl, bl, nil
		}
	}
	return res, baseRes, true, hl, bl, nil
}

// vanishedOps returns the verdicts of the ops the change touches whose
// dispatch stub went with a deleted file while the head still registers
// them: Step 1 fails, the findings of their registrations without a stub
// (TG206, of no op until now) become theirs, and Steps 3 to 5, which start
// from the stub, are not checked. An op whose registrations went too was
// removed, not broken: it has none.
func vanishedOps(ch *Change, res, baseRes *checker.Result, touched map[string]bool) []checker.OpResult {
	var out []checker.OpResult
	for _, op := range baseRes.Table.Ops {
		if !touched[op.Name] || res.Table.ByName[op.Name] != nil {
			continue
		}
		var stubFile string
		for _, s := range op.Stubs {
			if s.File != nil && ch.Deleted[s.File.Path] {
				stubFile = s.File.Path
			}
		}
		if stubFile == "" {
			continue
		}
		var impls []*optable.Impl
		for _, im := range res.Table.Impls {
			if im.Op == op.Name && im.File != nil {
				impls = append(impls, im)
			}
		}
		if len(impls) == 0 {
			continue
		}
		for i := range res.Diagnostics {
			d := &res.Diagnostics[i]
			if d.Op != "" || d.Rule.Kind != checks.ImplOrphanAnalyzer.Name {
				continue
			}
			for _, im := range impls {
				if d.File == im.File.Path && im.Pos.Line <= d.Pos.Line && d.Pos.Line <= im.End.Line {
					d.Op = op.Name
				}
			}
		}
		r := checker.StepVerdicts(op, res.Diagnostics, nil, nil)
		r.Steps[0].Status = checker.StatusFail
		r.Steps[0].Reason = "its dispatch stub was in " + stubFile + ", which the change deletes, and the op is still registered: restore the stub, or remove the op with its registrations, tests and benchmark"
		for step := 3; step <= 5; step++ {
			if r.Steps[step-1].Status == checker.StatusPass {
				r.Steps[step-1].Status = checker.StatusFail
				r.Steps[step-1].Reason = "not checked: the op has no dispatch stub (Step 1)"
			}
		}
		out = append(out, r)
	}
	return out
}

// undeclared returns the names that the changed files register in either
// snapshot and no stub declares.
func undeclared(ch *Change, loaders ...*load.Loader) map[string]bool {
	out := map[string]bool{}
	for _, l := range loaders {
		t := l.OpTable()
		for _, im := range t.Impls {
			if op := t.ByName[im.Op]; (op == nil || op.Stub == nil) && ch.HasFile(im.File.Path) {
				out[im.Op] = true
			}
		}
	}
	return out
}

// changeOps parses what a snapshot's check of the ops of a change starts
// from (see seed, with the changed files) and returns the ops owning a
// changed file, or a changed shared file (see sharedChangeOps), other
// than by their dispatch stub. ok is false when a changed file or a
// dispatch file does not parse: the snapshots must be checked whole.
func changeOps(l *load.Loader, files, shared []string) (related map[string]bool, ok bool) {
	if !l.Seed(files) {
		return nil, false
	}
	changed := map[string]bool{}
	for _, f := range append(files[:len(files):len(files)], shared...) {
		if file := l.Repo.Files[f]; file != nil {
			if file.AST == nil {
				return nil, false
			}
			changed[f] = true
		}
	}
	related = map[string]bool{}
	tab := l.OpTable()
	for _, op := range tab.Ops {
		for f := range checker.OpFiles(tab, op) {
			if changed[f] && !(op.Stub != nil && op.Stub.File.Path == f) {
				related[op.Name] = true
			}
		}
	}
	return related, true
}

// removedStubs returns the ops that have a dispatch stub in the base and
// none in the head.
func removedStubs(head, base *optable.OpTable) map[string]bool {
	out := map[string]bool{}
	if head == nil || base == nil {
		return out
	}
	for _, op := range base.Ops {
		if op.Stub == nil {
			continue
		}
		if h := head.ByName[op.Name]; h == nil || h.Stub == nil {
			out[op.Name] = true
		}
	}
	return out
}

// finishChange marks the findings of a change's snapshot that its base
// had, and keeps the ops the change touches and their findings.
func finishChange(ch *Change, res, baseRes *checker.Result, opts checker.Options) *checker.Result {
	ch.waitRenames()
	// A finding is pre-existing when the base had it: the same identity
	// (a moved file's findings under its new path), or, for what is left,
	// the same rule, op and file (see analysis.Known).
	before := analysis.NewKnown()
	for i := range baseRes.Diagnostics {
		d := &baseRes.Diagnostics[i]
		file := d.File
		if to, ok := ch.Renames[file]; ok {
			file = to
		}
		before.Add(analysis.IdentityOf(d, file), 1)
	}
	ids := make([]analysis.Identity, len(res.Diagnostics))
	for i := range res.Diagnostics {
		ids[i] = analysis.IdentityOf(&res.Diagnostics[i], res.Diagnostics[i].File)
	}
	for i, pre := range before.Match(ids) {
		res.Diagnostics[i].PreExisting = pre
	}

	touched := TouchedOps(res.Table, ch)
	removedInitOps(ch, res.Table, baseRes.Table, touched)
	// An op that loses a file is touched too, as the base knew it: a
	// deleted test, module or benchmark of it, its dispatch file (its
	// stub), or a cuTile __init__ naming its module or function (every
	// line of a deleted file is changed).
	var vanished []checker.OpResult
	if len(ch.Deleted) > 0 && baseRes.Table != nil {
		gone := &Change{Root: ch.Root, Lines: map[string][]LineRange{}, Whole: ch.Deleted, Deleted: ch.Deleted}
		for op := range TouchedOps(baseRes.Table, gone) {
			touched[op] = true
		}
		if res.Table != nil {
			vanished = vanishedOps(ch, res, baseRes, touched)
		}
	}
	// An op whose stub the change removes is touched: its callers are
	// judged (TG108) although their files did not change.
	if baseRes.Table != nil {
		for name := range removedStubs(res.Table, baseRes.Table) {
			touched[name] = true
		}
	}
	// The ops the change broke: a new finding in a changed file.
	for _, d := range res.Diagnostics {
		if d.Op != "" && ch.HasFile(d.File) && !d.PreExisting {
			touched[d.Op] = true
		}
	}
	want := map[string]bool{}
	for _, o := range opts.Ops {
		want[o] = true
	}
	keepOp := func(name string) bool {
		if !touched[name] {
			return false
		}
		if len(want) == 0 {
			return true
		}
		if want[name] {
			return true
		}
		op := res.Table.ByName[name]
		return op != nil && op.SelectedBy(want)
	}
	var ops []checker.OpResult
	for _, o := range append(res.Ops, vanished...) {
		if keepOp(o.Name) {
			ops = append(ops, o)
		}
	}
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].Name < ops[j].Name })
	res.Ops = ops
	var diags []analysis.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Op != "" && keepOp(d.Op) || d.Op == "" && ch.HasFile(d.File) && len(want) == 0 {
			diags = append(diags, d)
		}
	}
	res.Diagnostics = diags
	res.Errors = append(res.Errors, baseRes.Errors...)
	return res
}

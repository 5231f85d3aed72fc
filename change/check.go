package change

// Checking a change: the head snapshot and the base rebuilt from it, by
// the ops the change concerns when that gives what whole checks give.

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// CheckGit is FromGit then Check, the working tree listed
// and read, and the files every check parses (see seed) parsed, while git
// computes the change. The result is Check's.
func CheckGit(root, base string, staged bool, s *config.Setup, opts checker.Options) (*checker.Result, error) {
	if staged {
		ch, err := FromGit(root, base, staged)
		if err != nil {
			return nil, err
		}
		res, _, err := checkChangeWith(ch, s, opts, true, nil)
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
		repo, err := load.ListRepo(src, s)
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
	res, _, err := checkChangeWith(ch, s, opts, true, h.l)
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
func checkChangeWith(ch *Change, s *config.Setup, opts checker.Options, byOps bool, hl *load.Loader) (*checker.Result, bool, error) {
	var head source.Source = &source.DiskSource{Dir: ch.Root}
	if ch.Staged {
		gs := &git.Source{Dir: ch.Root, Rev: git.IndexRev}
		defer gs.Close()
		head = gs
	}
	if byOps {
		res, baseRes, ok, hl, bl, err := checkChangeOps(ch, head, s, hl)
		if err != nil {
			return nil, false, err
		}
		if ok {
			return finishChange(ch, res, baseRes, opts), true, nil
		}
		hl.SetRoot(ch.Root)
		if k := max(batchesFor(hl), batchesFor(bl)); k > 1 {
			// Large snapshots, each checked whole in batches (so that
			// only one batch's trees are live), one after the other.
			for _, l := range []*load.Loader{hl, bl} {
				l.Unshare()
				l.DropTable()
			}
			res, err := checker.CheckLoaded(hl, s, k)
			if err != nil {
				return nil, false, err
			}
			baseRes, err := checker.CheckLoaded(bl, s, k)
			if err != nil {
				return nil, false, err
			}
			return finishChange(ch, res, baseRes, opts), false, nil
		}
		// The whole snapshots, from the files read: the base's files the
		// same as the head's are parsed once.
		for _, l := range []*load.Loader{hl, bl} {
			l.ParseAll()
			l.DropTable()
		}
		// The two checks run together (they share the files the same in
		// both, whose facts are computed once, guarded).
		var baseErr error
		done := make(chan struct{})
		go func() {
			defer close(done)
			baseRes, baseErr = checker.Check(bl.Repo, s, checker.Options{})
		}()
		res, err = checker.Check(hl.Repo, s, checker.Options{})
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
	headRepo, err := load.Load(head, s)
	if err != nil {
		return nil, false, err
	}
	headRepo.Root = ch.Root
	res, err := checker.Check(headRepo, s, checker.Options{})
	if err != nil {
		return nil, false, err
	}
	baseRepo, err := load.Load(baseSrc, s)
	if err != nil {
		return nil, false, err
	}
	baseRes, err := checker.Check(baseRepo, s, checker.Options{})
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
func checkChangeOps(ch *Change, head source.Source, s *config.Setup, hl *load.Loader) (res, baseRes *checker.Result, ok bool, _, bl *load.Loader, err error) {
	lay := s.Layout
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
		if hl, err = load.NewLoader(head, s); err != nil {
			return nil, nil, false, nil, nil, err
		}
	}
	// The base is the head with the change taken back: a file the change
	// leaves alone is the head's.
	base := newBaseSource(ch.Root, hl, ch)
	bl, err = load.NewLoaderReusing(base, s, base.unchanged)
	if err != nil {
		return nil, nil, false, nil, nil, err
	}
	bl.ShareWith(hl) // the base's files the same as the head's are parsed once
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
		bl.UseWrappersOf(hl)
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
	hl.SetUndeclared(undeclared(ch, hl, bl))
	bl.SetUndeclared(hl.Undeclared())
	// A registration no stub declares may be an op being added (see
	// addStublessOps), whose files only the whole snapshots show.
	for name := range hl.Undeclared() {
		for _, l := range []*load.Loader{hl, bl} {
			if l.OpTable().ByName[name] != nil {
				return nil, nil, false, hl, bl, nil
			}
		}
	}
	hl.SetRoot(ch.Root)
	check := func(repo *optable.Repo) (*checker.Result, error) {
		return checker.Check(repo, s, checker.Options{Focus: related})
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
		results[k], errs[k] = checker.CheckUntilRead(l, repo, related, check, (*checker.Result).Findings, keep)
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
		if d.Op == "" && ch.HasFile(d.File) && !checker.KindOf(d).Undeclared {
			return nil, nil, false, hl, bl, nil
		}
	}
	return res, baseRes, true, hl, bl, nil
}

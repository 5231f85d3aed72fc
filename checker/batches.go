package checker

import (
	"slices"
	"sort"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/source"
)

// A whole check of a large checkout runs in batches of ops, so that the
// syntax trees of one batch's files are live at a time instead of every
// file's: the trees are some six bytes per byte of source, and kept to the
// report they made the peak memory of a check about thirteen times the
// source. Each batch is a check of some ops as --op runs it (the dispatch
// files, cuTile __init__.py files and API packages, parsed once, and the
// files those ops need: load.Loader.CloseOver), and gives those ops'
// findings and verdicts; the results are put together as the whole check
// gives them (checker.TestCheckInBatches compares the two).
//
//   - Findings of no op: each batch's, in the files it read, and those of
//     the files no batch read, checked in parts afterwards with no op in
//     focus.
//   - Suppressions: a comment read in any batch is judged unused only once
//     every batch has marked what it silenced (suppressions.add).
//   - What a batch may read of other ops' files is read with the seeds by
//     every batch: the cuTile modules that register an op being added (no
//     stub) or do not parse (cuTileSeeds), the API packages of every scope
//     and the modules they import * from. An op that a batch or a part
//     still comes upon (none has) would be checked in a batch of its own.
//   - The kinds that are not op-scoped (analysis.Analyzer.Whole: the
//     relation kind, which lists and parses the files it reads itself) run
//     once, after the batches and parts, over the seeds with the op table
//     of every batch (runWhole), rather than in every batch and part.
//   - The result's op table holds the ops and the registrations without
//     their syntax nodes (detach; a registration keeps its span), and the
//     cuTile __init__.py files: the report and change mode need their
//     files and lines, not their trees.

// BatchFrom is the size of the Python source in scope from which a whole
// check runs in batches. A smaller checkout (TileGym is 3.4 MB) is checked
// at once, which is a third faster: at about 12 bytes of peak RSS per
// source byte, that stays under 4 bytes per byte plus the 128 MB heap the
// command leaves uncollected (a check in batches stays under it at any
// size; docs/performance.md).
const BatchFrom = 6 << 20

// maxBatches bounds the batches: each reads every file's text for the
// words its ops are used by (CloseOver), so their number is what a check in
// batches costs over one at once (at TileGym x100, 16 batches rather than
// 8 gave a third less memory for a fifth more CPU, measured before those
// scans were made linear; 12 and 16 now cost the same).
const maxBatches = 16

// batchBytes is the source a batch is about: its ops' share of it.
const batchBytes = 4 << 20

// batchCount is the number of batches for a checkout of size bytes.
func batchCount(size int64) int {
	if size < BatchFrom {
		return 1
	}
	return int(min(maxBatches, (size+batchBytes-1)/batchBytes))
}

// checkInBatches checks every op of a loaded snapshot in k batches.
func (p *plan) checkInBatches(l *load.Loader, k int) (*Result, error) {
	if !l.Seed(nil) {
		// A dispatch file does not parse: which ops there are is not
		// known, so the whole check, as Load gives it.
		l.ParseAll()
		return Check(l.Repo, p.Setup, Options{})
	}
	// The cuTile modules that register an op being added, or do not
	// parse, are read with the seeds (cuTileSeeds; Seed adds the API
	// packages of their ops' scopes).
	l.Seed(cuTileSeeds(l, k))
	seeds := markSeeds(l)
	// The names a caller asked to look for too (change mode's undeclared
	// registrations) are no batch's.
	names0 := l.Undeclared()
	l.SetUndeclared(nil)
	defer func() { l.SetUndeclared(names0) }()
	b := &batches{p: p, l: l, seeds: seeds, inits: l.OpTable().Inits, impls: map[string][]*optable.Impl{}, implsFrom: map[string]int{}, sups: newSuppressions(l.Repo), read: make([]bool, len(l.Repo.Paths)),
		ops: map[string]*optable.Op{}, known: map[string]bool{}, unchecked: map[string]map[int]bool{}}
	var whole []*checks.Analyzer
	for _, a := range p.order {
		if a.Whole {
			whole = append(whole, a)
		} else {
			b.order = append(b.order, a)
		}
	}
	b.whole = topoOrder(whole)
	var names []string
	for _, op := range l.OpTable().Ops {
		names = append(names, op.Name)
		b.ops[op.Name] = nil // to be checked in its batch
		b.known[op.Name] = true
	}
	for i := range k {
		if err := b.run(names[i*len(names)/k : (i+1)*len(names)/k]); err != nil {
			return nil, err
		}
	}
	// The files no batch read, in parts of about the same size.
	var rest []int
	for i := range l.Repo.Paths {
		if !b.read[i] {
			rest = append(rest, i)
		}
	}
	for _, part := range parts(l, rest, k) {
		if err := b.runPart(part); err != nil {
			return nil, err
		}
	}
	// Ops known from a registration only (no stub), found on the way.
	for len(b.found) > 0 {
		found := b.found
		b.found = nil
		sort.Strings(found)
		names := map[string]bool{}
		for _, name := range found {
			names[name] = true
		}
		l.SetUndeclared(names)
		if err := b.run(found); err != nil {
			return nil, err
		}
	}
	table := b.table()
	b.runWhole(table)
	l.Forget(seeds)
	return b.result(table), nil
}

// cuTileSeeds returns the files of the cuTile packages that every batch
// must read: those that register an op without a dispatch stub (an op being
// added, optable's stubless ops: a test of another op may call it), and
// those that do not parse (the op whose registration is missing may be in
// one: impl-exists blames the parse error). The cuTile packages' files are
// parsed k parts at a time, after the seeds, and dropped.
func cuTileSeeds(l *load.Loader, k int) []string {
	start := l.Mark()
	var idx []int
	for i, p := range l.Repo.Paths {
		if !l.Parsed[i] && l.Layout != nil && layout.InCuTile(l.Layout, p) {
			idx = append(idx, i)
		}
	}
	var out []string
	for _, part := range parts(l, idx, k) {
		l.Parse(part)
		for _, i := range part {
			if f := l.Repo.Files[l.Repo.Paths[i]]; f.AST == nil {
				out = append(out, f.Path)
			}
		}
		for _, op := range l.OpTable().Ops {
			if op.Stub != nil {
				continue
			}
			for _, im := range op.Impls {
				if !start.Has(im.File.Path) {
					out = append(out, im.File.Path)
				}
			}
		}
		l.Forget(start)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// parts splits files (indexes in the loader's Paths) into k parts of about
// the same size, in order.
func parts(l *load.Loader, idx []int, k int) [][]int {
	total := 0
	for _, i := range idx {
		total += len(l.Data[i])
	}
	var out [][]int
	var part []int
	size := 0
	for n, i := range idx {
		part = append(part, i)
		size += len(l.Data[i])
		if total > 0 && size*k >= total || n == len(idx)-1 {
			out = append(out, part)
			part, size = nil, 0
		}
	}
	return out
}

// batches is the state of a check in batches.
type batches struct {
	p     *plan
	l     *load.Loader
	seeds load.Mark
	sups  *suppressions      // of every file read, marked by every batch
	order []*checks.Analyzer // what a batch runs: every analyzer but whole's
	whole []*checks.Analyzer // the kinds run once (Analyzer.Whole) and what they require
	read  []bool             // by index in Paths: the file was read in a batch or part

	ops       map[string]*optable.Op     // every op checked, detached
	known     map[string]bool            // the ops of the dispatch files
	inits     []*optable.Init            // of the cuTile __init__.py files, read once
	impls     map[string][]*optable.Impl // the registrations of each file read, detached
	implsFrom map[string]int             // the check impls has each file's from
	checks    int                        // the checks run so far
	others    []analysis.Diagnostic      // findings of ops in no batch (yet)
	found     []string                   // ops seen but not yet checked
	diags     []analysis.Diagnostic
	unchecked map[string]map[int]bool
	errs      []error
	errSeen   map[string]bool
	files     map[string]*source.File // the detached files, by path
}

// run checks a batch of ops: the findings of those ops, and of no op.
func (b *batches) run(names []string) error {
	if len(names) == 0 {
		return nil
	}
	l := b.l
	l.Forget(b.seeds)
	want := map[string]bool{}
	for _, name := range names {
		want[name] = true
		b.ops[name] = nil // taken: not found again
	}
	repo := l.CloseOver(want)
	return b.check(repo, want, want)
}

// runPart checks files no batch read, for the findings of no op.
func (b *batches) runPart(idx []int) error {
	l := b.l
	l.Forget(b.seeds)
	l.Parse(idx)
	return b.check(l.Repo, nil, map[string]bool{})
}

// check checks repo with focus (parsing what findings name, as
// CheckUntilRead does), and keeps the findings of the ops in focus and of
// no op.
func (b *batches) check(repo *optable.Repo, want, focus map[string]bool) error {
	type out struct {
		table     *optable.OpTable
		diags     []analysis.Diagnostic
		unchecked map[string]map[int]bool
		errs      []error
		sups      *suppressions
	}
	o, err := CheckUntilRead(b.l, repo, want, func(repo *optable.Repo) (*out, error) {
		results, diags, errs := runAnalyzers(repo, b.order, b.p.byKind, focus, b.known)
		table, _ := results[optable.OpTableAnalyzer].(*optable.OpTable)
		sups := newSuppressions(repo)
		diags, unchecked := applyPolicy(repo, diags, b.p.Config, sups)
		return &out{table, diags, unchecked, errs, sups}, nil
	}, func(o *out) []analysis.Diagnostic { return o.diags }, nil)
	if err != nil {
		return err
	}
	repo = b.l.Repo
	for i, p := range repo.Paths {
		if repo.Files[p] != nil {
			b.read[i] = true
		}
	}
	b.sups.add(o.sups)
	b.addErrors(o.errs)
	for _, d := range o.diags {
		switch {
		case d.Op == "" || focus[d.Op]:
			b.diags = append(b.diags, d)
		case !b.known[d.Op]:
			b.others = append(b.others, d)
		}
	}
	b.checks++
	if o.table != nil {
		for _, im := range o.table.Impls {
			if _, ok := b.impls[im.File.Path]; !ok || b.implsFrom[im.File.Path] == b.checks {
				b.implsFrom[im.File.Path] = b.checks
				b.impls[im.File.Path] = append(b.impls[im.File.Path], b.detachImpl(im))
			}
		}
		for _, op := range o.table.Ops {
			if focus[op.Name] {
				b.ops[op.Name] = b.detach(op)
				if u := o.unchecked[op.Name]; u != nil {
					b.unchecked[op.Name] = u
				}
			} else if _, ok := b.ops[op.Name]; !ok {
				b.ops[op.Name] = nil
				b.found = append(b.found, op.Name)
			}
		}
	}
	return nil
}

// addErrors keeps the analyzer errors not kept yet (each batch runs the
// same analyzers, which may fail alike).
func (b *batches) addErrors(errs []error) {
	for _, e := range errs {
		if b.errSeen == nil {
			b.errSeen = map[string]bool{}
		}
		if !b.errSeen[e.Error()] {
			b.errSeen[e.Error()] = true
			b.errs = append(b.errs, e)
		}
	}
}

// runWhole runs once the kinds that are not op-scoped (Analyzer.Whole),
// which no batch runs: over the seeds, with table, the op table of every
// batch (the optable analyzer returns the repository's Table). What they
// read they parse themselves; of the files their findings are in or name,
// the policy reads the comments, parse errors and lines, so those are
// parsed then (their suppressions were read by a batch or part already).
// Their findings are of no op: no step of an op goes unchecked by them.
func (b *batches) runWhole(table *optable.OpTable) {
	if len(b.whole) == 0 {
		return
	}
	l := b.l
	l.Forget(b.seeds)
	l.Repo.Table = table
	_, diags, errs := runAnalyzers(l.Repo, b.whole, b.p.byKind, nil, nil)
	b.addErrors(errs)
	var files []string
	for _, d := range diags {
		files = append(files, d.File)
		for _, r := range d.Related {
			files = append(files, r.File)
		}
	}
	l.ParseMore(files)
	sups := newSuppressions(l.Repo)
	diags, _ = applyPolicy(l.Repo, diags, b.p.Config, sups)
	b.sups.add(sups)
	b.diags = append(b.diags, diags...)
}

// detach returns a copy of op without syntax nodes, its files without
// trees (the dispatch files, read once, keep theirs).
func (b *batches) detach(op *optable.Op) *optable.Op {
	c := *op
	c.Impls = make([]*optable.Impl, len(op.Impls))
	for i, im := range op.Impls {
		c.Impls[i] = b.detachImpl(im)
	}
	c.Tests = b.fileList(op.Tests)
	c.Benchmarks = b.fileList(op.Benchmarks)
	return &c
}

// detachImpl returns a copy of a registration without its syntax nodes
// (its span is kept: Impl.Pos, Impl.End).
func (b *batches) detachImpl(im *optable.Impl) *optable.Impl {
	d := *im
	d.Call, d.Def, d.File = nil, nil, b.file(im.File)
	return &d
}

func (b *batches) fileList(fs []*source.File) []*source.File {
	if fs == nil {
		return nil
	}
	out := make([]*source.File, len(fs))
	for i, f := range fs {
		out[i] = b.file(f)
	}
	return out
}

func (b *batches) file(f *source.File) *source.File {
	if f == nil || b.seeds.Has(f.Path) {
		return f
	}
	if b.files == nil {
		b.files = map[string]*source.File{}
	}
	d := b.files[f.Path]
	if d == nil {
		d = &source.File{Path: f.Path, Src: f.Src, Err: f.Err}
		b.files[f.Path] = d
	}
	return d
}

// table puts the batches' op tables together.
func (b *batches) table() *optable.OpTable {
	table := &optable.OpTable{ByName: map[string]*optable.Op{}, Inits: b.inits}
	paths := make([]string, 0, len(b.impls))
	for p := range b.impls {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		table.Impls = append(table.Impls, b.impls[p]...)
	}
	for name, op := range b.ops {
		if op != nil {
			table.ByName[name] = op
			table.Ops = append(table.Ops, op)
		}
	}
	sort.Slice(table.Ops, func(i, j int) bool { return table.Ops[i].Name < table.Ops[j].Name })
	return table
}

// result puts the batches' results together, with their op table.
func (b *batches) result(table *optable.OpTable) *Result {
	// A name used but dispatched nowhere is charged findings as an op
	// (dispatch-callers); one found to be an op was checked in its batch.
	for _, d := range b.others {
		if b.ops[d.Op] == nil {
			b.diags = append(b.diags, d)
		}
	}
	// A finding charged to an op in one batch and to none in another is
	// the op's: the other batch did not read what charges it (the op's
	// cuTile module, for an import out of order in an __init__.py; the op's
	// finding in a file that does not parse, for its parse error).
	charged := map[chargeKey]bool{}
	for _, d := range b.diags {
		if d.Op != "" {
			charged[chargeKeyOf(d)] = true
		}
	}
	k := 0
	for _, d := range b.diags {
		if d.Op == "" && charged[chargeKeyOf(d)] {
			continue
		}
		b.diags[k] = d
		k++
	}
	b.diags = b.diags[:k]
	diags := append(b.diags, b.p.suppressionFindings(b.l.Repo, b.sups, nil, table, len(b.errs) > 0)...)
	SortDiagnostics(diags)
	k = 0
	for i, d := range diags {
		if i > 0 && sameFinding(diags[k-1], d) {
			continue
		}
		diags[k] = d
		k++
	}
	res := &Result{Root: b.l.Repo.Root, Errors: b.errs, Table: table}
	if k > 0 {
		res.Diagnostics = diags[:k]
	}
	res.Ops = b.p.verdicts(table.Ops, res.Diagnostics, b.unchecked, nil)
	return res
}

// chargeKey is a finding apart from the op it is charged to.
type chargeKey struct {
	rule, file string
	line, col  int
}

func chargeKeyOf(d analysis.Diagnostic) chargeKey {
	return chargeKey{d.Rule.ID, d.File, d.Pos.Line, d.Pos.Col}
}

// markSeeds marks what every batch starts from: the seeds, and their op
// table, built here once (each batch's CloseOver starts from it).
func markSeeds(l *load.Loader) load.Mark {
	l.OpTable()
	return l.Mark()
}

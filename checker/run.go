// Package checker is the driver of tilegym-lint: it runs the check kinds
// (package checks) over a repository model (package optable, loaded by
// package load), applies the policy -- disabled rules, severities, excluded
// ops and paths, suppressions -- and gives each op's verdict per step in a
// Result, which package report writes.
package checker

import (
	"fmt"
	"runtime/debug"
	"sort"
	"sync"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// Options narrow a check.
type Options struct {
	// Ops, when not empty, keeps only these ops (dispatch names, or the
	// function names of unnamespaced ops).
	Ops []string
	// Files, when not empty, keeps only the ops that own one of these
	// files (slash paths relative to the root): pre-commit mode.
	Files []string

	// Focus, when not nil, names the only ops whose findings the caller
	// reads (see Pass.Focus); the others' may be left out.
	Focus map[string]bool
}

// Check runs the analyzers of the enabled rules (and those they require)
// over a repository, applies the policy of the configuration (severities,
// excluded ops and paths, # noqa comments) and computes the status of each
// step of each op.
func Check(repo *optable.Repo, s *config.Setup, opts Options) (*Result, error) {
	p, err := newPlan(s)
	if err != nil {
		return nil, err
	}
	// A check of some ops knows them by name once the op table is built:
	// it is built first (and kept in repo, as the op table analyzer's).
	focus := opts.Focus
	if want := opts.selected(); want != nil {
		if repo.Table == nil {
			repo.Table = optable.BuildOpTable(repo)
		}
		focus = map[string]bool{}
		for _, op := range repo.Table.Select(want) {
			focus[op.Name] = true
		}
	}
	res := &Result{Root: repo.Root}
	results, diags, errs := runAnalyzers(repo, p.order, p.byKind, focus, nil)
	res.Errors = errs
	table, _ := results[optable.OpTableAnalyzer].(*optable.OpTable)
	if table == nil {
		table = &optable.OpTable{ByName: map[string]*optable.Op{}}
	}
	res.Table = table

	sups := newSuppressions(repo)
	diags, unchecked := applyPolicy(repo, diags, s.Config, sups)
	diags = append(diags, p.suppressionFindings(repo, sups, focus, table, len(errs) > 0)...)
	SortDiagnostics(diags)
	keep := selectOps(table, opts, diags)
	kept := diags[:0] // filtered in place: see applyPolicy
	for _, d := range diags {
		if keep != nil {
			if d.Op != "" && !keep.ops[d.Op] || d.Op == "" && !keep.files[d.File] {
				continue
			}
		}
		kept = append(kept, d)
	}
	clear(diags[len(kept):])
	if len(kept) == 0 {
		kept = nil
	}
	res.Diagnostics = kept
	res.Ops = p.verdicts(table.Ops, res.Diagnostics, unchecked, keep)
	return res, nil
}

// plan is what a check runs, from the catalog and the configuration: the
// analyzers of the enabled rules (and those they require) in order, the
// rules of each kind, and the verify commands of Step 6.
type plan struct {
	*config.Setup
	enabled []*rules.Rule
	byKind  map[*checks.Analyzer][]*rules.Rule
	order   []*checks.Analyzer
	verify  []checks.VerifyCommander
}

func newPlan(s *config.Setup) (*plan, error) {
	p := &plan{Setup: s, enabled: s.EnabledRules(), byKind: map[*checks.Analyzer][]*rules.Rule{}}
	var roots []*checks.Analyzer
	for _, r := range p.enabled {
		a := checks.Kind(r.Kind)
		if a == nil {
			return nil, fmt.Errorf("%s: rule %s: no check kind %q is registered", s.Catalog.File, r.ID, r.Kind)
		}
		if _, ok := p.byKind[a]; !ok {
			roots = append(roots, a)
		}
		p.byKind[a] = append(p.byKind[a], r)
	}
	// The op table is always computed: the step verdicts need it.
	roots = append(roots, optable.OpTableAnalyzer)
	if err := analysis.Validate(roots); err != nil {
		return nil, err
	}
	p.order = topoOrder(roots)
	for _, r := range p.enabled {
		if r.Step == 6 {
			if v, ok := r.Params.(checks.VerifyCommander); ok {
				p.verify = append(p.verify, v)
			}
		}
	}
	return p, nil
}

// suppressionRules returns the enabled rules of the kinds whose findings
// are about the suppression comments (Analyzer.Suppressions), in catalog
// order.
func (p *plan) suppressionRules() []*rules.Rule {
	var out []*rules.Rule
	for _, r := range p.enabled {
		if a := checks.Kind(r.Kind); a != nil && a.Suppressions {
			out = append(out, r)
		}
	}
	return out
}

// suppressionFindings returns the findings about the suppressions
// themselves, once every other finding has marked the ones it used; the
// same policy but suppression applies to them.
func (p *plan) suppressionFindings(repo *optable.Repo, sups *suppressions, focus map[string]bool, table *optable.OpTable, failed bool) []analysis.Diagnostic {
	out, _ := applyPolicy(repo, sups.findings(suppressionScope{
		rules: p.suppressionRules(), enabled: ruleIDs(p.enabled), known: ruleIDs(p.Catalog.Rules),
		focus: focus, table: table, failed: failed,
	}), p.Config, newSuppressions(&optable.Repo{}))
	return out
}

// verdicts returns the step verdicts of the ops (of those keep selects,
// when not nil) that the configuration does not exclude, sorted by name.
func (p *plan) verdicts(ops []*optable.Op, diags []analysis.Diagnostic, unchecked map[string]map[int]bool, keep *opSelection) []OpResult {
	excluded := map[string]bool{}
	if p.Config != nil {
		for _, o := range p.Config.ExcludeOps {
			excluded[o] = true
		}
	}
	// Each op's findings, so that the verdicts are linear in the findings.
	byOp := map[string][]analysis.Diagnostic{}
	for _, d := range diags {
		if d.Op != "" {
			byOp[d.Op] = append(byOp[d.Op], d)
		}
	}
	var out []OpResult
	for _, op := range ops {
		if keep != nil && !keep.ops[op.Name] || excluded[op.Name] {
			continue
		}
		out = append(out, StepVerdicts(op, byOp[op.Name], p.verify, unchecked[op.Name]))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// topoOrder lists the analyzers reachable from roots, each after those it
// requires, in a deterministic order.
func topoOrder(roots []*checks.Analyzer) []*checks.Analyzer {
	var order []*checks.Analyzer
	seen := map[*checks.Analyzer]bool{}
	var visit func(a *checks.Analyzer)
	visit = func(a *checks.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			visit(r)
		}
		order = append(order, a)
	}
	sorted := append([]*checks.Analyzer(nil), roots...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, a := range sorted {
		visit(a)
	}
	return order
}

// runAnalyzers runs the analyzers concurrently, each once its requirements
// are done. Diagnostics are gathered per analyzer and concatenated in
// order, so the outcome does not depend on scheduling.
//
// With focus, the findings of ops outside it are dropped as reported,
// except those a file that does not parse silences (see
// blameParseErrors: they make the parse error the op's).
func runAnalyzers(repo *optable.Repo, order []*checks.Analyzer, byKind map[*checks.Analyzer][]*rules.Rule, focus, elsewhere map[string]bool) (map[*checks.Analyzer]any, []analysis.Diagnostic, []error) {
	broken := func(d analysis.Diagnostic) bool {
		if f := repo.Files[d.File]; f != nil && f.Err != nil {
			return true
		}
		for _, r := range d.Related {
			if f := repo.Files[r.File]; f != nil && f.Err != nil {
				return true
			}
		}
		return false
	}
	type state struct {
		done   chan struct{}
		result any
		failed bool
		diags  []analysis.Diagnostic
		err    error
	}
	st := map[*checks.Analyzer]*state{}
	for _, a := range order {
		st[a] = &state{done: make(chan struct{})}
	}
	var wg sync.WaitGroup
	for _, a := range order {
		wg.Add(1)
		go func(a *checks.Analyzer) {
			defer wg.Done()
			s := st[a]
			defer close(s.done)
			resultOf := map[*checks.Analyzer]any{}
			for _, r := range a.Requires {
				rs := st[r]
				<-rs.done
				if rs.failed {
					s.failed = true
					s.err = fmt.Errorf("analyzer %s did not run: %s failed", a.Name, r.Name)
					return
				}
				resultOf[r] = rs.result
			}
			pass := &checks.Pass{
				Analyzer:  a,
				Repo:      repo,
				Rules:     byKind[a],
				ResultOf:  resultOf,
				Focus:     focus,
				Elsewhere: elsewhere,
			}
			var mu sync.Mutex // an analyzer may report from several goroutines
			pass.Report = func(d analysis.Diagnostic) {
				if d.Rule == nil || d.Op != "" && !pass.Wants(d.Op) && !broken(d) {
					return
				}
				mu.Lock()
				s.diags = append(s.diags, d)
				mu.Unlock()
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						s.failed = true
						s.err = fmt.Errorf("analyzer %s panicked: %v\n%s", a.Name, r, debug.Stack())
					}
				}()
				s.result, s.err = a.Run(pass)
				if s.err != nil {
					s.failed = true
					s.err = fmt.Errorf("analyzer %s: %w", a.Name, s.err)
				}
			}()
		}(a)
	}
	wg.Wait()
	results := map[*checks.Analyzer]any{}
	n := 0
	for _, a := range order {
		if s := st[a]; !s.failed {
			n += len(s.diags)
		}
	}
	var diags []analysis.Diagnostic
	if n > 0 {
		diags = make([]analysis.Diagnostic, 0, n) // the one list the driver filters in place
	}
	var errs []error
	for _, a := range order {
		s := st[a]
		results[a] = s.result
		if s.failed {
			errs = append(errs, s.err)
			continue
		}
		diags = append(diags, s.diags...)
		s.diags = nil
	}
	return results, diags, errs
}

func ruleIDs(list []*rules.Rule) map[string]bool {
	out := map[string]bool{}
	for _, r := range list {
		out[r.ID] = true
	}
	return out
}

// checkWhole checks every op of a snapshot: at once, or in k batches
// (0: as many as its size calls for, see Batches).
func checkWhole(src source.Source, s *config.Setup, k int) (*Result, error) {
	l, err := load.NewLoader(src, s)
	if err != nil {
		return nil, err
	}
	if k == 0 {
		k = Batches(l)
	}
	return CheckLoaded(l, s, k)
}

// Batches returns the number of batches a whole check of a loader's
// snapshot runs in, by the size of its source (1: at once; see BatchFrom).
func Batches(l *load.Loader) int {
	var size int64
	for _, d := range l.Data {
		size += int64(len(d))
	}
	return batchCount(size)
}

// CheckLoaded checks every op of the snapshot a loader has read (some of
// its files may be parsed already): at once when k is 1 or less, else in k
// batches, which leaves the loader with the files parsed at the start.
func CheckLoaded(l *load.Loader, s *config.Setup, k int) (*Result, error) {
	if k <= 1 {
		l.ParseAll()
		return Check(l.Repo, s, Options{})
	}
	p, err := newPlan(s)
	if err != nil {
		return nil, err
	}
	return p.checkInBatches(l, k)
}

// CheckSource loads a snapshot and checks it. With opts.Ops (and no
// opts.Files) it parses only the files the selected ops need (see
// load.Loader.Load), and then any file a finding is in or names (a file that does
// not parse would have silenced the finding); the result for those ops is
// the same as Load then Check.
func CheckSource(src source.Source, s *config.Setup, opts Options) (*Result, error) {
	if opts.Files != nil {
		repo, err := load.Load(src, s)
		if err != nil {
			return nil, err
		}
		return Check(repo, s, opts)
	}
	if len(opts.Ops) == 0 {
		return checkWhole(src, s, 0)
	}
	l, err := load.NewLoader(src, s)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, o := range opts.Ops {
		want[o] = true
	}
	repo := l.Load(want)
	res, err := CheckUntilRead(l, repo, want, func(repo *optable.Repo) (*Result, error) { return Check(repo, s, opts) }, (*Result).Findings, nil)
	if err != nil || res == nil || res.Table == nil {
		return res, err
	}
	// An op without a dispatch stub (being added, TG107) is known only
	// from its registration, which the files read for the stubs do not
	// show: an --op naming no op read is checked on the whole snapshot.
	for _, o := range opts.Ops {
		if len(res.Table.Lookup(o)) == 0 {
			repo, err := load.Load(src, s)
			if err != nil {
				return nil, err
			}
			return Check(repo, s, opts)
		}
	}
	return res, nil
}

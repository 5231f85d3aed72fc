package checker

import (
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/tilegym/tilegym-lint/rules"
)

// Status is the verdict of one step of one op.
type Status string

const (
	StatusPass    Status = "pass"
	StatusFail    Status = "fail"
	StatusSkipped Status = "skipped" // skipped in writing (W1)
	StatusNotRun  Status = "not-run" // Step 6 in static mode
	// StatusBlocked: the step cannot be judged yet, what it checks does not
	// exist (Step 3 of an op no cuTile module registers: Step 2 fails).
	StatusBlocked Status = "blocked"
)

// CommandRun is the outcome of one verify command (explicit verify mode).
type CommandRun struct {
	Cmd      string
	Optional bool // a failure does not fail the step
	ExitCode int  // -1 when it could not run or timed out
	Passed   bool
	Tail     string // the last lines of its combined output
	Err      string // why it could not run, or "timed out"
}

// StepResult is the verdict of one step of an op.
type StepResult struct {
	Step     int
	Status   Status
	Reason   string   // the written reason of a skip; why a failed step could not be checked
	Commands []string // Step 6: the commands that verify the op
	// Runs, in explicit verify mode, are the outcomes of the commands.
	Runs []CommandRun
}

// OpResult is the per-step verdict of one op.
type OpResult struct {
	Name  string
	Op    *Op
	Steps [6]StepResult
	// CrossStepErrors counts the op's error-severity findings of rules of
	// no step (TG0xx).
	CrossStepErrors int
}

// Failed reports whether a step failed or an error-severity finding that
// belongs to no step (a cross-step rule) was reported for the op.
func (r *OpResult) Failed() bool {
	if r.CrossStepErrors > 0 {
		return true
	}
	for _, s := range r.Steps {
		if s.Status == StatusFail {
			return true
		}
	}
	return false
}

// Result is the outcome of a check.
type Result struct {
	Root        string
	Ops         []OpResult   // sorted by name
	Diagnostics []Diagnostic // sorted by file, line, column, rule
	// Errors are failures of analyzers (a returned error or a panic); the
	// checks that depend on a failed analyzer did not run.
	Errors []error
	Table  *OpTable
}

// FormatDiagnostic formats a finding as FILE:LINE:COL: RULE message, with a
// 1-based column.
func FormatDiagnostic(d Diagnostic) string {
	s := fmt.Sprintf("%s:%d:%d: %s", d.File, d.Pos.Line, d.Pos.Col+1, d.Rule.ID)
	if d.Severity == rules.Warning {
		s += " (warning)"
	}
	return s + " " + d.Message
}

// Options narrow a check.
type Options struct {
	// Ops, when not empty, keeps only these ops (dispatch names, or the
	// function names of unnamespaced ops).
	Ops []string
	// Files, when not empty, keeps only the ops that own one of these
	// files (slash paths relative to the root): pre-commit mode.
	Files []string

	// focus, when not nil, names the only ops whose findings the caller
	// reads (see Pass.Focus); the others' may be left out.
	focus map[string]bool
}

// VerifyCommander is implemented by the params of the Step 6 kind: the
// exact commands that verify an op (pytest on its tests, its benchmark,
// the linters).
type VerifyCommander interface {
	VerifyCommands(op *Op) []string
}

// EnabledRules returns the catalog's rules that the configuration does not
// disable, in catalog order.
func EnabledRules(cat *rules.Catalog, cfg *Config) []*rules.Rule {
	disabled := map[string]bool{}
	if cfg != nil {
		for _, id := range cfg.Disable {
			disabled[id] = true
		}
	}
	var out []*rules.Rule
	for _, r := range cat.Rules {
		if !disabled[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// Check runs the analyzers of the enabled rules (and those they require)
// over a repository, applies the policy of the configuration (severities,
// excluded ops and paths, # noqa comments) and computes the status of each
// step of each op.
func Check(repo *Repo, cat *rules.Catalog, cfg *Config, opts Options) (*Result, error) {
	enabled := EnabledRules(cat, cfg)
	byKind := map[*Analyzer][]*rules.Rule{}
	var roots []*Analyzer
	for _, r := range enabled {
		a := Kind(r.Kind)
		if a == nil {
			return nil, fmt.Errorf("%s: rule %s: no check kind %q is registered", cat.File, r.ID, r.Kind)
		}
		if _, ok := byKind[a]; !ok {
			roots = append(roots, a)
		}
		byKind[a] = append(byKind[a], r)
	}
	// The op table is always computed: the step verdicts need it.
	roots = append(roots, OpTableAnalyzer)
	if err := Validate(roots); err != nil {
		return nil, err
	}
	order := topoOrder(roots)

	// A check of some ops knows them by name once the op table is built:
	// it is built first (and kept in repo, as the op table analyzer's).
	focus := opts.focus
	if want := opts.selected(); want != nil {
		if repo.table == nil {
			repo.table = BuildOpTable(repo)
		}
		focus = map[string]bool{}
		for _, op := range selectedOps(repo.table, want) {
			focus[op.Name] = true
		}
	}
	res := &Result{Root: repo.Root}
	results, diags, errs := runAnalyzers(repo, order, byKind, focus)
	res.Errors = errs
	table, _ := results[OpTableAnalyzer].(*OpTable)
	if table == nil {
		table = &OpTable{ByName: map[string]*Op{}}
	}
	res.Table = table

	sups := newSuppressions(repo)
	diags, unchecked := applyPolicy(repo, diags, cfg, sups)
	// The findings about the suppressions themselves, once every other
	// finding is known; the same policy but suppression applies to them.
	supDiags, _ := applyPolicy(repo, sups.findings(suppressionScope{
		rules: byKind[SuppressionAnalyzer], enabled: ruleIDs(enabled), known: ruleIDs(cat.Rules),
		focus: focus, table: table, failed: len(errs) > 0,
	}), cfg, newSuppressions(&Repo{}))
	diags = append(diags, supDiags...)
	SortDiagnostics(diags)
	keep := selectOps(table, opts, diags)
	var kept []Diagnostic
	for _, d := range diags {
		if keep != nil {
			if d.Op != "" && !keep.ops[d.Op] || d.Op == "" && !keep.files[d.File] {
				continue
			}
		}
		kept = append(kept, d)
	}
	res.Diagnostics = kept

	var verify []VerifyCommander
	for _, r := range enabled {
		if r.Step == 6 {
			if v, ok := r.Params.(VerifyCommander); ok {
				verify = append(verify, v)
			}
		}
	}
	excluded := map[string]bool{}
	if cfg != nil {
		for _, o := range cfg.ExcludeOps {
			excluded[o] = true
		}
	}
	// Each op's findings, so that the verdicts are linear in the findings.
	byOp := map[string][]Diagnostic{}
	for _, d := range res.Diagnostics {
		if d.Op != "" {
			byOp[d.Op] = append(byOp[d.Op], d)
		}
	}
	for _, op := range table.Ops {
		if keep != nil && !keep.ops[op.Name] || excluded[op.Name] {
			continue
		}
		res.Ops = append(res.Ops, stepVerdicts(op, byOp[op.Name], verify, unchecked[op.Name]))
	}
	sort.Slice(res.Ops, func(i, j int) bool { return res.Ops[i].Name < res.Ops[j].Name })
	return res, nil
}

// topoOrder lists the analyzers reachable from roots, each after those it
// requires, in a deterministic order.
func topoOrder(roots []*Analyzer) []*Analyzer {
	var order []*Analyzer
	seen := map[*Analyzer]bool{}
	var visit func(a *Analyzer)
	visit = func(a *Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			visit(r)
		}
		order = append(order, a)
	}
	sorted := append([]*Analyzer(nil), roots...)
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
func runAnalyzers(repo *Repo, order []*Analyzer, byKind map[*Analyzer][]*rules.Rule, focus map[string]bool) (map[*Analyzer]any, []Diagnostic, []error) {
	broken := func(d Diagnostic) bool {
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
		diags  []Diagnostic
		err    error
	}
	st := map[*Analyzer]*state{}
	for _, a := range order {
		st[a] = &state{done: make(chan struct{})}
	}
	var wg sync.WaitGroup
	for _, a := range order {
		wg.Add(1)
		go func(a *Analyzer) {
			defer wg.Done()
			s := st[a]
			defer close(s.done)
			resultOf := map[*Analyzer]any{}
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
			pass := &Pass{
				Analyzer: a,
				Repo:     repo,
				Rules:    byKind[a],
				ResultOf: resultOf,
				Focus:    focus,
			}
			var mu sync.Mutex // an analyzer may report from several goroutines
			pass.Report = func(d Diagnostic) {
				if d.Rule == nil || d.Op != "" && focus != nil && !focus[d.Op] && !broken(d) {
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
	results := map[*Analyzer]any{}
	var diags []Diagnostic
	var errs []error
	for _, a := range order {
		s := st[a]
		results[a] = s.result
		if s.failed {
			errs = append(errs, s.err)
			continue
		}
		diags = append(diags, s.diags...)
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

// applyPolicy sets severities, drops findings in excluded paths or of
// excluded ops, honours suppressions (# noqa and ignore directives, noting
// in sups which ones silenced something), removes duplicates and sorts.
//
// It also returns, per op, the steps whose findings were dropped because a
// file they concern does not parse: those steps could not be checked.
func applyPolicy(repo *Repo, diags []Diagnostic, cfg *Config, sups *suppressions) ([]Diagnostic, map[string]map[int]bool) {
	excludedOps := map[string]bool{}
	var excludePaths []string
	var sev map[string]rules.Severity
	if cfg != nil {
		for _, o := range cfg.ExcludeOps {
			excludedOps[o] = true
		}
		excludePaths = cfg.Exclude
		sev = cfg.Severity
	}
	// Every finding a comment silences marks it used, also one that is
	// dropped below for another reason (excluded, or blamed on a file that
	// does not parse): the comment is not stale.
	suppressed := make([]bool, len(diags))
	for i := range diags {
		normalizeSpan(&diags[i])
		suppressed[i] = sups.mark(diags[i])
	}
	var keep []Diagnostic
	for i, d := range diags {
		if !suppressed[i] {
			keep = append(keep, d)
		}
	}
	diags, unchecked := blameParseErrors(repo, keep)
	type key struct {
		rule, op, file, msg string
		line, col           int
	}
	seen := map[key]bool{}
	var out []Diagnostic
	for _, d := range diags {
		if excludedOps[d.Op] && d.Op != "" {
			continue
		}
		if _, ok := MatchAny(excludePaths, d.File); ok {
			continue
		}
		d.Severity = d.Rule.Severity
		if s, ok := sev[d.Rule.ID]; ok {
			d.Severity = s
		}
		normalizeSpan(&d) // also the findings blameParseErrors gave
		k := key{d.Rule.ID, d.Op, d.File, d.Message, d.Pos.Line, d.Pos.Col}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	SortDiagnostics(out)
	return out, unchecked
}

// normalizeSpan makes a finding's span well formed: it starts on line 1 or
// later and does not end before it starts.
func normalizeSpan(d *Diagnostic) {
	if d.End.Line < d.Pos.Line || d.End.Line == d.Pos.Line && d.End.Col < d.Pos.Col {
		d.End = d.Pos
	}
	if d.Pos.Line < 1 {
		d.Pos.Line = 1
		if d.End.Line < 1 {
			d.End = d.Pos
		}
	}
}

// blameParseErrors avoids cascades from a file that does not parse: a
// finding located in such a file, or whose related positions name it (the
// file an absence expects, e.g. the op's cuTile module), is dropped -- the
// checks could not see the file -- and the parse-error finding is given to
// each op whose finding was dropped, so that the op's report shows why
// (one parse-error finding per such op; none keeps the finding op-less).
func blameParseErrors(repo *Repo, diags []Diagnostic) ([]Diagnostic, map[string]map[int]bool) {
	broken := map[string]bool{}
	for _, f := range repo.Files {
		if f.Err != nil {
			broken[f.Path] = true
		}
	}
	if len(broken) == 0 {
		return diags, nil
	}
	unchecked := map[string]map[int]bool{}
	blame := map[string]map[string]bool{} // broken file -> ops
	blamed := func(file string, d Diagnostic) {
		if blame[file] == nil {
			blame[file] = map[string]bool{}
		}
		if d.Op != "" {
			blame[file][d.Op] = true
			if unchecked[d.Op] == nil {
				unchecked[d.Op] = map[int]bool{}
			}
			unchecked[d.Op][d.Rule.Step] = true
		}
	}
	var kept, parseErrs []Diagnostic
	for _, d := range diags {
		if d.Rule.Kind == ParseErrorAnalyzer.Name {
			parseErrs = append(parseErrs, d)
			continue
		}
		drop := false
		if broken[d.File] {
			drop = true
			blamed(d.File, d)
		}
		for _, r := range d.Related {
			if broken[r.File] {
				drop = true
				blamed(r.File, d)
			}
		}
		if !drop {
			kept = append(kept, d)
		}
	}
	for _, d := range parseErrs {
		ops := blame[d.File]
		if d.Op != "" || len(ops) == 0 {
			kept = append(kept, d)
			continue
		}
		names := make([]string, 0, len(ops))
		for op := range ops {
			names = append(names, op)
		}
		sort.Strings(names)
		for _, op := range names {
			c := d
			c.Op = op
			kept = append(kept, c)
		}
	}
	return kept, unchecked
}

// SortDiagnostics sorts by file, line, column, rule, then message.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		if a.Rule.ID != b.Rule.ID {
			return a.Rule.ID < b.Rule.ID
		}
		if a.Op != b.Op {
			return a.Op < b.Op
		}
		return a.Message < b.Message
	})
}

func suppresses(codes []string, id string) bool {
	if codes == nil {
		return true
	}
	for _, c := range codes {
		if c == id {
			return true
		}
	}
	return false
}

// NoqaLines returns the # noqa comments of a file by line: a nil list for a
// bare "# noqa" (every rule), else the codes after "noqa:".
func NoqaLines(f *File) map[int][]string {
	out := map[int][]string{}
	if f == nil || f.AST == nil {
		return out
	}
	for _, c := range f.AST.Comments {
		codes, ok := ParseNoqa(c.Text)
		if ok {
			out[c.Pos.Line] = codes
		}
	}
	return out
}

// ParseNoqa parses a comment ("# noqa", "# noqa: TG301, TG302", also after
// other text as in "# type: ignore  # noqa: TG301"). It returns nil codes
// for a bare noqa.
func ParseNoqa(text string) (codes []string, ok bool) {
	lower := strings.ToLower(text)
	i := strings.Index(lower, "noqa")
	if i < 0 {
		return nil, false
	}
	// "noqa" must start the comment or follow a '#'.
	before := strings.TrimRight(lower[:i], " \t")
	if !strings.HasSuffix(before, "#") {
		return nil, false
	}
	rest := text[i+4:]
	r := strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(r, ":") {
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '#' {
			return nil, false // "noqaz"
		}
		return nil, true
	}
	r = r[1:]
	for _, f := range strings.FieldsFunc(r, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' }) {
		if strings.HasPrefix(f, "#") {
			break
		}
		codes = append(codes, strings.ToUpper(f))
	}
	if len(codes) == 0 {
		return nil, true
	}
	return codes, true
}

type opSelection struct {
	ops   map[string]bool
	files map[string]bool // files of the kept ops, for findings with no op
}

// selected returns the ops a check of some ops selects, as given (the names
// of ops, or the function names of unnamespaced ops; see selectedOps), or
// nil: for all ops, or for those owning some files (which the findings
// decide, see selectOps).
func (o Options) selected() map[string]bool {
	if len(o.Ops) == 0 || o.Files != nil {
		return nil
	}
	m := map[string]bool{}
	for _, n := range o.Ops {
		m[n] = true
	}
	return m
}

// selectOps returns the ops a check reports on, or nil for all of them.
// With Files, an op is kept when it owns one of them or has a finding in
// one of them (a shared file such as cutile/__init__.py).
func selectOps(t *OpTable, opts Options, diags []Diagnostic) *opSelection {
	if len(opts.Ops) == 0 && opts.Files == nil {
		return nil
	}
	sel := &opSelection{ops: map[string]bool{}, files: map[string]bool{}}
	want := map[string]bool{}
	for _, o := range opts.Ops {
		want[o] = true
	}
	changed := map[string]bool{}
	for _, f := range opts.Files {
		changed[f] = true
		sel.files[f] = true
	}
	for _, op := range t.Ops {
		if len(want) > 0 && !want[op.Name] && !(op.Suite == "" && want[op.Func]) {
			continue
		}
		files := OpFiles(t, op)
		if opts.Files != nil {
			owns := false
			for f := range files {
				if changed[f] {
					owns = true
				}
			}
			for _, d := range diags {
				if d.Op == op.Name && changed[d.File] {
					owns = true
				}
			}
			if !owns {
				continue
			}
		}
		sel.ops[op.Name] = true
		for f := range files {
			sel.files[f] = true
		}
	}
	return sel
}

// OpFiles returns the files that make up an op: its dispatch file, its
// implementations' modules, its tests and benchmarks.
func OpFiles(t *OpTable, op *Op) map[string]bool {
	out := map[string]bool{}
	for _, s := range op.Stubs {
		if s.File != nil {
			out[s.File.Path] = true
		}
	}
	for _, im := range op.Impls {
		if im.File != nil {
			out[im.File.Path] = true
		}
	}
	for _, f := range op.Tests {
		out[f.Path] = true
	}
	for _, f := range op.Benchmarks {
		out[f.Path] = true
	}
	return out
}

// stepVerdicts computes the status of each step of an op.
func stepVerdicts(op *Op, diags []Diagnostic, verify []VerifyCommander, unchecked map[int]bool) OpResult {
	r := OpResult{Name: op.Name, Op: op}
	failed := [7]bool{}
	var reasons [7]string
	for step := range unchecked {
		if step >= 1 && step <= 6 {
			failed[step] = true // its file does not parse: the step could not be checked
			reasons[step] = "not checked: a file of this step does not parse (TG001)"
		}
	}
	for _, d := range diags {
		if d.Op != op.Name || d.Severity != rules.Error {
			continue
		}
		if d.Rule.Step >= 1 && d.Rule.Step <= 6 {
			failed[d.Rule.Step] = true
		} else {
			r.CrossStepErrors++
		}
	}
	for step := 1; step <= 6; step++ {
		s := StepResult{Step: step, Status: StatusPass}
		skip := op.Skipped(step)
		if skip == nil && step == 3 {
			skip = op.Skipped(2) // nothing to register
		}
		switch {
		case failed[step]:
			s.Status = StatusFail
			s.Reason = reasons[step]
		case skip != nil:
			s.Status = StatusSkipped
			s.Reason = skip.Reason
		case step == 3 && !hasCuTileModule(op):
			s.Status = StatusBlocked
			s.Reason = "no cuTile module registers the op yet (Step 2); Step 3 is judged once one does"
		case step == 6:
			s.Status = StatusNotRun
			for _, v := range verify {
				s.Commands = append(s.Commands, v.VerifyCommands(op)...)
			}
		}
		r.Steps[step-1] = s
	}
	return r
}

// hasCuTileModule reports whether some module of a cuTile package
// registers the op (an implementation with a module path).
func hasCuTileModule(op *Op) bool {
	for _, im := range op.Impls {
		if im.Module != "" {
			return true
		}
	}
	return false
}

// CheckSource loads a snapshot and checks it. With opts.Ops (and no
// opts.Files) it parses only the files the selected ops need (see
// LoadForOps), and then any file a finding is in or names (a file that does
// not parse would have silenced the finding); the result for those ops is
// the same as Load then Check.
func CheckSource(src Source, layout *Layout, cat *rules.Catalog, cfg *Config, opts Options) (*Result, error) {
	if len(opts.Ops) == 0 || opts.Files != nil {
		repo, err := Load(src, layout, cfg)
		if err != nil {
			return nil, err
		}
		return Check(repo, cat, cfg, opts)
	}
	l, err := newLazyLoader(src, layout, cfg)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, o := range opts.Ops {
		want[o] = true
	}
	repo := l.load(want)
	res, err := l.checkUntilRead(repo, want, func(repo *Repo) (*Result, error) { return Check(repo, cat, cfg, opts) }, nil)
	if err != nil || res == nil || res.Table == nil {
		return res, err
	}
	// An op without a dispatch stub (being added, TG107) is known only
	// from its registration, which the files read for the stubs do not
	// show: an --op naming no op read is checked on the whole snapshot.
	for _, o := range opts.Ops {
		if res.Table.ByName[o] == nil && len(selectedOps(res.Table, map[string]bool{o: true})) == 0 {
			repo, err := Load(src, layout, cfg)
			if err != nil {
				return nil, err
			}
			return Check(repo, cat, cfg, opts)
		}
	}
	return res, nil
}

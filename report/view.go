package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/rules"
)

// Verdict options shared by the text views: whether pre-existing findings
// of change mode count.
type verdictOptions struct {
	changeMode, strict bool
}

// counts reports whether a finding fails the run: an error, unless the
// baseline records it, or change mode marks it pre-existing (and --strict
// does not count those).
func (v verdictOptions) counts(d *analysis.Diagnostic) bool {
	return severity(d) == rules.Error && !d.Baseline && !(v.changeMode && d.PreExisting && !v.strict)
}

// state is what the text views say of a step.
type state int

const (
	statePass state = iota
	stateFail
	statePreExisting // failing, but only with pre-existing errors: not counted
	stateSkipped
	stateNotRun
	stateBaselined // failing, but only with errors the baseline records: not counted
	// stateBlocked: the step cannot be judged yet (JSON's "blocked"), as
	// what it checks does not exist (Step 3 of an op no cuTile module
	// registers). It does not fail the op by itself: the step it waits
	// for does, and says what to do.
	stateBlocked
)

func (s state) word() string {
	return [...]string{"pass", "FAIL", "pre-existing", "skipped", "not run", "baselined", "blocked"}[s]
}

// opView is one op as the text views show it.
type opView struct {
	res   *checker.OpResult
	diags []*analysis.Diagnostic // the op's findings, in result order
	steps [6]state
	fail  bool // the words "FAIL": agrees with the exit status
}

// stepDiags returns the op's findings of step n (0: of no step).
func (o *opView) stepDiags(n int) []*analysis.Diagnostic {
	var out []*analysis.Diagnostic
	for _, d := range o.diags {
		st := d.Rule.Step
		if st < 1 || st > 6 {
			st = 0
		}
		if st == n {
			out = append(out, d)
		}
	}
	return out
}

// views groups a result's findings by op and decides each step's state;
// other holds the findings of no reported op.
func views(res *checker.Result, v verdictOptions) (ops []*opView, other []*analysis.Diagnostic) {
	byOp := map[string]*opView{}
	for i := range res.Ops {
		o := &opView{res: &res.Ops[i]}
		ops = append(ops, o)
		byOp[o.res.Name] = o
	}
	// TG001 findings by file: a step that could not be checked (a file of
	// it does not parse) is pre-existing when those parse errors are.
	parseErr := map[string][]*analysis.Diagnostic{}
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		if o := byOp[d.Op]; d.Op != "" && o != nil {
			o.diags = append(o.diags, d)
		} else {
			other = append(other, d)
		}
		if checker.KindOf(*d).ParseErrors {
			parseErr[d.File] = append(parseErr[d.File], d)
		}
	}
	for _, o := range ops {
		for n := 1; n <= 6; n++ {
			s := o.res.Steps[n-1]
			switch s.Status {
			case checker.StatusPass:
				o.steps[n-1] = statePass
			case checker.StatusSkipped:
				o.steps[n-1] = stateSkipped
			case checker.StatusNotRun:
				o.steps[n-1] = stateNotRun
			case checker.StatusBlocked:
				o.steps[n-1] = stateBlocked
			default:
				o.steps[n-1] = o.failState(n, res, parseErr, v)
			}
			if o.steps[n-1] == stateFail {
				o.fail = true
			}
		}
		for _, d := range o.stepDiags(0) {
			if v.counts(d) {
				o.fail = true
			}
		}
	}
	return ops, other
}

// failState decides whether a failed step counts: it does unless all
// that failed it is pre-existing (and not counted).
func (o *opView) failState(n int, res *checker.Result, parseErr map[string][]*analysis.Diagnostic, v verdictOptions) state {
	for _, r := range o.res.Steps[n-1].Runs {
		if !r.Passed && !r.Optional {
			return stateFail
		}
	}
	errs, baselined := 0, 0
	for _, d := range o.stepDiags(n) {
		if v.counts(d) {
			return stateFail
		}
		if severity(d) == rules.Error {
			errs++
			if d.Baseline && !(v.changeMode && d.PreExisting) {
				baselined++
			}
		}
	}
	if o.res.Steps[n-1].Reason != "" {
		// Not checked: a file of the op does not parse. It counts unless
		// each of those parse errors is pre-existing or baselined.
		if o.res.Op == nil || res.Table == nil {
			return stateFail
		}
		seen, all := false, true
		for f := range checker.OpFiles(res.Table, o.res.Op) {
			for _, d := range parseErr[f] {
				if !d.Baseline && !(v.changeMode && d.PreExisting && !v.strict) {
					return stateFail
				}
				seen = true
				all = all && d.Baseline && !(v.changeMode && d.PreExisting)
			}
		}
		if !seen {
			return stateFail
		}
		if all {
			return stateBaselined
		}
		return statePreExisting
	}
	if errs > 0 && baselined == errs {
		return stateBaselined
	}
	if errs > 0 {
		return statePreExisting
	}
	return stateFail
}

// blockedSteps returns the numbers of the op's blocked steps.
func (o *opView) blockedSteps() []string {
	var out []string
	for i, s := range o.steps {
		if s == stateBlocked {
			out = append(out, fmt.Sprint(i+1))
		}
	}
	return out
}

// ruleCounts writes "TG105 ×1, TG106 ×2" for findings, by rule id.
func ruleCounts(ds []*analysis.Diagnostic) string {
	n := map[string]int{}
	var ids []string
	for _, d := range ds {
		if n[d.Rule.ID] == 0 {
			ids = append(ids, d.Rule.ID)
		}
		n[d.Rule.ID]++
	}
	sort.Strings(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("%s ×%d", id, n[id])
	}
	return strings.Join(parts, ", ")
}

// countPhrase writes "2 warnings (TG105 ×1, TG106 ×1)".
func countPhrase(ds []*analysis.Diagnostic, one, many string) string {
	return fmt.Sprintf("%d %s (%s)", len(ds), plural(len(ds), one, many), ruleCounts(ds))
}

// RunFailed reports whether the result fails the run, as the text views
// word it: an error-severity finding (in change mode a new one, or any with
// strict), or a required verify command that failed.
func RunFailed(res *checker.Result, changeMode, strict bool) bool {
	v := verdictOptions{changeMode: changeMode, strict: strict}
	ops, other := views(res, v)
	for _, o := range ops {
		if o.fail {
			return true
		}
		for _, d := range o.diags {
			if v.counts(d) {
				return true
			}
		}
	}
	for _, d := range other {
		if v.counts(d) {
			return true
		}
	}
	return false
}

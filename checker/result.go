package checker

import (
	"fmt"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/optable"
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
	Op    *optable.Op
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
	Ops         []OpResult            // sorted by name
	Diagnostics []analysis.Diagnostic // sorted by file, line, column, rule
	// Errors are failures of analyzers (a returned error or a panic); the
	// checks that depend on a failed analyzer did not run.
	Errors []error
	Table  *optable.OpTable
}

// FormatDiagnostic formats a finding as FILE:LINE:COL: RULE message, with a
// 1-based column.
func FormatDiagnostic(d analysis.Diagnostic) string {
	s := fmt.Sprintf("%s:%d:%d: %s", d.File, d.Pos.Line, d.Pos.Col+1, d.Rule.ID)
	if d.Severity == rules.Warning {
		s += " (warning)"
	}
	return s + " " + d.Message
}

// StepVerdicts computes the status of each step of an op.
func StepVerdicts(op *optable.Op, diags []analysis.Diagnostic, verify []checks.VerifyCommander, unchecked map[int]bool) OpResult {
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
func hasCuTileModule(op *optable.Op) bool {
	for _, im := range op.Impls {
		if im.Module != "" {
			return true
		}
	}
	return false
}

// Findings returns the result's findings (as CheckUntilRead reads them).
func (r *Result) Findings() []analysis.Diagnostic { return r.Diagnostics }

// String is the result as plain text holding everything the reporters
// print, for tests and debugging: every op's steps with status, reason,
// commands and runs, and every diagnostic with its rule, op, severity,
// positions, message, related positions and whether it is pre-existing.
func (res *Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "root %s\n", res.Root)
	for _, o := range res.Ops {
		fmt.Fprintf(&b, "op %s\n", o.Name)
		for _, s := range o.Steps {
			fmt.Fprintf(&b, "  step %d %s %q %q\n", s.Step, s.Status, s.Reason, s.Commands)
			for _, r := range s.Runs {
				fmt.Fprintf(&b, "    run %+v\n", r)
			}
		}
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "%s %s %s op=%q end=%d:%d", FormatDiagnostic(d), d.Rule.Requirement, d.Severity, d.Op, d.End.Line, d.End.Col)
		fmt.Fprintf(&b, " pre_existing=%v", d.PreExisting)
		for _, r := range d.Related {
			fmt.Fprintf(&b, " related=%s:%d:%d-%d:%d %q", r.File, r.Pos.Line, r.Pos.Col, r.End.Line, r.End.Col, r.Message)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// NarrowToFiles keeps, of a change mode result, the ops owning one of the
// files (slash paths relative to the root) and the findings of no op in
// them: change mode with file arguments (pre-commit).
func (res *Result) NarrowToFiles(files []string) {
	want := map[string]bool{}
	for _, f := range files {
		want[f] = true
	}
	keep := map[string]bool{}
	var ops []OpResult
	for _, o := range res.Ops {
		if o.Op == nil {
			continue
		}
		for f := range OpFiles(res.Table, o.Op) {
			if want[f] {
				keep[o.Name] = true
			}
		}
		if keep[o.Name] {
			ops = append(ops, o)
		}
	}
	res.Ops = ops
	var diags []analysis.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Op != "" && keep[d.Op] || d.Op == "" && want[d.File] {
			diags = append(diags, d)
		}
	}
	res.Diagnostics = diags
}

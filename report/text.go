// Package report writes a checker.Result for people and tools: text
// (WriteText, WriteChecklist, WriteStatistics), one JSON document
// (WriteJSON) and GitHub Actions annotations (WriteAnnotations).
package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/rules"
)

// StepTitles are the items of the workflow's checklist, as the skill words
// them.
var StepTitles = [6]string{
	"Register dispatch interface in ops.py",
	"Implement cuTile backend",
	"Register in __init__.py (cutile)",
	"Add tests",
	"Add benchmark to tests/benchmark",
	"Verify (run pytest + lint)",
}

// TextOptions control the text output.
type TextOptions struct {
	// Full shows every step of every op with every finding. By default an
	// op that fails shows its failing steps with their findings, and any
	// other op takes one line.
	Full bool
	// Quiet shows only the errors: the failing ops, their failing steps
	// and the findings that fail them, and the summary.
	Quiet bool
	// Color uses ANSI colours (only on a terminal, never with NO_COLOR).
	Color bool
	// ChangeMode marks pre-existing findings; they do not fail an op
	// unless Strict.
	ChangeMode bool
	// Strict: in change mode, pre-existing errors fail the run too.
	Strict bool
	// Width is the column lines are wrapped at where they can be
	// (0: DefaultWidth).
	Width int
}

// DefaultWidth is the column the text output wraps findings at.
const DefaultWidth = 100

const (
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiDim    = "\x1b[2m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

type textWriter struct {
	w     *bufio.Writer // to the LogWriter, in large writes
	flush func() error
	opt   TextOptions
	v     verdictOptions
	err   error
}

// newTextWriter returns a text writer to w, through a LogWriter (see
// logWriter); done flushes it and returns the first error of the writing.
func newTextWriter(w io.Writer, opt TextOptions) *textWriter {
	if opt.Width <= 0 {
		opt.Width = DefaultWidth
	}
	lw, flush := logWriter(w)
	return &textWriter{w: bufio.NewWriterSize(lw, 64<<10), flush: flush, opt: opt, v: verdictOptions{changeMode: opt.ChangeMode, strict: opt.Strict}}
}

// done flushes the writer's buffer and LogWriter and returns the first
// error.
func (t *textWriter) done() error {
	if err := t.w.Flush(); t.err == nil {
		t.err = err
	}
	if err := t.flush(); t.err == nil {
		t.err = err
	}
	return t.err
}

func (t *textWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

func (t *textWriter) color(c, s string) string {
	if !t.opt.Color || s == "" {
		return s
	}
	return c + s + ansiReset
}

// stateWord colours a step's state padded to width.
func (t *textWriter) stateWord(s state, width int) string {
	w := fmt.Sprintf("%-*s", width, s.word())
	switch s {
	case statePass:
		return t.color(ansiGreen, w)
	case stateFail:
		return t.color(ansiRed+ansiBold, w)
	case stateSkipped, statePreExisting, stateBaselined:
		return t.color(ansiYellow, w)
	}
	return t.color(ansiDim, w)
}

// diags writes findings at indent: each with its position, rule and what
// is wrong on the first line, how to fix it on an indented line, both
// wrapped at the width (op, when they are listed under their op, is
// dropped from the message's start); a run of findings with the same way
// to fix them gets it once, after the last.
func (t *textWriter) diags(indent string, ds []*analysis.Diagnostic, op string) {
	for i, d := range ds {
		_, fix := SplitMessage(d.Rule, d.Message)
		next := ""
		if i+1 < len(ds) {
			_, next = SplitMessage(ds[i+1].Rule, ds[i+1].Message)
		}
		t.finding(indent, d, op, fix != next)
	}
}

// finding writes one finding, with how to fix it when withFix.
func (t *textWriter) finding(indent string, d *analysis.Diagnostic, op string, withFix bool) {
	what, fix := SplitMessage(d.Rule, d.Message)
	if !withFix {
		fix = ""
	}
	if op != "" {
		what = trimOp(what, op)
	}
	head := fmt.Sprintf("%s:%d:%d: %s", Clean(d.File), d.Pos.Line, d.Pos.Col+1, d.Rule.ID)
	if Fixable(d) {
		head += " " + FixMark
	}
	if severity(d) == rules.Warning {
		head += " (warning)"
	}
	if t.opt.ChangeMode && d.PreExisting {
		head += " (pre-existing)"
	}
	if d.Baseline {
		head += " (baselined)"
	}
	c := ansiYellow
	if t.v.counts(d) {
		c = ansiRed
	}
	width := t.opt.Width
	lines := wrap(Clean(what), width-len(indent)-utf8.RuneCountInString(head)-1, width-len(indent)-2)
	if lines[0] == "" {
		t.printf("%s%s\n", indent, t.color(c, head))
	} else {
		t.printf("%s%s\n", indent, t.color(c, head+" "+lines[0]))
	}
	for _, l := range lines[1:] {
		t.printf("%s  %s\n", indent, t.color(c, l))
	}
	if fix != "" {
		lines := wrap(Clean(fix), width-len(indent)-4, width-len(indent)-4)
		t.printf("%s  → %s\n", indent, lines[0])
		for _, l := range lines[1:] {
			t.printf("%s    %s\n", indent, l)
		}
	}
}

// WriteText writes the result for people. By default each failing op
// shows its failing steps with their findings (the warnings of its other
// steps are counted on one line); any other op takes one line with its
// warnings counted per rule and, when Step 6 is still to do, its commands.
// Full shows every step of every op; Quiet only the errors. Then the
// findings of no op and a summary line.
func WriteText(w io.Writer, res *checker.Result, opt TextOptions) error {
	t := newTextWriter(w, opt)
	ops, other := views(res, t.v)
	shared := sharedCommands(ops)
	failed := 0
	for _, o := range ops {
		if o.fail {
			failed++
		}
		switch {
		case opt.Full || o.fail:
			t.opBlock(o)
		case !opt.Quiet:
			t.opLine(o, shared)
		}
	}
	if !opt.Quiet && !opt.Full && len(shared) > 0 {
		t.printf("step 6 of every passing op also: %s\n", Clean(strings.Join(shared, ", ")))
	}
	var shown, fams []*analysis.Diagnostic
	for _, d := range other {
		if opt.Quiet && !t.v.counts(d) {
			continue
		}
		if familyOf(d.Rule) != rules.TG {
			fams = append(fams, d)
		} else {
			shown = append(shown, d)
		}
	}
	if len(shown) > 0 {
		t.printf("%s\n", t.color(ansiBold, "findings of no op:"))
		t.diags("  ", shown, "")
	}
	t.families(fams)
	t.summary(res, failed)
	return t.done()
}

// summary writes the closing line.
func (t *textWriter) summary(res *checker.Result, failed int) {
	t.summaryOf(res, len(res.Ops), failed)
}

// summaryOf writes the summary line of nops ops.
func (t *textWriter) summaryOf(res *checker.Result, nops, failed int) {
	errs, warns, pre, base := 0, 0, 0, 0
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		if severity(d) == rules.Error {
			errs++
		} else {
			warns++
		}
		if d.PreExisting {
			pre++
		}
		if d.Baseline {
			base++
		}
	}
	t.printf("%d ops, %d failed, %d errors, %d warnings", nops, failed, errs, warns)
	if t.opt.ChangeMode {
		t.printf(" (%d %s pre-existing)", pre, plural(pre, "finding", "findings"))
	}
	if base > 0 {
		t.printf(" (%d %s baselined)", base, plural(base, "finding", "findings"))
	}
	t.printf("\n")
	if line := FixableLine(res, t.opt.ChangeMode); line != "" {
		t.printf("%s\n", line)
	}
}

// FixMark marks a finding --fix fixes, as ruff marks its fixable ones.
const FixMark = "[*]"

// Fixable reports whether --fix fixes a finding: a rule marked fixable
// whose finding carries a suggested fix (--fix applies the first).
func Fixable(d *analysis.Diagnostic) bool {
	return d.Rule != nil && d.Rule.Fixable && len(d.Fixes) > 0
}

// FixableLine is the closing line saying how many of the findings --fix
// would fix ("3 fixable with `tilegym-lint --fix` ([*])"), or "" when
// none. In change mode, where --fix does not run, the command names the
// ops (--fix --op A,B).
func FixableLine(res *checker.Result, changeMode bool) string {
	n, cmd := fixable(res, changeMode)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d fixable with `%s` (marked %s)", n, Clean(cmd), FixMark)
}

// fixable counts the findings --fix would fix and returns the command that
// fixes them (naming the ops in change mode).
func fixable(res *checker.Result, changeMode bool) (int, string) {
	n := 0
	ops := map[string]bool{}
	for i := range res.Diagnostics {
		if d := &res.Diagnostics[i]; Fixable(d) {
			n++
			if d.Op != "" {
				ops[d.Op] = true
			}
		}
	}
	if n == 0 {
		return 0, ""
	}
	cmd := "tilegym-lint --fix"
	if changeMode && len(ops) > 0 {
		names := make([]string, 0, len(ops))
		for o := range ops {
			names = append(names, o)
		}
		sort.Strings(names)
		cmd += " --op " + strings.Join(names, ",")
	}
	return n, cmd
}

// opBlock writes an op with its steps: all of them with Full, else the
// failing ones.
func (t *textWriter) opBlock(o *opView) {
	name := t.color(ansiBold, Clean(o.res.Name))
	if o.fail {
		var failing []string
		for i, s := range o.steps {
			if s == stateFail {
				failing = append(failing, fmt.Sprint(i+1))
			}
		}
		where := ""
		if len(failing) > 0 {
			where = fmt.Sprintf(" (%s %s)", plural(len(failing), "step", "steps"), strings.Join(failing, ", "))
		}
		if b := o.blockedSteps(); len(b) > 0 {
			what := fmt.Sprintf("%s %s blocked", plural(len(b), "step", "steps"), strings.Join(b, ", "))
			if where == "" {
				where = " (" + what + ")"
			} else {
				where = where[:len(where)-1] + "; " + what + ")"
			}
		}
		t.printf("%s: %s%s\n", name, t.stateWord(stateFail, 0), where)
	} else {
		t.printf("%s: %s\n", name, t.stateWord(statePass, 0))
	}
	var hidden []*analysis.Diagnostic
	for n := 1; n <= 6; n++ {
		s := o.steps[n-1]
		ds := o.stepDiags(n)
		if !t.opt.Full && s != stateFail && !(s == stateBlocked && o.fail) {
			for _, d := range ds {
				if !t.opt.Quiet {
					hidden = append(hidden, d)
				}
			}
			continue
		}
		t.step(o, n, ds)
	}
	var cross []*analysis.Diagnostic
	for _, d := range o.stepDiags(0) {
		if t.opt.Full || t.v.counts(d) || !t.opt.Quiet && hasCounting(o.stepDiags(0), t.v) {
			cross = append(cross, d)
		} else if !t.opt.Quiet {
			hidden = append(hidden, d)
		}
	}
	if len(cross) > 0 {
		t.printf("  across steps\n")
		t.diags("    ", cross, o.res.Name)
	}
	if len(hidden) > 0 {
		t.printf("  %s\n", t.color(ansiDim, fmt.Sprintf("+ %s in the other steps (--full shows them)",
			countPhrase(hidden, "finding", "findings"))))
	}
}

func hasCounting(ds []*analysis.Diagnostic, v verdictOptions) bool {
	for _, d := range ds {
		if v.counts(d) {
			return true
		}
	}
	return false
}

// step writes step n of an op: its state and title, then its findings
// (with Quiet, only those that fail it) and Step 6's commands or runs.
func (t *textWriter) step(o *opView, n int, ds []*analysis.Diagnostic) {
	s := o.res.Steps[n-1]
	st := o.steps[n-1]
	t.printf("  %d %s %s", n, t.stateWord(st, 7), StepTitles[n-1])
	switch {
	case s.Reason != "" && st == stateSkipped:
		t.printf(" -- skipped: %s", Clean(s.Reason))
	case s.Reason != "" && st == stateBlocked:
		t.printf(" -- blocked: %s", Clean(s.Reason))
	case s.Reason != "":
		t.printf(" -- %s", Clean(s.Reason))
	}
	t.printf("\n")
	var shown []*analysis.Diagnostic
	for _, d := range ds {
		if !t.opt.Quiet || t.v.counts(d) {
			shown = append(shown, d)
		}
	}
	t.diags("    ", shown, o.res.Name)
	if len(s.Runs) > 0 {
		for _, r := range s.Runs {
			if t.opt.Quiet && (r.Passed || r.Optional) {
				continue
			}
			t.printf("    $ %s: %s\n", Clean(r.Cmd), t.runVerdict(r))
			if !r.Passed && r.Tail != "" {
				for _, l := range strings.Split(r.Tail, "\n") {
					t.printf("      | %s\n", clean(l, true))
				}
			}
		}
	} else if st == stateNotRun {
		for _, c := range s.Commands {
			t.printf("    $ %s\n", Clean(c))
		}
	}
}

// runVerdict words the outcome of a verify command.
func (t *textWriter) runVerdict(r checker.CommandRun) string {
	if r.Passed {
		return t.color(ansiGreen, "pass")
	}
	c, word := ansiRed, "FAIL"
	if r.Optional {
		c, word = ansiYellow, "failed (optional)"
	}
	return t.color(c, word+" ("+runWhy(r)+")")
}

func runWhy(r checker.CommandRun) string {
	if r.Err != "" {
		return r.Err
	}
	return fmt.Sprintf("exit %d", r.ExitCode)
}

// opLine writes an op that does not fail on one line (Step 6 on a second
// when both do not fit in the width): its warnings and
// pre-existing errors counted per rule, its skipped steps, and Step 6:
// the commands still to run (but those every such op shares, written once
// after the ops), or the outcome of --verify.
func (t *textWriter) opLine(o *opView, shared []string) {
	var warns, pre, base []*analysis.Diagnostic
	for _, d := range o.diags {
		switch {
		case severity(d) == rules.Error && d.Baseline && !(t.opt.ChangeMode && d.PreExisting):
			base = append(base, d)
		case severity(d) == rules.Error:
			pre = append(pre, d)
		default:
			warns = append(warns, d)
		}
	}
	parts := []string{t.stateWord(statePass, 0)}
	if len(warns) > 0 {
		parts = append(parts, countPhrase(warns, "warning", "warnings"))
	}
	if len(pre) > 0 {
		parts = append(parts, countPhrase(pre, "pre-existing error", "pre-existing errors"))
	}
	if len(base) > 0 {
		parts = append(parts, countPhrase(base, "baselined error", "baselined errors"))
	}
	var skipped []string
	for i, s := range o.steps {
		if s == stateSkipped {
			skipped = append(skipped, fmt.Sprint(i+1))
		}
	}
	if len(skipped) > 0 {
		parts = append(parts, fmt.Sprintf("%s %s skipped", plural(len(skipped), "step", "steps"), strings.Join(skipped, ", ")))
	}
	if b := o.blockedSteps(); len(b) > 0 {
		parts = append(parts, fmt.Sprintf("%s %s blocked", plural(len(b), "step", "steps"), strings.Join(b, ", ")))
	}
	name := Clean(o.res.Name)
	line := strings.Join(parts, ", ")
	s6 := step6Phrase(o, shared)
	if s6 == "" {
		t.printf("%s: %s\n", t.color(ansiBold, name), line)
		return
	}
	s6 = "step 6: " + Clean(s6)
	if utf8.RuneCountInString(name+": "+stripANSI(line)+"; "+s6) <= t.opt.Width {
		t.printf("%s: %s; %s\n", t.color(ansiBold, name), line, s6)
		return
	}
	// Too long for one line: Step 6 below, a command a line.
	if s := o.res.Steps[5]; len(s.Runs) == 0 {
		t.printf("%s: %s; step 6:\n", t.color(ansiBold, name), line)
		skip := map[string]bool{}
		for _, c := range shared {
			skip[c] = true
		}
		for _, c := range s.Commands {
			if !skip[c] {
				t.printf("  $ %s\n", Clean(c))
			}
		}
		return
	}
	t.printf("%s: %s\n  %s\n", t.color(ansiBold, name), line, s6)
}

// step6Phrase is Step 6 in an op's line: the outcome of --verify ("pass
// (3 commands passed)", with the optional commands that failed as verify
// prints them), or the commands still to run.
func step6Phrase(o *opView, shared []string) string {
	s := o.res.Steps[5]
	if len(s.Runs) > 0 {
		var failed []string
		for _, r := range s.Runs {
			if !r.Passed {
				failed = append(failed, fmt.Sprintf("$ %s: failed (optional) (%s)", r.Cmd, runWhy(r)))
			}
		}
		if len(failed) == 0 {
			return fmt.Sprintf("pass (%d %s passed)", len(s.Runs), plural(len(s.Runs), "command", "commands"))
		}
		return fmt.Sprintf("pass (%d of %d commands passed; %s)", len(s.Runs)-len(failed), len(s.Runs), strings.Join(failed, "; "))
	}
	if o.steps[5] != stateNotRun {
		return ""
	}
	skip := map[string]bool{}
	for _, c := range shared {
		skip[c] = true
	}
	var cmds []string
	for _, c := range s.Commands {
		if !skip[c] {
			cmds = append(cmds, compactCommand(c))
		}
	}
	return strings.Join(cmds, ", ")
}

// compactCommand writes a command's "  # optional" note as "(optional)".
func compactCommand(c string) string {
	if cmd, ok := strings.CutSuffix(c, "# optional"); ok {
		return strings.TrimSpace(cmd) + " (optional)"
	}
	return c
}

// sharedCommands returns the Step 6 commands that every op written on one
// line shares (pre-commit run -a), when there are two such ops or more:
// they are written once, after the ops.
func sharedCommands(ops []*opView) []string {
	var shared []string
	n := 0
	for _, o := range ops {
		if o.fail || o.steps[5] != stateNotRun || len(o.res.Steps[5].Runs) > 0 {
			continue
		}
		cmds := o.res.Steps[5].Commands
		if n == 0 {
			shared = append([]string(nil), cmds...)
		} else {
			keep := shared[:0]
			for _, c := range shared {
				for _, d := range cmds {
					if c == d {
						keep = append(keep, c)
						break
					}
				}
			}
			shared = keep
		}
		n++
	}
	if n < 2 {
		return nil
	}
	return shared
}

// stripANSI removes the colour sequences of s.
func stripANSI(s string) string {
	for _, c := range []string{ansiRed, ansiGreen, ansiYellow, ansiDim, ansiBold, ansiReset} {
		s = strings.ReplaceAll(s, c, "")
	}
	return s
}

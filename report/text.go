// Package report writes a checker.Result for people and tools: text
// (WriteText), one JSON document (WriteJSON) and GitHub Actions annotations
// (WriteGitHub).
package report

import (
	"fmt"
	"github.com/tilegym/tilegym-lint/checker"
	"io"
	"strings"

	"github.com/tilegym/tilegym-lint/rules"
)

// StepTitles are the items of the workflow's checklist.
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
	// Full shows every op with its checklist; by default an op with no
	// finding takes one line.
	Full bool
	// Quiet shows only the ops with findings and the summary.
	Quiet bool
	// Color uses ANSI colours (only on a terminal, never with NO_COLOR).
	Color bool
	// ChangeMode marks pre-existing findings.
	ChangeMode bool
}

const (
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiDim    = "\x1b[2m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

type textWriter struct {
	w   io.Writer
	opt TextOptions
	err error
}

func (t *textWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

func (t *textWriter) color(c, s string) string {
	if !t.opt.Color {
		return s
	}
	return c + s + ansiReset
}

func statusWord(s checker.Status) string {
	switch s {
	case checker.StatusPass:
		return "pass"
	case checker.StatusFail:
		return "FAIL"
	case checker.StatusSkipped:
		return "skipped"
	case checker.StatusNotRun:
		return "not run"
	}
	return string(s)
}

func (t *textWriter) status(s checker.Status) string {
	return t.statusPadded(s, 0)
}

// statusPadded colours a status word padded to width.
func (t *textWriter) statusPadded(s checker.Status, width int) string {
	w := fmt.Sprintf("%-*s", width, statusWord(s))
	switch s {
	case checker.StatusPass:
		return t.color(ansiGreen, w)
	case checker.StatusFail:
		return t.color(ansiRed+ansiBold, w)
	case checker.StatusSkipped:
		return t.color(ansiYellow, w)
	}
	return t.color(ansiDim, w)
}

func (t *textWriter) diag(indent string, d checker.Diagnostic) {
	line := checker.FormatDiagnostic(d)
	if t.opt.ChangeMode && d.PreExisting {
		line += " [pre-existing]"
	}
	if d.Severity == rules.Error && !(t.opt.ChangeMode && d.PreExisting) {
		line = t.color(ansiRed, line)
	} else {
		line = t.color(ansiYellow, line)
	}
	t.printf("%s%s\n", indent, line)
}

// Counts returns the number of ops, failed ops, and error and warning
// findings of a result (pre-existing ones included).
func Counts(res *checker.Result) (ops, failed, errors, warnings int) {
	for i := range res.Ops {
		if res.Ops[i].Failed() {
			failed++
		}
	}
	for _, d := range res.Diagnostics {
		if d.Severity == rules.Error {
			errors++
		} else {
			warnings++
		}
	}
	return len(res.Ops), failed, errors, warnings
}

// WriteText writes the result for people: per op the workflow's checklist
// with a verdict per step and, under each step, its findings; then the
// findings of no op; then a summary line.
func WriteText(w io.Writer, res *checker.Result, opt TextOptions) error {
	t := &textWriter{w: w, opt: opt}
	byOp := map[string][]checker.Diagnostic{}
	var other []checker.Diagnostic
	known := map[string]bool{}
	for _, o := range res.Ops {
		known[o.Name] = true
	}
	for _, d := range res.Diagnostics {
		if d.Op != "" && known[d.Op] {
			byOp[d.Op] = append(byOp[d.Op], d)
		} else {
			other = append(other, d)
		}
	}
	for i := range res.Ops {
		o := &res.Ops[i]
		ds := byOp[o.Name]
		verdict := "pass"
		if o.Failed() {
			verdict = "FAIL"
		}
		if len(ds) == 0 && !opt.Full {
			if opt.Quiet {
				continue
			}
			var notes []string
			for _, s := range o.Steps {
				if s.Status == checker.StatusSkipped {
					notes = append(notes, fmt.Sprintf("step %d skipped", s.Step))
				}
			}
			if o.Steps[5].Status == checker.StatusNotRun {
				notes = append(notes, "step 6 not run")
			}
			t.printf("%s: %s (%s)\n", t.color(ansiBold, o.Name), t.status(checker.StatusPass), strings.Join(notes, ", "))
			continue
		}
		if verdict == "FAIL" {
			t.printf("%s: %s\n", t.color(ansiBold, o.Name), t.status(checker.StatusFail))
		} else {
			t.printf("%s: %s\n", t.color(ansiBold, o.Name), t.status(checker.StatusPass))
		}
		for _, s := range o.Steps {
			t.printf("  %d %s %s", s.Step, t.statusPadded(s.Status, 7), StepTitles[s.Step-1])
			if s.Reason != "" && s.Status == checker.StatusSkipped {
				t.printf(" -- skipped: %s", s.Reason)
			} else if s.Reason != "" {
				t.printf(" -- %s", s.Reason)
			}
			t.printf("\n")
			for _, d := range ds {
				if d.Rule.Step == s.Step {
					t.diag("      ", d)
				}
			}
			if len(s.Runs) > 0 {
				for _, r := range s.Runs {
					verdict := t.color(ansiGreen, "pass")
					if !r.Passed {
						why := fmt.Sprintf("exit %d", r.ExitCode)
						if r.Err != "" {
							why = r.Err
						}
						c := ansiRed
						word := "FAIL"
						if r.Optional {
							c, word = ansiYellow, "failed (optional)"
						}
						verdict = t.color(c, word+" ("+why+")")
					}
					t.printf("      $ %s: %s\n", r.Cmd, verdict)
					if !r.Passed && r.Tail != "" {
						for _, l := range strings.Split(r.Tail, "\n") {
							t.printf("        | %s\n", l)
						}
					}
				}
			} else if s.Status == checker.StatusNotRun {
				for _, c := range s.Commands {
					t.printf("      $ %s\n", c)
				}
			}
		}
		var cross []checker.Diagnostic
		for _, d := range ds {
			if d.Rule.Step < 1 || d.Rule.Step > 6 {
				cross = append(cross, d)
			}
		}
		if len(cross) > 0 {
			t.printf("  across steps\n")
			for _, d := range cross {
				t.diag("      ", d)
			}
		}
	}
	if len(other) > 0 {
		t.printf("%s\n", t.color(ansiBold, "findings of no op:"))
		for _, d := range other {
			t.diag("  ", d)
		}
	}
	ops, failed, errs, warns := Counts(res)
	pre := 0
	for _, d := range res.Diagnostics {
		if d.PreExisting {
			pre++
		}
	}
	if opt.ChangeMode {
		t.printf("%d ops, %d failed, %d errors, %d warnings (%d findings pre-existing)\n", ops, failed, errs, warns, pre)
	} else {
		t.printf("%d ops, %d failed, %d errors, %d warnings\n", ops, failed, errs, warns)
	}
	return t.err
}

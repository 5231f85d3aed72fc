package report

import (
	"io"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
)

// WriteChecklist writes, per op, the workflow's checklist as the skill
// words it ("- [x] Step 1: Register dispatch interface in ops.py"), for a
// coding agent that keeps it as its TODO list: "[x]" for a step that
// passes or is skipped (with its written reason, as the skill asks for a
// step that does not apply), "[ ]" for a step still to do, with its
// findings (and how to fix them) indented below; Step 6, until --verify
// has run it, with its commands. Then the findings of no op and the
// summary line. Lines are not wrapped.
//
// The ops in notStarted (named with --op, not in the checkout yet) come
// after the others, each with its six steps unchecked: the workflow's
// first rule is to write the checklist before any code. They count as
// failed ops.
func WriteChecklist(w io.Writer, res *checker.Result, opt TextOptions, notStarted ...NewOp) error {
	opt.Color, opt.Width = false, 1<<30
	t := newTextWriter(w, opt)
	ops, other := views(res, t.v)
	failed := 0
	for i, o := range ops {
		if i > 0 {
			t.printf("\n")
		}
		word := "pass"
		if o.fail {
			word = "FAIL"
			failed++
		}
		t.printf("%s: %s\n", Clean(o.res.Name), word)
		for n := 1; n <= 6; n++ {
			t.checkItem(o, n)
		}
		if cross := o.stepDiags(0); len(cross) > 0 {
			t.printf("- across steps:\n")
			for _, d := range cross {
				t.item(d, o.res.Name)
			}
		}
	}
	for i, n := range notStarted {
		if i > 0 || len(ops) > 0 {
			t.printf("\n")
		}
		t.newOp(n)
	}
	if len(other) > 0 {
		t.printf("\nfindings of no op:\n")
		for _, d := range other {
			t.item(d, "")
		}
	}
	if len(ops) > 0 || len(other) > 0 || len(notStarted) > 0 {
		t.printf("\n")
	}
	t.summaryOf(res, len(res.Ops)+len(notStarted), failed+len(notStarted))
	return t.done()
}

// NewOp is an op named on the command line that the checkout does not
// have yet.
type NewOp struct {
	Name    string // as named: "my_op", "liger.my_op"
	Suite   string // "" for a core op
	Func    string // the op's function name
	Similar string // an existing op with a close name, if any
}

// newOp writes the checklist of an op not started yet: six unchecked
// steps, and how to start.
func (t *textWriter) newOp(n NewOp) {
	cmd := "tilegym-lint new " + n.Func
	if n.Suite != "" {
		cmd = "tilegym-lint new --suite " + n.Suite + " " + n.Func
	}
	t.printf("%s: FAIL (not started: the checkout has no op %s yet", Clean(n.Name), Clean(n.Name))
	if n.Similar != "" {
		t.printf("; did you mean %s?", Clean(n.Similar))
	}
	t.printf(")\n")
	for i, title := range StepTitles {
		t.printf("- [ ] Step %d: %s\n", i+1, title)
		if i == 0 {
			t.printf("  → write the dispatch stub, or run `%s` to scaffold Steps 1-5\n", Clean(cmd))
		}
	}
}

// checkItem writes step n of an op as a checklist item.
func (t *textWriter) checkItem(o *opView, n int) {
	s := o.res.Steps[n-1]
	st := o.steps[n-1]
	box := " "
	if st == statePass || st == stateSkipped {
		box = "x"
	}
	t.printf("- [%s] Step %d: %s", box, n, StepTitles[n-1])
	switch {
	case st == stateSkipped:
		t.printf(" (skipped: %s)", Clean(s.Reason))
	case st == statePreExisting:
		t.printf(" (failing before this change)")
	case st == stateBaselined:
		t.printf(" (failing, recorded in the baseline)")
	case st == stateBlocked:
		t.printf(" (blocked: %s)", Clean(s.Reason))
	case s.Reason != "":
		t.printf(" (%s)", Clean(s.Reason))
	}
	t.printf("\n")
	for _, d := range o.stepDiags(n) {
		t.item(d, o.res.Name)
	}
	if len(s.Runs) > 0 {
		for _, r := range s.Runs {
			verdict := "pass"
			if !r.Passed {
				verdict = "FAIL (" + runWhy(r) + ")"
				if r.Optional {
					verdict = "failed (optional) (" + runWhy(r) + ")"
				}
			}
			t.printf("  - ran `%s`: %s\n", Clean(r.Cmd), verdict)
		}
	} else if st == stateNotRun {
		for _, c := range s.Commands {
			t.printf("  - run `%s`\n", Clean(c))
		}
	}
}

// item writes a finding as a nested item, how to fix it below.
func (t *textWriter) item(d *analysis.Diagnostic, op string) {
	what, fix := SplitMessage(d.Rule, d.Message)
	if op != "" {
		what = trimOp(what, op)
	}
	sev := ""
	if severity(d) != "error" {
		sev = " (" + string(severity(d)) + ")"
	}
	if t.opt.ChangeMode && d.PreExisting {
		sev += " (pre-existing)"
	}
	if d.Baseline {
		sev += " (baselined)"
	}
	mark := ""
	if Fixable(d) {
		mark = " " + FixMark
	}
	t.printf("  - %s:%d:%d: %s%s%s %s\n", Clean(d.File), d.Pos.Line, d.Pos.Col+1, d.Rule.ID, mark, sev, Clean(what))
	if fix != "" {
		t.printf("    → %s\n", Clean(fix))
	}
}

func trimOp(msg, op string) string {
	if len(msg) > len(op)+2 && msg[:len(op)] == op && msg[len(op):len(op)+2] == ": " {
		return msg[len(op)+2:]
	}
	return msg
}

package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/rules"
)

// GitHub shows at most this many annotations of each level per step; the
// rest are dropped.
const (
	GitHubMaxErrors   = 10
	GitHubMaxWarnings = 10
)

// AnnotationOptions say which findings become annotations.
type AnnotationOptions struct {
	Options
	// MaxErrors and MaxWarnings bound the error and warning annotations
	// (0: no bound). When findings are left out, a notice says how many
	// and where they are listed.
	MaxErrors, MaxWarnings int
	// NewOnly leaves pre-existing findings of change mode and baselined
	// ones out; otherwise they are notices.
	NewOnly bool
	// Elsewhere, with bounds, names where the findings left out are listed
	// ("the job summary and the log").
	Elsewhere string
}

// WriteAnnotations writes findings as GitHub Actions workflow commands
// (::error file=...,line=...::message), which GitHub shows on the pull
// request's lines. Errors come first, then warnings, then notices
// (pre-existing findings). Within the bounds, findings are chosen round
// robin over the ops, so that every failing op gets its first error shown
// before any op gets its second.
func WriteAnnotations(w io.Writer, res *checker.Result, opt AnnotationOptions) error {
	var errs, warns, notes []*analysis.Diagnostic
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		switch {
		case opt.ChangeMode && d.PreExisting, d.Baseline:
			if !opt.NewOnly {
				notes = append(notes, d)
			}
		case severity(d) == rules.Error:
			errs = append(errs, d)
		default:
			warns = append(warns, d)
		}
	}
	errs, leftE := choose(errs, opt.MaxErrors)
	warns, leftW := choose(warns, opt.MaxWarnings)
	lw, flush := logWriter(w)
	var err error
	command := func(line string) {
		if err == nil {
			err = lw.command(line)
		}
	}
	for _, group := range []struct {
		level string
		ds    []*analysis.Diagnostic
	}{{"error", errs}, {"warning", warns}, {"notice", notes}} {
		for _, d := range group.ds {
			title := d.Rule.ID + " " + d.Rule.Title
			if d.Op != "" {
				title = fmt.Sprintf("%s (op %s, step %d)", title, d.Op, d.Rule.Step)
			} else if d.Subject != "" {
				title = fmt.Sprintf("%s (%s)", title, d.Subject)
			}
			if d.PreExisting {
				title += " [pre-existing]"
			}
			if d.Baseline {
				title += " [baselined]"
			}
			if Fixable(d) {
				title += " [fixable with tilegym-lint --fix]"
			}
			var b strings.Builder
			fmt.Fprintf(&b, "::%s file=%s,line=%d", group.level, annotationProperty(opt.repoPath(d.File)), max(d.Pos.Line, 1))
			if d.Pos.Line > 0 {
				fmt.Fprintf(&b, ",col=%d", d.Pos.Col+1)
				if d.End.Line >= d.Pos.Line {
					fmt.Fprintf(&b, ",endLine=%d", d.End.Line)
					if d.End.Line == d.Pos.Line && d.End.Col > d.Pos.Col {
						fmt.Fprintf(&b, ",endColumn=%d", d.End.Col+1)
					}
				}
			}
			fmt.Fprintf(&b, ",title=%s::%s", annotationProperty(title), annotationData(d.Message))
			command(b.String())
		}
	}
	if left := leftE + leftW; left > 0 {
		where := opt.Elsewhere
		if where == "" {
			where = "the log"
		}
		command("::notice title=tilegym-lint::" + annotationData(fmt.Sprintf(
			"%d more %s (%d errors, %d warnings) than GitHub shows as annotations: see %s",
			left, plural(left, "finding", "findings"), leftE, leftW, where)))
	}
	if ferr := flush(); err == nil {
		err = ferr
	}
	return err
}

// choose returns at most n findings (all when n is 0), taken round robin
// over the ops in the order they first appear, and how many it left out. A
// finding of another family (K, A, ...) takes its subject's turn (a kernel,
// a function, a file), as an op's finding takes the op's.
func choose(ds []*analysis.Diagnostic, n int) ([]*analysis.Diagnostic, int) {
	if n <= 0 || len(ds) <= n {
		return ds, 0
	}
	var order []string
	byOp := map[string][]*analysis.Diagnostic{}
	for _, d := range ds {
		key := d.Op
		if key == "" && familyOf(d.Rule) != rules.TG {
			key = "\x00" + familyOf(d.Rule) + "\x00" + d.Subject
		}
		if _, ok := byOp[key]; !ok {
			order = append(order, key)
		}
		byOp[key] = append(byOp[key], d)
	}
	picked := map[*analysis.Diagnostic]bool{}
	for round := 0; len(picked) < n; round++ {
		for _, op := range order {
			if round < len(byOp[op]) && len(picked) < n {
				picked[byOp[op][round]] = true
			}
		}
	}
	out := make([]*analysis.Diagnostic, 0, n)
	for _, d := range ds { // in file order
		if picked[d] {
			out = append(out, d)
		}
	}
	return out, len(ds) - len(out)
}

// annotationData escapes a workflow command's message: GitHub decodes
// %25, %0D and %0A; other control characters (a tab or an escape in a file
// name) are written as Go escapes, so that they cannot drive the log.
func annotationData(s string) string {
	return Clean(strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s))
}

// annotationProperty escapes a workflow command's property value, as
// annotationData and also ":" and ",".
func annotationProperty(s string) string {
	return Clean(strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s))
}

// WriteNotice writes a GitHub Actions notice of tilegym-lint (shown in the
// log and as an annotation of the run), through a LogWriter.
func WriteNotice(w io.Writer, msg string) error {
	lw, flush := logWriter(w)
	err := lw.command("::notice title=tilegym-lint::" + annotationData(msg))
	if ferr := flush(); err == nil {
		err = ferr
	}
	return err
}

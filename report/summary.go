package report

import (
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"unicode"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/rules"
)

// SummaryOptions add to Options what the Markdown summary says.
type SummaryOptions struct {
	Options
	// BlobURL, when not empty, is the URL a repository path is appended to
	// to view the file at the checked commit, ending in "/"
	// (https://github.com/OWNER/REPO/blob/SHA/); findings then link to
	// their lines.
	BlobURL string
	// Compared says, in change mode, what the change was compared with
	// ("origin/main (merge base 1234abc)").
	Compared string
	// MaxFindings bounds the findings listed per op (0: no bound), to keep
	// the summary within what a CI page shows (GitHub takes 1 MiB per step).
	MaxFindings int
}

// summaryStatus is a step verdict in the summary's tables.
func summaryStatus(s checker.Status) string {
	switch s {
	case checker.StatusPass:
		return "✅ pass"
	case checker.StatusFail:
		return "❌ **fail**"
	case checker.StatusSkipped:
		return "⏭️ skipped"
	case checker.StatusNotRun:
		return "⏸️ not run"
	}
	return string(s)
}

// WriteSummary writes the result as Markdown for a CI job's summary page
// ($GITHUB_STEP_SUMMARY): a headline with the counts, then per op with a
// finding the six steps with their verdicts and the op's findings, each
// linking to its line; the ops without a finding in one line; the findings
// of no op; last the other families' findings, by family and subject.
func WriteSummary(w io.Writer, res *checker.Result, cat *rules.Catalog, opt SummaryOptions) error {
	var b strings.Builder
	byOp := map[string][]*analysis.Diagnostic{}
	var failing, errs, warns, pre, base int
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		byOp[d.Op] = append(byOp[d.Op], d)
		if fails(d, opt.ChangeMode) {
			failing++
		}
		if severity(d) == rules.Error {
			errs++
		} else {
			warns++
		}
		if opt.ChangeMode && d.PreExisting {
			pre++
		}
		if d.Baseline {
			base++
		}
	}
	// An op fails as the text output says: with an error that counts (not
	// baselined, not pre-existing).
	views, _ := views(res, verdictOptions{changeMode: opt.ChangeMode})
	opFails := map[string]bool{}
	failedOps := 0
	for _, o := range views {
		if o.fail {
			opFails[o.res.Name] = true
			failedOps++
		}
	}
	verdict := "✅ passed"
	if failing > 0 {
		verdict = "❌ failed"
	}
	fmt.Fprintf(&b, "## tilegym-lint: %s\n\n", verdict)
	what := "ops"
	if opt.ChangeMode {
		what = "ops touched by the change"
	}
	fmt.Fprintf(&b, "%d %s, %d failed, %d errors, %d warnings", len(res.Ops), what, failedOps, errs, warns)
	if opt.ChangeMode {
		fmt.Fprintf(&b, " (%d pre-existing: the base already had them, they do not fail the run)", pre)
	}
	if base > 0 {
		fmt.Fprintf(&b, " (%d baselined: the baseline records them, they do not fail the run)", base)
	}
	b.WriteString(".\n\n")
	if n, cmd := fixable(res, opt.ChangeMode); n > 0 {
		// The command as code (the op names in it escaped by mdCode).
		fmt.Fprintf(&b, "%d fixable with %s %s.\n\n", n, mdCode(cmd), mdText("(marked "+FixMark+")"))
	}
	if opt.Compared != "" {
		fmt.Fprintf(&b, "Compared with %s.\n\n", mdText(opt.Compared))
	}
	var clean []string
	for i := range res.Ops {
		o := &res.Ops[i]
		if len(byOp[o.Name]) == 0 && !opFails[o.Name] {
			clean = append(clean, o.Name)
			continue
		}
		status := "pass"
		if opFails[o.Name] {
			status = "FAIL"
		}
		fmt.Fprintf(&b, "### %s: %s\n\n", mdCode(o.Name), status)
		b.WriteString("| Step | | Verdict |\n|---|---|---|\n")
		for _, s := range o.Steps {
			title := ""
			if s.Step >= 1 && s.Step <= len(StepTitles) {
				title = StepTitles[s.Step-1]
			}
			v := summaryStatus(s.Status)
			if s.Reason != "" {
				v += ": " + mdText(s.Reason)
			}
			fmt.Fprintf(&b, "| %d | %s | %s |\n", s.Step, mdText(title), v)
		}
		b.WriteString("\n")
		opt.findings(&b, byOp[o.Name])
		if cmds := o.Steps[5].Commands; len(cmds) > 0 && o.Steps[5].Status == checker.StatusNotRun {
			fence := mdFence(cmds)
			b.WriteString("<details><summary>Step 6: verify locally</summary>\n\n" + fence + "sh\n")
			for _, c := range cmds {
				b.WriteString(Clean(c) + "\n")
			}
			b.WriteString(fence + "\n\n</details>\n\n")
		}
	}
	if len(clean) > 0 {
		sort.Strings(clean)
		fmt.Fprintf(&b, "No findings: %s.\n\n", strings.Join(backquote(clean), ", "))
	}
	var noOp, fam []*analysis.Diagnostic
	for _, d := range byOp[""] {
		if familyOf(d.Rule) == rules.TG {
			noOp = append(noOp, d)
		} else {
			fam = append(fam, d)
		}
	}
	if len(noOp) > 0 {
		b.WriteString("### Findings of no op\n\n")
		opt.findings(&b, noOp)
	}
	opt.families(&b, fam, cat)
	if len(res.Ops) == 0 && len(res.Diagnostics) == 0 {
		b.WriteString("Nothing to check: no op is touched.\n\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fails(d *analysis.Diagnostic, changeMode bool) bool {
	return severity(d) == rules.Error && !d.Baseline && !(changeMode && d.PreExisting)
}

// families lists the findings of the families without steps (the other
// skills' rules) as the text output does: a heading per family (in the
// order of their prefixes), then per subject (the kernel, function or file)
// its findings.
func (o *SummaryOptions) families(b *strings.Builder, ds []*analysis.Diagnostic, cat *rules.Catalog) {
	fams, byFam := groupSorted(ds, func(d *analysis.Diagnostic) string { return familyOf(d.Rule) })
	for _, f := range fams {
		head := "Family " + f
		if fm := catFamily(cat, f); fm != nil && fm.Name != "" {
			head += ": " + fm.Name
		}
		fmt.Fprintf(b, "### %s\n\n", mdText(head))
		subjects, bySubject := groupBySubject(byFam[f])
		for _, s := range subjects {
			fmt.Fprintf(b, "%s\n\n", mdCode(s))
			o.findings(b, bySubject[s])
		}
	}
}

func catFamily(cat *rules.Catalog, prefix string) *rules.Family {
	if cat == nil {
		return nil
	}
	return cat.Family(prefix)
}

// findings lists findings, failing ones first, each with a link to its line.
func (o *SummaryOptions) findings(b *strings.Builder, ds []*analysis.Diagnostic) {
	if len(ds) == 0 {
		return
	}
	sorted := append([]*analysis.Diagnostic(nil), ds...)
	sort.SliceStable(sorted, func(i, j int) bool {
		return fails(sorted[i], o.ChangeMode) && !fails(sorted[j], o.ChangeMode)
	})
	for i, d := range sorted {
		if o.MaxFindings > 0 && i == o.MaxFindings {
			fmt.Fprintf(b, "- … and %d more (see the log)\n", len(sorted)-i)
			break
		}
		p := o.repoPath(d.File)
		loc := fmt.Sprintf("%s:%d", p, d.Pos.Line)
		if o.BlobURL != "" {
			loc = fmt.Sprintf("[%s](%s%s#L%d)", mdText(loc), o.BlobURL, escapePath(p), d.Pos.Line)
		} else {
			loc = mdCode(loc)
		}
		sev := string(severity(d))
		if d.PreExisting {
			sev += ", pre-existing"
		}
		if d.Baseline {
			sev += ", baselined"
		}
		if Fixable(d) {
			sev += ", fixable with `tilegym-lint --fix`"
		}
		if familyOf(d.Rule) == rules.TG {
			sev += fmt.Sprintf(", step %d", d.Rule.Step)
		}
		fmt.Fprintf(b, "- **%s** (%s) %s: %s\n", d.Rule.ID, sev, loc, mdText(d.Message))
	}
	b.WriteString("\n")
}

// The summary is CommonMark (GitHub's flavour), and every string in it
// from the repository (op names, paths, messages, reasons, commands) is
// written so that it renders as its own text: no heading, list, table
// cell, link, image, HTML or comment of its own, on its own line.

// mdText writes text for Markdown: Clean'ed (no line end, "\r" included,
// no invisible character), then every ASCII punctuation character
// backslash-escaped, which CommonMark reads as that character, literally
// (a '|' too, in a table cell).
func mdText(s string) string {
	s = Clean(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && unicode.IsPunct(rune(c)) || c < 0x80 && unicode.IsSymbol(rune(c)) {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// mdCode writes text as a code span: Clean'ed, between backtick strings
// longer than any run of backticks in it, padded with a space when it
// starts or ends with a backtick or a space (which CommonMark would
// otherwise take or strip). Not for a table cell, where '|' would end the
// span's cell.
func mdCode(s string) string {
	s = Clean(s)
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if s == "" || s[0] == '`' || s[0] == ' ' || s[len(s)-1] == '`' || s[len(s)-1] == ' ' {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// mdFence is a code fence longer than any run of backticks in lines.
func mdFence(lines []string) string {
	n := 2
	for _, l := range lines {
		n = max(n, longestRun(l, '`'))
	}
	return strings.Repeat("`", n+1)
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

func backquote(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = mdCode(n)
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

package checker

import (
	"fmt"
	"strings"
)

// dump is a result as text holding everything the reporters print (the
// reporters are in package report, above this one): every op's steps with
// status, reason, commands and runs, and every diagnostic with its rule,
// op, severity, positions, message, related positions and, in change mode,
// whether it is pre-existing.
func dump(res *Result, changeMode bool) string {
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
		if changeMode {
			fmt.Fprintf(&b, " pre_existing=%v", d.PreExisting)
		}
		for _, r := range d.Related {
			fmt.Fprintf(&b, " related=%s:%d:%d-%d:%d %q", r.File, r.Pos.Line, r.Pos.Col, r.End.Line, r.End.Col, r.Message)
		}
		b.WriteString("\n")
	}
	return b.String()
}

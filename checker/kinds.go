package checker

import (
	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
)

// noKind is the kind of a finding whose rule names no registered kind (a
// plan refuses such a rule): none of the properties.
var noKind = &checks.Analyzer{}

// KindOf returns the check kind of a finding's rule, whose properties
// (ParseErrors, Suppressions, Undeclared) say what the driver and change
// mode do with the finding beyond reporting it.
func KindOf(d analysis.Diagnostic) *checks.Analyzer {
	if d.Rule != nil {
		if a := checks.Kind(d.Rule.Kind); a != nil {
			return a
		}
	}
	return noKind
}

package report

import (
	"sort"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/rules"
)

// familyOf returns the prefix of a rule's family: TG for a rule made
// without a catalog.
func familyOf(r *rules.Rule) string {
	if r.Family == "" {
		return rules.TG
	}
	return r.Family
}

// families writes the findings of the families without steps (the other
// skills' rules), after the per-op report of TG: by family (in the order of
// their prefixes), then by subject, each finding as under an op.
func (t *textWriter) families(ds []*analysis.Diagnostic) {
	if len(ds) == 0 {
		return
	}
	byFam := map[string][]*analysis.Diagnostic{}
	for _, d := range ds {
		byFam[familyOf(d.Rule)] = append(byFam[familyOf(d.Rule)], d)
	}
	fams := make([]string, 0, len(byFam))
	for f := range byFam {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		list := byFam[f]
		t.printf("%s %s\n", t.color(ansiBold, "family "+f+":"), countPhrase(list, "finding", "findings"))
		subjects, bySubject := groupBySubject(list)
		for _, s := range subjects {
			t.printf("  %s\n", t.color(ansiBold, Clean(s)))
			t.diags("    ", bySubject[s], s)
		}
	}
}

// groupBySubject groups a family's findings by subject (their file when
// they have none) and returns the subjects sorted.
func groupBySubject(list []*analysis.Diagnostic) ([]string, map[string][]*analysis.Diagnostic) {
	bySubject := map[string][]*analysis.Diagnostic{}
	var subjects []string
	for _, d := range list {
		s := d.Subject
		if s == "" {
			s = d.File
		}
		if _, ok := bySubject[s]; !ok {
			subjects = append(subjects, s)
		}
		bySubject[s] = append(bySubject[s], d)
	}
	sort.Strings(subjects)
	return subjects, bySubject
}

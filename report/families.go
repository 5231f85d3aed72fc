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
	fams, byFam := groupSorted(ds, func(d *analysis.Diagnostic) string { return familyOf(d.Rule) })
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
	return groupSorted(list, func(d *analysis.Diagnostic) string {
		if d.Subject != "" {
			return d.Subject
		}
		return d.File
	})
}

// groupSorted groups findings by key, each group in the findings' order,
// and returns the keys sorted.
func groupSorted(ds []*analysis.Diagnostic, key func(*analysis.Diagnostic) string) ([]string, map[string][]*analysis.Diagnostic) {
	groups := map[string][]*analysis.Diagnostic{}
	var keys []string
	for _, d := range ds {
		k := key(d)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], d)
	}
	sort.Strings(keys)
	return keys, groups
}

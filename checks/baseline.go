package checks

// BaselineAnalyzer implements kind "baseline".
var BaselineAnalyzer = &Analyzer{
	Name:         "baseline",
	Placeholders: []string{"op", "file", "entry", "problem", "baseline"},
	Doc: `Reports baseline entries that match no finding any more.

The kind only declares the rule and its placeholders: after the check,
package baseline matches the entries of the baseline file with the findings
(as change mode matches them: the same identity, then the same rule, op and
file) and reports, on its line of the baseline file, each entry the check
covered (its rule enabled, its op checked) that matched no finding or fewer
than its count. Placeholders: {entry} (rule, op and file of the entry),
{problem} (what is left of it), {baseline} (the file's path).`,
	Run: func(*Pass) (any, error) { return nil, nil },
}

package checks

// BaselineAnalyzer implements kind "baseline": the findings about the
// baseline file's own entries. The command line computes them (it alone
// reads the baseline, after the check); the analyzer only declares the
// kind.
var BaselineAnalyzer = &Analyzer{
	Name:         "baseline",
	Placeholders: []string{"op", "file", "entry", "problem", "baseline"},
	Doc: `Reports baseline entries that match no finding any more.

A baseline (tilegym-lint --write-baseline FILE, then --baseline FILE or the
configuration's baseline key) records the findings a repository had when it
adopted tilegym-lint: they are reported as baselined and do not fail the run.
An entry no finding matches any more (the finding was fixed) is reported,
on its line of the baseline file, so that the file shrinks as the debt is
paid. Placeholders: {entry} (rule, op and file of the entry), {problem}
("matches no finding any more", or how many of the findings it counts are
left), {baseline} (the file's path).`,
	Run: func(*Pass) (any, error) { return nil, nil },
}

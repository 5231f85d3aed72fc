package optable

import "github.com/tilegym/tilegym-lint/analysis"

// OpTableAnalyzer builds the OpTable, the shared index of ops every check
// kind requires.
var OpTableAnalyzer = &analysis.Analyzer[*Repo]{
	Name: "optable",
	Doc: `optable indexes the ops of the repository.

It finds every @dispatch("<op>") stub in the layout's dispatch files, every
register_impl("<op>", backend=...) site (decorator or call form) in any file,
every cuTile package __init__.py, the tests and benchmarks of each op, and the
written decisions to skip a step (# tilegym-lint: skip-step=N reason="...").`,
	Run: runOpTable,
}

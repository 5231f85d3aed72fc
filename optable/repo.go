package optable

import (
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/source"
)

// Repo is the checked repository as the checks see it: a snapshot of the
// Python files its layout puts in scope (read from disk or from a git
// revision; analyzers never touch the file system), with that layout and the
// configuration's written skips. It is the unit an analysis.Pass analyzes.
type Repo struct {
	source.Snapshot
	Layout *layout.Layout // where dispatch files, cuTile modules, tests and benchmarks live
	// ConfigSkips are the written skips of the configuration's [skip]
	// table, by op name; the op table adds them to each Op's Skips.
	ConfigSkips map[string][]Skip

	// Table is the op table of these files when it was built while
	// loading them (load.Loader.Load); the optable analyzer then returns it.
	Table *OpTable
	// Wrappers are the public wrappers of each op by name, when known
	// (load.Loader.Load: the interface modules, which define them, are parsed
	// first and stay the same); the op table then takes them.
	Wrappers map[string][]string

	roots *rootsMemo // see findCuTileRoots
}

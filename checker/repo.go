package checker

import (
	"sort"

	"github.com/tilegym/tilegym-lint/layout"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// Repo is a snapshot of the checked repository: the Python files that the
// layout puts in scope, parsed. A snapshot is read from disk or from a git
// revision (for change mode); analyzers never touch the file system.
type Repo struct {
	Root   string           // the checked root as given (for display)
	Layout *layout.Layout   // where dispatch files, cuTile modules, tests and benchmarks live
	Files  map[string]*File // by slash path relative to Root
	// Paths are the paths of the files in scope, sorted: the keys of Files,
	// except in a check of some ops (CheckSource with Options.Ops), which
	// reads and parses only the files those ops need.
	Paths []string
	// ConfigSkips are the written skips of the configuration's [skip]
	// table, by op name; the op table adds them to each Op's Skips.
	ConfigSkips map[string][]Skip

	// table is the op table of these files when it was built while
	// loading them (LoadForOps); the optable analyzer then returns it.
	table *OpTable
	// wrappers are the public wrappers of each op by name, when known
	// (LoadForOps: the interface modules, which define them, are parsed
	// first and stay the same); the op table then takes them.
	wrappers map[string][]string
}

// File is one Python file of the snapshot.
type File struct {
	Path string // slash path relative to the repository root
	Src  []byte
	AST  *ast.File // nil when the file does not parse
	Err  error     // the parse error, if any (a *parser.Error)

	memo fileMemo // facts derived from AST, computed once (see memo.go)
}

// HasPath reports whether the snapshot has a file in scope at a slash path,
// read or not (a check of some ops reads only the files they need).
func (r *Repo) HasPath(p string) bool {
	i := sort.SearchStrings(r.Paths, p)
	return i < len(r.Paths) && r.Paths[i] == p
}

// File returns the file at a slash path, or nil.
func (r *Repo) File(path string) *File { return r.Files[path] }

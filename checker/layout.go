package checker

// Layout says where the parts of each op live. Its defaults come from the
// [layout] table of rules.toml; a project's configuration overrides it.
// Paths are slash globs relative to the repository root; "{suite}" binds a
// path segment to the suite name and "**" matches any number of segments.
type Layout struct {
	Scopes []*Scope
	// Exclude lists globs of paths that are never read.
	Exclude []string
	// Include lists globs of further files read besides the scopes' own
	// (other backends' modules, whose register_impl sites S2.4 checks).
	Include []string
	// Names are the Python names the op table recognizes (the dispatch and
	// register_impl decorators, the backend-availability check); nil means
	// DefaultNames().
	Names *Names
}

// Names are the fully qualified Python names and literals the op table
// recognizes. Each name is matched after resolving the file's imports, so
// `from tilegym.backend import dispatch` and `import tilegym.backend` both
// reach "tilegym.backend.dispatch".
type Names struct {
	Dispatch         []string // the @dispatch decorator
	RegisterImpl     []string // register_impl
	BackendAvailable []string // is_backend_available
	CuTileBackend    string   // the backend name of cuTile: "cutile"
	// Directive is the comment prefix of lint directives: "tilegym-lint:".
	Directive string
}

// Scope is one family of ops that share dispatch files and trees: the core
// ops of src/tilegym/ops, or each suite under src/tilegym/suites/{suite}.
type Scope struct {
	Name string // "core", "suites"
	// Dispatch lists the files holding @dispatch stubs.
	Dispatch []string
	// Namespace is the prefix dispatch names carry in this scope, e.g.
	// "{suite}" for "liger.jsd"; "" for none.
	Namespace string
	// CuTile is the root of the cuTile package (its __init__.py registers the modules).
	CuTile string
	// Tests and Benchmarks are globs of the test and benchmark files.
	Tests      []string
	Benchmarks []string
	// API lists the public modules through which tests and benchmarks reach
	// the ops ("tilegym.ops", "tilegym.suites.{suite}"); empty means the
	// modules of the dispatch files and their packages.
	API []string
}

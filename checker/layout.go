package checker

// Layout says where the parts of each op live. Its defaults come from the
// [layout] table of rules.toml; a project's configuration overrides it.
// Paths are slash globs relative to the repository root; "{suite}" binds a
// path segment to the suite name and "**" matches any number of segments.
type Layout struct {
	Scopes []*Scope
	// Exclude lists globs of paths that are never read.
	Exclude []string
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
}

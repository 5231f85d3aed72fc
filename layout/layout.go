// Package layout says where the parts of each op live in a TileGym
// checkout: its scopes (the core ops, each suite), their dispatch files,
// cuTile package, tests and benchmarks, as slash globs, and the Python names
// of the dispatcher API. The catalog's [layout] table, a configuration's and
// the layout a check uses are one type (Layout.Override merges them).
package layout

import "slices"

// Layout says where the parts of each op live. Its defaults come from the
// [layout] table of rules.toml; a project's configuration overrides it.
// Paths are slash globs relative to the repository root; "{suite}" binds a
// path segment to the suite name and "**" matches any number of segments.
//
// The same types hold the [layout] table of rules.toml and of a project's
// configuration (toml keys in the tags), and the layout a check uses: the
// catalog's overridden by the configuration's (Override).
type Layout struct {
	Scopes []*Scope `toml:"scope"`
	// Exclude lists globs of paths that are never read.
	Exclude []string `toml:"exclude"`
	// Include lists globs of further files read besides the scopes' own
	// (other backends' modules, whose register_impl sites S2.4 checks).
	Include []string `toml:"include"`
	// Names are the Python names the op table recognizes (the dispatch and
	// register_impl decorators, the backend-availability check); nil means
	// DefaultNames().
	Names *Names `toml:"names"`
}

// Names are the fully qualified Python names and literals the op table
// recognizes. Each name is matched after resolving the file's imports, so
// `from tilegym.backend import dispatch` and `import tilegym.backend` both
// reach "tilegym.backend.dispatch".
type Names struct {
	Dispatch         []string `toml:"dispatch"`          // the @dispatch decorator
	RegisterImpl     []string `toml:"register-impl"`     // register_impl
	BackendAvailable []string `toml:"backend-available"` // is_backend_available
	CuTileBackend    string   `toml:"cutile-backend"`    // the backend name of cuTile: "cutile"
	// Kernel is the cuTile kernel decorator: a cuTile module that defines
	// kernels is an op's module even before it registers one.
	Kernel []string `toml:"kernel"`
	// Directive is the comment prefix of lint directives: "tilegym-lint:".
	Directive string `toml:"directive"`
}

// Scope is one family of ops that share dispatch files and trees: the core
// ops of src/tilegym/ops, or each suite under src/tilegym/suites/{suite}.
type Scope struct {
	Name string `toml:"name"` // "core", "suites"
	// Dispatch lists the files holding @dispatch stubs.
	Dispatch []string `toml:"dispatch"`
	// Namespace is the prefix dispatch names carry in this scope, e.g.
	// "{suite}" for "liger.jsd"; "" for none.
	Namespace string `toml:"namespace"`
	// CuTile is the root of the cuTile package (its __init__.py registers the modules).
	CuTile string `toml:"cutile"`
	// Tests and Benchmarks are globs of the test and benchmark files.
	Tests      []string `toml:"tests"`
	Benchmarks []string `toml:"benchmarks"`
	// API lists the public modules through which tests and benchmarks reach
	// the ops ("tilegym.ops", "tilegym.suites.{suite}"); empty means the
	// modules of the dispatch files and their packages.
	API []string `toml:"api"`
}

// Override returns the layout l with o's settings in place of its own, as a
// configuration's [layout] overrides the catalog's: a list or string o sets
// replaces l's, a scope of o replaces the fields it sets of l's scope of the
// same name (or is added), and exclude is appended to the excluded globs.
// Neither l nor o is modified; o may be nil.
func (l *Layout) Override(o *Layout, exclude []string) *Layout {
	out := &Layout{
		Exclude: slices.Clone(l.Exclude),
		Include: slices.Clone(l.Include),
	}
	if l.Names != nil {
		n := *l.Names
		out.Names = &n
	}
	for _, s := range l.Scopes {
		c := *s
		out.Scopes = append(out.Scopes, &c)
	}
	if o != nil {
		if o.Exclude != nil {
			out.Exclude = slices.Clone(o.Exclude)
		}
		if o.Include != nil {
			out.Include = slices.Clone(o.Include)
		}
		if on := o.Names; on != nil {
			if out.Names == nil {
				out.Names = &Names{}
			}
			n := out.Names
			setList(&n.Dispatch, on.Dispatch)
			setList(&n.RegisterImpl, on.RegisterImpl)
			setList(&n.BackendAvailable, on.BackendAvailable)
			setString(&n.CuTileBackend, on.CuTileBackend)
			setList(&n.Kernel, on.Kernel)
			setString(&n.Directive, on.Directive)
		}
		for _, os := range o.Scopes {
			i := slices.IndexFunc(out.Scopes, func(s *Scope) bool { return s.Name == os.Name })
			if i < 0 {
				c := *os
				out.Scopes = append(out.Scopes, &c)
				continue
			}
			s := out.Scopes[i]
			setList(&s.Dispatch, os.Dispatch)
			setString(&s.Namespace, os.Namespace)
			setString(&s.CuTile, os.CuTile)
			setList(&s.Tests, os.Tests)
			setList(&s.Benchmarks, os.Benchmarks)
			setList(&s.API, os.API)
		}
	}
	out.Exclude = append(out.Exclude, exclude...)
	return out
}

func setList(dst *[]string, v []string) {
	if v != nil {
		*dst = v
	}
}

func setString(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

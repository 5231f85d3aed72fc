package load

import (
	"maps"
	"slices"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/source"
)

// Mark is what a loader had parsed at one time (see Forget), and the op
// table of those files when it was built then.
type Mark struct {
	files  map[string]*source.File
	parsed []bool
	table  *optable.OpTable
}

// Mark records what is parsed now, with its op table if built (OpTable
// before Mark builds it): a check in batches starts every batch from the
// seeds' table, built once, rather than building it again per batch.
func (l *Loader) Mark() Mark {
	return Mark{maps.Clone(l.Repo.Files), slices.Clone(l.Parsed), l.table}
}

// Has reports whether path was parsed at the mark.
func (m Mark) Has(path string) bool {
	_, ok := m.files[path]
	return ok
}

// Forget drops every file parsed since m, and what was learnt from them
// (the op table, back to m's, and the words scanned for), so that their
// syntax trees can be collected: a whole check in batches (checker) reads
// a batch of ops' files at a time. An op table is never modified once
// built, so m's serves again.
func (l *Loader) Forget(m Mark) {
	l.Repo.Files = maps.Clone(m.files)
	l.Parsed = slices.Clone(m.parsed)
	l.Repo.Table = nil
	l.table = m.table
	l.scanned = nil
}

// Unshare stops the loader sharing its parses with another (ShareWith),
// which keeps every file either parses: a check in batches forgets them.
func (l *Loader) Unshare() { l.shared = nil }

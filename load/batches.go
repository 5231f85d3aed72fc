package load

import (
	"maps"
	"slices"

	"github.com/tilegym/tilegym-lint/source"
)

// Mark is what a loader had parsed at one time (see Forget).
type Mark struct {
	files  map[string]*source.File
	parsed []bool
}

// Mark records what is parsed now.
func (l *Loader) Mark() Mark {
	return Mark{maps.Clone(l.Repo.Files), slices.Clone(l.Parsed)}
}

// Has reports whether path was parsed at the mark.
func (m Mark) Has(path string) bool {
	_, ok := m.files[path]
	return ok
}

// Forget drops every file parsed since m, and what was learnt from them
// (the op table, the words scanned for), so that their syntax trees can be
// collected: a whole check in batches (checker) reads a batch of ops' files
// at a time.
func (l *Loader) Forget(m Mark) {
	l.Repo.Files = maps.Clone(m.files)
	l.Parsed = slices.Clone(m.parsed)
	l.Repo.Table = nil
	l.table = nil
	l.scanned = nil
}

// Unshare stops the loader sharing its parses with another (ShareWith),
// which keeps every file either parses: a check in batches forgets them.
func (l *Loader) Unshare() { l.shared = nil }

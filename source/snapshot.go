// Package source reads a snapshot of a repository's Python files -- from
// the working tree or a git revision (Source) -- and parses them (File,
// Snapshot), with the facts of a file that several checks need computed
// once and shared (memo.go, Fact). It knows Python, not TileGym.
package source

import (
	"sort"
	"unsafe"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// Snapshot is the Python files of a repository at one point (the working
// tree, or a git revision), read and parsed.
type Snapshot struct {
	Root  string           // the checked root as given (for display)
	Files map[string]*File // by slash path relative to Root
	// Paths are the paths of the files in scope, sorted: the keys of Files,
	// except in a check of some ops (CheckSource with Options.Ops), which
	// reads and parses only the files those ops need.
	Paths []string
	// Source is where the snapshot was read from, when known: the relation
	// kind reads through it the files the layout does not parse (Rust,
	// Julia, YAML, JSON, TOML, Python outside the layout's scope).
	Source Source
}

// File is one Python file of the snapshot.
type File struct {
	Path string // slash path relative to the repository root
	Src  []byte
	AST  *ast.File // nil when the file does not parse
	Err  error     // the parse error, if any (a *parser.Error)

	memo fileMemo // facts derived from AST, computed once (see memo.go)
}

// Text returns the file's source as a string without a copy of it: Src
// is never modified once read (the syntax tree's strings share it too), so
// lines and other substrings of the source cost no second copy.
func (f *File) Text() string {
	return unsafe.String(unsafe.SliceData(f.Src), len(f.Src))
}

// HasPath reports whether the snapshot has a file in scope at a slash path,
// read or not (a check of some ops reads only the files they need).
func (r *Snapshot) HasPath(p string) bool {
	i := sort.SearchStrings(r.Paths, p)
	return i < len(r.Paths) && r.Paths[i] == p
}

// File returns the file at a slash path, or nil.
func (r *Snapshot) File(path string) *File { return r.Files[path] }

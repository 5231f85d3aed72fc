package load

import (
	"maps"
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
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

// Unshare stops the loader sharing its parses with another (ShareParses),
// which keeps every file either parses: a check in batches forgets them.
func (l *Loader) Unshare() { l.shared = nil }

// StarImportedByAPIs returns the paths the modules that the parsed files
// of the API packages import * from may have: the names of an API package
// include theirs (a check in batches reads them with the seeds).
func (l *Loader) StarImportedByAPIs() []string {
	var out []string
	for p, f := range l.Repo.Files {
		if f.AST == nil || f.AST.Module == nil || !l.APIs[astutil.PackagePath(p)] {
			continue
		}
		pkg := astutil.PackagePath(p)
		astutil.EachTopLevel(f.AST.Module.Body, func(s ast.Stmt) {
			imp, ok := s.(*ast.ImportFrom)
			if !ok {
				return
			}
			for _, a := range imp.Names {
				if a != nil && a.Name == "*" {
					rel := strings.ReplaceAll(astutil.ImportFromModule(pkg, imp), ".", "/")
					out = append(out, "src/"+rel+".py", rel+".py", "src/"+rel+"/__init__.py", rel+"/__init__.py")
				}
			}
		})
	}
	return out
}

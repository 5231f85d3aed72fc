// Package load reads a snapshot into a repository model: whole (Load), or,
// for a check of some ops and for change mode, only the files those ops can
// need (Loader.Load), with the op table of what is parsed so far.
package load

import (
	"path"
	"sort"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// ListInScope lists the snapshot's files, only under the directories of
// the set-up's layout when the source can do that.
func ListInScope(src source.Source, s *config.Setup) ([]string, error) {
	lay := scopeLayout(s)
	if dl, ok := src.(source.DirLister); ok {
		if dirs, ok := lay.ScanDirs(); ok {
			return dl.ListUnder(dirs)
		}
	}
	return src.List()
}

// scopeLayout is the set-up's layout; none is the empty layout, which puts
// nothing in scope.
func scopeLayout(s *config.Setup) *layout.Layout {
	if s.Layout == nil {
		return &layout.Layout{}
	}
	return s.Layout
}

// Load reads the files of a snapshot that the set-up's layout puts in scope and
// parses them, GOMAXPROCS at a time. A file that does not parse keeps its
// error in File.Err (the parse-error analyzer reports it); only a failure
// to list or read the snapshot is an error. The result does not depend on
// the number of workers.
func Load(src source.Source, s *config.Setup) (*optable.Repo, error) {
	repo, err := ListRepo(src, s)
	if err != nil {
		return nil, err
	}
	files := make([]*source.File, len(repo.Paths))
	errs := make([]error, len(repo.Paths))
	warm := warmer(repo.Layout, repo.Paths)
	source.ForEach(len(files), func(i int) {
		files[i], errs[i] = source.LoadFile(src, repo.Paths[i])
		if errs[i] == nil {
			warm(files[i])
		}
	})
	for i, f := range files {
		if errs[i] != nil {
			return nil, errs[i]
		}
		repo.Files[f.Path] = f
	}
	return repo, nil
}

// ListRepo returns the repository of a snapshot with its paths in scope
// listed and no file read yet. The set-up's layout says what is in scope
// (none: the empty layout), its configuration which files are skipped;
// its catalog is not read.
func ListRepo(src source.Source, s *config.Setup) (*optable.Repo, error) {
	lay, cfg := scopeLayout(s), s.Config
	all, err := ListInScope(src, s)
	if err != nil {
		return nil, err
	}
	repo := &optable.Repo{Snapshot: source.Snapshot{Root: src.Root(), Files: map[string]*source.File{}, Source: src}, Layout: lay}
	for _, p := range all {
		if lay.InScope(p) {
			repo.Paths = append(repo.Paths, p)
		}
	}
	sort.Strings(repo.Paths)
	if cfg != nil && len(cfg.Skips) > 0 {
		repo.ConfigSkips = cfg.Skips
	}
	return repo, nil
}

// warmer returns a function that computes, for a file just parsed, the
// facts the op table reads from it (its node list, when it spells
// register_impl or is a test or benchmark; the names a test or benchmark
// uses), while the parse workers are busy in parallel rather than in the
// op table's turn. Which facts are computed early changes nothing else.
func warmer(l *layout.Layout, paths []string) func(*source.File) {
	register := registerWords(l)
	// The API packages, whose modules' definitions opWrappers reads.
	apis := map[string]bool{}
	for _, p := range paths {
		if sm, ok := layout.DispatchScope(l, p); ok {
			for _, m := range optable.APIModules(sm.Scope, sm.Suite) {
				apis[m] = true
			}
		}
	}
	return func(f *source.File) {
		if f.AST == nil || f.AST.Module == nil {
			return
		}
		if layout.StepPath(l, f.Path) {
			optable.UsedNamesFact.Of(f) // and the node list
		} else if containsAny(f.Src, register) {
			f.Nodes()
		}
		if apis[astutil.PackagePath(f.Path)] && path.Base(f.Path) != "__init__.py" {
			for _, s := range f.AST.Module.Body {
				switch s.(type) {
				case *ast.FunctionDef, *ast.ClassDef:
					source.Callees(f, s)
				}
			}
		}
	}
}

// registerWords returns the last parts of the layout's register_impl
// names, each once: a file that registers an op spells one.
func registerWords(l *layout.Layout) [][]byte {
	var out [][]byte
	seen := map[string]bool{}
	for _, q := range layout.LayoutNames(l).RegisterImpl {
		if w := astutil.DottedTail(q); !seen[w] {
			seen[w] = true
			out = append(out, []byte(w))
		}
	}
	return out
}

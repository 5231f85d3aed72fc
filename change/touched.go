package change

// Which ops a change concerns: those it touches (a stub, a registering
// module, an __init__ entry, a test or benchmark of theirs) and those whose
// files it changes, in one snapshot or the other.

import (
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// TouchedOps returns the ops a change touches: a new or edited dispatch
// stub, a changed module registering the op, a changed line of a cuTile
// __init__ naming the op's module or function, a changed test or
// benchmark file of the op.
func TouchedOps(t *optable.OpTable, ch *Change) map[string]bool {
	out := map[string]bool{}
	for _, op := range t.Ops {
		for _, s := range op.Stubs {
			if s.File == nil || s.Def == nil {
				continue
			}
			// The stub from the comment lines right above it (where a skip
			// directive may be, see findSkips).
			start := optable.StubStartLine(s)
			for lines := optable.CommentLines(s.File); start > 1 && lines[start-1]; {
				start--
			}
			if ch.Touches(s.File.Path, start, s.Def.End().Line) {
				out[op.Name] = true
			}
		}
		for _, im := range op.Impls {
			if im.File != nil && ch.HasFile(im.File.Path) {
				out[op.Name] = true
			}
		}
		for _, f := range append(append([]*source.File(nil), op.Tests...), op.Benchmarks...) {
			if ch.HasFile(f.Path) {
				out[op.Name] = true
			}
		}
	}
	for _, in := range t.Inits {
		if in.File == nil || !ch.HasFile(in.File.Path) {
			continue
		}
		initNamedOps(t, in.File.Path, touchedInitNames(in, ch), out)
	}
	return out
}

// initNamedOps adds to out the ops that names of the __init__ at file
// concern: whose cuTile package holds the __init__ and whose function is
// named, or whose module is named as the __init__ names it (relative to
// its package).
func initNamedOps(t *optable.OpTable, file string, names map[string]bool, out map[string]bool) {
	if len(names) == 0 {
		return
	}
	dir, pkg := path.Dir(file), astutil.ModulePath(file)+"."
	for _, op := range t.Ops {
		if names[op.Func] && op.Scope != nil && layout.UnderDir(strings.TrimSuffix(layout.ExpandSuite(op.Scope.CuTile, op.Suite), "/"), file) {
			out[op.Name] = true
		}
		for _, im := range op.Impls {
			if im.Module != "" && layout.UnderDir(dir, im.File.Path) && names[strings.TrimPrefix(astutil.ModulePath(im.File.Path), pkg)] {
				out[op.Name] = true
			}
		}
	}
}

// removedInitOps adds to out the ops whose entries (module import,
// function import, __all__ string) a change removes from a cuTile
// __init__ it edits: a deleted line is charged to its op.
func removedInitOps(ch *Change, head, base *optable.OpTable, out map[string]bool) {
	if head == nil || base == nil {
		return
	}
	for _, bi := range base.Inits {
		file := bi.File.Path
		if !ch.HasFile(file) || ch.Deleted[file] {
			continue
		}
		hi := initOf(head, file)
		if hi == nil {
			continue
		}
		he := initEntries(hi)
		names := map[string]bool{}
		for k, n := range initEntries(bi) {
			if he[k] < n {
				names[k.module], names[k.name] = true, true
			}
		}
		delete(names, "")
		initNamedOps(head, file, names, out)
	}
}

// touchedInitNames returns the names that the entries of an __init__ on
// lines the change edits name: imported modules and names, __all__
// strings. An entry beside a removed line is not edited: the removed
// entry is charged to its own op by comparing the two versions
// (removedInitOps, initChangeWords).
func touchedInitNames(in *optable.Init, ch *Change) map[string]bool {
	names := map[string]bool{}
	for _, imp := range append(append([]*optable.InitImport(nil), in.ModuleImports...), in.FuncImports...) {
		if imp.Stmt != nil && ch.Edits(in.File.Path, imp.Stmt.Pos().Line, imp.Stmt.End().Line) {
			names[imp.Name] = true
			names[imp.Module] = true
		}
	}
	for _, c := range in.All {
		if ch.Edits(in.File.Path, c.Pos().Line, c.End().Line) {
			if s, ok := c.Value.(string); ok {
				names[s] = true
			}
		}
	}
	return names
}

// undeclared returns the names that the changed files register in either
// snapshot and no stub declares.
func undeclared(ch *Change, loaders ...*load.Loader) map[string]bool {
	out := map[string]bool{}
	for _, l := range loaders {
		t := l.OpTable()
		for _, im := range t.Impls {
			if op := t.ByName[im.Op]; (op == nil || op.Stub == nil) && ch.HasFile(im.File.Path) {
				out[im.Op] = true
			}
		}
	}
	return out
}

// changeOps parses what a snapshot's check of the ops of a change starts
// from (see seed, with the changed files) and returns the ops owning a
// changed file, or a changed shared file (see sharedChangeOps), other
// than by their dispatch stub. ok is false when a changed file or a
// dispatch file does not parse: the snapshots must be checked whole.
func changeOps(l *load.Loader, files, shared []string) (related map[string]bool, ok bool) {
	if !l.Seed(files) {
		return nil, false
	}
	changed := map[string]bool{}
	for _, f := range append(files[:len(files):len(files)], shared...) {
		if file := l.Repo.Files[f]; file != nil {
			if file.AST == nil {
				return nil, false
			}
			changed[f] = true
		}
	}
	related = map[string]bool{}
	tab := l.OpTable()
	for _, op := range tab.Ops {
		for f := range checker.OpFiles(tab, op) {
			if changed[f] && !(op.Stub != nil && op.Stub.File.Path == f) {
				related[op.Name] = true
			}
		}
	}
	return related, true
}

// removedStubs returns the ops that have a dispatch stub in the base and
// none in the head.
func removedStubs(head, base *optable.OpTable) map[string]bool {
	out := map[string]bool{}
	if head == nil || base == nil {
		return out
	}
	for _, op := range base.Ops {
		if op.Stub == nil {
			continue
		}
		if h := head.ByName[op.Name]; h == nil || h.Stub == nil {
			out[op.Name] = true
		}
	}
	return out
}

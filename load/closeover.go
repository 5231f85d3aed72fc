package load

// Which files a check of some ops needs parsed: the seeds every check parses,
// then the files the wanted ops' checks read, closed over what they import.

import (
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// Load parses what the wanted ops need (everything when a dispatch file
// does not parse).
func (l *Loader) Load(want map[string]bool) *optable.Repo {
	if !l.Seed(nil) {
		l.ParseAll()
		return l.Repo
	}
	return l.CloseOver(want)
}

// isSeed reports whether seed parses a file in any case: a dispatch file,
// a cuTile __init__.py, a module of an API package.
func (l *Loader) isSeed(p string) bool {
	if _, ok := layout.DispatchScope(l.Layout, p); ok {
		return true
	}
	return path.Base(p) == "__init__.py" && layout.InCuTile(l.Layout, p) || l.APIs[astutil.PackagePath(p)]
}

// Seed parses the files every check needs (the dispatch files, the cuTile
// __init__s, the interface modules of the API packages) and extra files,
// those not parsed yet. It reports false when a dispatch file does not
// parse.
func (l *Loader) Seed(extra []string) bool {
	ex := map[string]bool{}
	for _, p := range extra {
		ex[p] = true
	}
	var seed []int
	for i, p := range l.Repo.Paths {
		if l.isSeed(p) || ex[p] {
			seed = append(seed, i)
		}
	}
	var todo []int
	for _, i := range seed {
		if !l.Parsed[i] {
			todo = append(todo, i)
		}
	}
	l.Parse(todo)
	for _, i := range seed {
		if _, ok := layout.DispatchScope(l.Layout, l.Repo.Paths[i]); ok && l.Repo.Files[l.Repo.Paths[i]].AST == nil {
			return false
		}
	}
	// The API packages of the ops' scopes too (an op registered in a
	// suite without a dispatch file), and the modules they import * from:
	// dispatch-callers reads their names.
	// (The table is not the loader's until they are parsed: keepWrappers
	// keeps the first one's wrappers, read from the API packages.)
	tab := optable.BuildOpTable(l.Repo)
	more := false
	for _, op := range tab.Ops {
		if op.Scope == nil {
			continue
		}
		for _, m := range optable.APIModules(op.Scope, op.Suite) {
			if !l.APIs[m] {
				l.APIs[m] = true
				more = true
			}
		}
	}
	var apis []int
	if more {
		apis = l.unparsed(func(p string) bool { return l.isSeed(p) })
		l.Parse(apis)
	}
	star := map[string]bool{}
	for _, p := range l.starImportedByAPIs() {
		star[p] = true
	}
	stars := l.unparsed(func(p string) bool { return star[p] })
	l.Parse(stars)
	if len(apis) == 0 && len(stars) == 0 && l.table == nil {
		l.table = tab
		keepWrappers(l.Repo, tab)
	}
	return true
}

// unparsed returns the indexes of the files not parsed yet whose paths
// keep says.
func (l *Loader) unparsed(keep func(string) bool) []int {
	var out []int
	for i, p := range l.Repo.Paths {
		if !l.Parsed[i] && keep(p) {
			out = append(out, i)
		}
	}
	return out
}

// keepWrappers keeps in repo, unless known, the wrappers of the op table
// built from it. The interface modules are all parsed (seed), so they do
// not change as more files are parsed: the tables built later take them.
func keepWrappers(repo *optable.Repo, tab *optable.OpTable) {
	if repo.Wrappers != nil {
		return
	}
	repo.Wrappers = map[string][]string{}
	for op, w := range tab.Wrappers {
		repo.Wrappers[op.Name] = w
	}
}

// CloseOver parses, round by round, the files the wanted ops need (what
// opsNeeds computes from the op table so far) and returns the repository.
func (l *Loader) CloseOver(want map[string]bool) *optable.Repo {
	repo, lay, data, parsed := l.Repo, l.Layout, l.Data, l.Parsed
	n := len(repo.Paths)
	step, registers := l.step, l.Registers
	near := l.nearMisses(want)
	for round := 0; ; round++ {
		tab := l.OpTable()
		need := opsNeeds(tab, lay, want)
		for name := range l.undeclared {
			need.names[name] = true
		}
		// The names looked for before are in no file still unparsed (each
		// file that had one was parsed): look for the new.
		fresh := l.unscanned(need)
		fresh.indexUses()
		quoted, longest := fresh.names, longestWord(fresh.names)
		wanted := make([]bool, n)
		source.ForEach(n, func(i int) {
			if parsed[i] {
				return
			}
			p := repo.Paths[i]
			wanted[i] = need.path(p) || near[i] || registers[i] && hasQuoted(data[i], quoted, longest) ||
				step[i] && fresh.step(p, data[i])
		})
		var more []int
		for i, w := range wanted {
			if w {
				more = append(more, i)
			}
		}
		if len(more) == 0 {
			// Every file that can register a selected op is parsed: for
			// one with no cuTile implementation, a file of its cuTile
			// package that does not parse may register it.
			dirs := missingCuTile(tab, lay, want)
			for i, p := range repo.Paths {
				if !parsed[i] && layout.UnderAny(dirs, p) {
					more = append(more, i)
				}
			}
		}
		if len(more) == 0 {
			repo.Table = tab // of the files parsed, all of them
			return repo
		}
		l.Parse(more)
		// The modules imported by the cuTile modules just parsed that may
		// register a related op (and their parents): the next round would
		// need them if they do (see opsNeeds). Parsed now, they save a
		// round; if not needed, they are files more (which only brings the
		// check nearer the whole one).
		mods := map[string]bool{}
		for _, i := range more {
			p := repo.Paths[i]
			if f := repo.Files[p]; f.AST != nil && registers[i] && layout.InCuTile(lay, p) && hasQuoted(data[i], quoted, longest) {
				for _, q := range f.Imports().Local {
					mods[q] = true
					if j := strings.LastIndexByte(q, '.'); j >= 0 {
						mods[q[:j]] = true
					}
				}
			}
		}
		// The sibling modules the tests and benchmarks just parsed import
		// (from bench_rope import get_supported_backends): read by the
		// Step 5 kinds.
		sibs := map[string]bool{}
		for _, i := range more {
			p := repo.Paths[i]
			if f := repo.Files[p]; f.AST != nil && step[i] {
				for _, sp := range astutil.SiblingImportPaths(f.Path, f.AST) {
					sibs[sp] = true
				}
			}
		}
		if len(mods) > 0 || len(sibs) > 0 {
			var spec []int
			for i, p := range repo.Paths {
				if !parsed[i] && (mods[astutil.ModulePath(p)] || sibs[p]) {
					spec = append(spec, i)
				}
			}
			l.Parse(spec)
		}
	}
}

// starImportedByAPIs returns the paths the modules that the parsed files
// of the API packages import * from may have: the names of an API package
// include theirs (Seed reads them).
func (l *Loader) starImportedByAPIs() []string {
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

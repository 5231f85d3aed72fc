package optable

// The op table's construction (BuildOpTable): the dispatch stubs, the
// cuTile packages, the implementations registered in them, and the ops being
// added (registered with no stub, or a kernel module with no registration);
// then, in files of their own, the __init__.py files, tests and benchmarks,
// wrappers and skips.

import (
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// opTableBuilder holds the state of one op table construction.
type opTableBuilder struct {
	repo  *Repo
	names *layout.Names
	table *OpTable
	// cutileRoots maps a bound cuTile package root to its scope.
	cutileRoots map[string]layout.ScopeMatch
	// skips holds the skip directives of each file read (skipsOf).
	skips map[*source.File][]Skip
}

func runOpTable(pass *analysis.Pass[*Repo]) (any, error) {
	if t := pass.Repo.Table; t != nil {
		return t, nil
	}
	return BuildOpTable(pass.Repo), nil
}

// BuildOpTable indexes the ops of a repository snapshot. Files that did not
// parse are ignored.
func BuildOpTable(repo *Repo) *OpTable {
	b := &opTableBuilder{
		repo:        repo,
		names:       layout.LayoutNames(repo.Layout),
		table:       &OpTable{ByName: map[string]*Op{}},
		cutileRoots: map[string]layout.ScopeMatch{},
	}
	b.prepare()
	b.findStubs()
	b.findCuTileRoots()
	b.findImpls()
	b.addStublessOps()
	b.addUnregisteredOps()
	b.findInits()
	b.matchTestsAndBenchmarks()
	b.findSkips()
	sort.Slice(b.table.Ops, func(i, j int) bool { return b.table.Ops[i].Name < b.table.Ops[j].Name })
	return b.table
}

// prepare computes, in parallel, the facts of each file that the table
// reads (each is computed once per file): the names the test and benchmark
// files use.
func (b *opTableBuilder) prepare() {
	var files []*source.File
	for _, f := range b.files() {
		for _, sc := range b.scopes() {
			if _, ok := layout.MatchAny(sc.Tests, f.Path); ok {
				files = append(files, f)
				break
			}
			if _, ok := layout.MatchAny(sc.Benchmarks, f.Path); ok {
				files = append(files, f)
				break
			}
		}
	}
	source.ForEach(len(files), func(i int) {
		files[i].Imports()
		UsedNamesFact.Of(files[i])
	})
}

// importsOf returns the (cached) imports of a file.
func (b *opTableBuilder) importsOf(f *source.File) *astutil.Imports {
	return f.Imports()
}

func (b *opTableBuilder) files() []*source.File {
	var out []*source.File
	for _, p := range b.repo.Paths {
		if f := b.repo.Files[p]; f != nil && f.AST != nil && f.AST.Module != nil {
			out = append(out, f)
		}
	}
	return out
}

func (b *opTableBuilder) scopes() []*layout.Scope {
	if b.repo.Layout == nil {
		return nil
	}
	return b.repo.Layout.Scopes
}

func (b *opTableBuilder) findStubs() {
	for _, f := range b.files() {
		sm, ok := layout.DispatchScope(b.repo.Layout, f.Path)
		if !ok {
			continue
		}
		im := b.importsOf(f)
		astutil.EachTopLevel(f.AST.Module.Body, func(s ast.Stmt) {
			fd, ok := s.(*ast.FunctionDef)
			if !ok {
				return
			}
			call, _, ok := im.Decorator(fd.DecoratorList, b.names.Dispatch)
			if !ok || call == nil {
				return
			}
			nameArg, _ := astutil.CallArg(call, 0, "name").(*ast.Constant)
			name, isStr := "", false
			if nameArg != nil {
				name, isStr = nameArg.Value.(string)
			}
			if !isStr || name == "" {
				return
			}
			st := &Stub{File: f, Def: fd, Decorator: call, NameArg: nameArg}
			op := b.table.ByName[name]
			if op == nil {
				fn := name
				if i := strings.LastIndexByte(name, '.'); i >= 0 {
					fn = name[i+1:]
				}
				op = &Op{Name: name, Func: fn, Scope: sm.Scope, Suite: sm.Suite, Stub: st}
				b.table.ByName[name] = op
				b.table.Ops = append(b.table.Ops, op)
			}
			op.Stubs = append(op.Stubs, st)
		})
	}
}

// findCuTileRoots binds the cuTile package root of every scope: the core
// root as written, a suite root once per suite that has a dispatch file or
// a directory at the root's place. The roots are a function of the
// repository's paths and layout only: found once per repository, they
// serve every op table built from it (a check in batches builds one per
// round of each batch; each would match every path again).
func (b *opTableBuilder) findCuTileRoots() {
	rootsMu.Lock()
	defer rootsMu.Unlock()
	if m := b.repo.roots; m != nil && m.layout == b.repo.Layout && sameSlice(m.paths, b.repo.Paths) {
		b.cutileRoots = m.roots
		return
	}
	for _, sc := range b.scopes() {
		if sc.CuTile == "" {
			continue
		}
		if !strings.Contains(sc.CuTile, "{suite}") {
			b.cutileRoots[strings.TrimSuffix(sc.CuTile, "/")] = layout.ScopeMatch{Scope: sc}
			continue
		}
		for _, p := range b.repo.Paths {
			if suite, ok := layout.MatchPath(strings.TrimSuffix(sc.CuTile, "/")+"/**", p); ok && suite != "" {
				b.cutileRoots[strings.TrimSuffix(layout.ExpandSuite(sc.CuTile, suite), "/")] = layout.ScopeMatch{Scope: sc, Suite: suite}
			}
		}
	}
	b.repo.roots = &rootsMemo{paths: b.repo.Paths, layout: b.repo.Layout, roots: b.cutileRoots}
}

// rootsMemo is the cuTile package roots found for a repository's paths and
// layout (findCuTileRoots); the map is never modified once stored.
type rootsMemo struct {
	paths  []string
	layout *layout.Layout
	roots  map[string]layout.ScopeMatch
}

// rootsMu guards Repo.roots: op tables of one repository may be built on
// several goroutines.
var rootsMu sync.Mutex

// sameSlice reports whether a and b are the same slice (same elements in
// the same memory), not merely equal.
func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// cutileRootOf returns the cuTile package root that contains p, and its scope.
func (b *opTableBuilder) cutileRootOf(p string) (string, layout.ScopeMatch, bool) {
	// The longest root r with layout.UnderDir(r, p): one of p's ancestor
	// directories, with or without its trailing slash, looked up from the
	// deepest (not every root tried per file, quadratic in the suites).
	for i := len(p) - 1; i > 0; i-- {
		if p[i] != '/' {
			continue
		}
		for _, root := range []string{p[:i+1], p[:i]} {
			if sm, ok := b.cutileRoots[root]; ok && layout.UnderDir(root, p) {
				return root, sm, true
			}
		}
	}
	return "", layout.ScopeMatch{}, false
}

// ModuleUnder returns the dotted module path of file p relative to the
// package root: "activation.gelu" for root/activation/gelu.py.
func ModuleUnder(root, p string) string {
	rel := strings.TrimPrefix(p, strings.TrimSuffix(root, "/")+"/")
	rel = strings.TrimSuffix(rel, ".py")
	rel = strings.TrimSuffix(rel, "/__init__")
	if rel == "__init__" {
		return ""
	}
	return strings.ReplaceAll(rel, "/", ".")
}

func (b *opTableBuilder) findImpls() {
	// The register_impl calls of each file (and the functions they
	// register), found in parallel; then the implementations, in order.
	type site struct {
		call *ast.Call
		def  *ast.FunctionDef
	}
	files := b.files()
	sites := make([][]site, len(files))
	source.ForEach(len(files), func(i int) {
		f := files[i]
		im := b.importsOf(f)
		if !b.mentionsAny(im, b.names.RegisterImpl) {
			return
		}
		var funcs map[string]*ast.FunctionDef
		for _, n := range f.Nodes() {
			switch n := n.(type) {
			case *ast.FunctionDef:
				for _, d := range n.DecoratorList {
					if c, ok := im.CallTo(d, b.names.RegisterImpl); ok {
						sites[i] = append(sites[i], site{c, n})
					}
				}
			case *ast.Call:
				// register_impl("op", "torch")(fn)
				if inner, ok := im.CallTo(n.Func, b.names.RegisterImpl); ok {
					var def *ast.FunctionDef
					if len(n.Args) == 1 {
						if nm, ok := n.Args[0].(*ast.Name); ok {
							if funcs == nil {
								funcs = allFuncDefs(f)
							}
							def = funcs[nm.Id]
						}
					}
					sites[i] = append(sites[i], site{inner, def})
				}
			}
		}
	})
	for i, f := range files {
		if len(sites[i]) == 0 {
			continue
		}
		root, _, inRoot := b.cutileRootOf(f.Path)
		for _, st := range sites[i] {
			call, def := st.call, st.def
			nameArg, _ := astutil.CallArg(call, 0, "name").(*ast.Constant)
			backArg, _ := astutil.CallArg(call, 1, "backend").(*ast.Constant)
			if nameArg == nil || backArg == nil {
				continue
			}
			name, ok1 := nameArg.Value.(string)
			backend, ok2 := backArg.Value.(string)
			if !ok1 || !ok2 {
				continue
			}
			impl := &Impl{Op: name, Backend: backend, File: f, Call: call, Def: def, Pos: call.Pos(), End: call.End()}
			if inRoot {
				impl.Module = ModuleUnder(root, f.Path)
			}
			b.table.Impls = append(b.table.Impls, impl)
		}
	}
	sort.SliceStable(b.table.Impls, func(i, j int) bool {
		a, c := b.table.Impls[i], b.table.Impls[j]
		if a.File.Path != c.File.Path {
			return a.File.Path < c.File.Path
		}
		return a.Call.Pos().Before(c.Call.Pos())
	})
	for _, impl := range b.table.Impls {
		if op := b.table.ByName[impl.Op]; op != nil {
			op.Impls = append(op.Impls, impl)
		}
	}
}

// addStublessOps adds the ops being added: a name registered for the
// cuTile backend in a cuTile package that no @dispatch stub declares, and
// that is not a near miss of a name dispatched in the package's own scope
// and suite (a typo, which TG206 reports; a registration carries its
// suite's prefix, so another suite's op is never the name it meant). Such an op has no Stub; its Step 1 fails (no dispatch stub) and
// Steps 2-5 are judged as for any op.
func (b *opTableBuilder) addStublessOps() {
	type group struct {
		scope *layout.Scope
		suite string
	}
	dispatched := map[group][]string{}
	for _, op := range b.table.Ops {
		g := group{op.Scope, op.Suite}
		dispatched[g] = append(dispatched[g], op.Name)
	}
	suggest := NewSuggester()
	for _, impl := range b.table.Impls {
		if impl.Backend != b.names.CuTileBackend || b.table.ByName[impl.Op] != nil {
			continue
		}
		_, sm, ok := b.cutileRootOf(impl.File.Path)
		if !ok || sm.Suite != "" && !strings.HasPrefix(impl.Op, sm.Suite+".") {
			continue
		}
		if c := suggest.Closest(impl.Op, dispatched[group{sm.Scope, sm.Suite}]); c != "" {
			op := b.table.ByName[c]
			op.Misnamed = append(op.Misnamed, impl)
			continue
		}
		fn := impl.Op
		if i := strings.LastIndexByte(fn, '.'); i >= 0 {
			fn = fn[i+1:]
		}
		op := &Op{Name: impl.Op, Func: fn, Scope: sm.Scope, Suite: sm.Suite}
		b.table.ByName[op.Name] = op
		b.table.Ops = append(b.table.Ops, op)
	}
	for _, impl := range b.table.Impls {
		if op := b.table.ByName[impl.Op]; op != nil && op.Stub == nil {
			op.Impls = append(op.Impls, impl)
		}
	}
}

// addUnregisteredOps adds the ops being added whose cuTile module registers
// nothing yet: a module of a cuTile package (not an __init__.py) that
// defines a kernel, has no register_impl, and has a test or benchmark of its
// scope named after it (test_<module>.py, bench_<module>.py). The op is
// named after the module (with the suite's prefix); its Step 1 and the
// registration fail, and Steps 3-5 are judged as for any op. A kernel module
// with no test or benchmark of its name stays a module of no op (scratch
// code, a kernel library), which TG210 reports.
func (b *opTableBuilder) addUnregisteredOps() {
	kernel := b.names.Kernel
	if len(kernel) == 0 {
		return
	}
	registers := map[string]bool{}
	for _, im := range b.table.Impls {
		registers[im.File.Path] = true
	}
	// The test and benchmark file names of each scope and suite, listed at
	// the first module of that scope and suite.
	type group struct {
		scope *layout.Scope
		suite string
	}
	named := map[group]map[string]bool{}
	namesOf := func(g group) map[string]bool {
		if set, ok := named[g]; ok {
			return set
		}
		set := map[string]bool{}
		for _, p := range b.repo.Paths {
			if layout.MatchBound(g.scope.Tests, g.suite, p) || layout.MatchBound(g.scope.Benchmarks, g.suite, p) {
				set[strings.TrimSuffix(path.Base(p), ".py")] = true
			}
		}
		named[g] = set
		return set
	}
	for _, f := range b.files() {
		if registers[f.Path] || path.Base(f.Path) == "__init__.py" || f.AST == nil || f.AST.Module == nil {
			continue
		}
		root, sm, ok := b.cutileRootOf(f.Path)
		if !ok {
			continue
		}
		mod := ModuleUnder(root, f.Path)
		name := astutil.DottedTail(mod)
		if set := namesOf(group{sm.Scope, sm.Suite}); !set["test_"+name] && !set["bench_"+name] {
			continue
		}
		opName := name
		if sm.Suite != "" {
			opName = sm.Suite + "." + name
		}
		if b.table.ByName[opName] != nil {
			continue
		}
		im := b.importsOf(f)
		var first, entry, public *ast.FunctionDef
		for _, st := range f.AST.Module.Body {
			fd, isDef := st.(*ast.FunctionDef)
			if !isDef {
				continue
			}
			if _, _, ok := im.Decorator(fd.DecoratorList, kernel); ok {
				if first == nil {
					first = fd
				}
				continue
			}
			if fd.Name == name && entry == nil {
				entry = fd
			}
			if public == nil && !strings.HasPrefix(fd.Name, "_") {
				public = fd
			}
		}
		if first == nil {
			continue
		}
		if entry == nil {
			entry = public
		}
		op := &Op{Name: opName, Func: name, Scope: sm.Scope, Suite: sm.Suite}
		op.Impls = []*Impl{{Op: opName, Backend: b.names.CuTileBackend, File: f, Def: entry, Module: mod,
			Pos: first.Pos(), End: first.End(), Unregistered: true}}
		b.table.ByName[opName] = op
		b.table.Ops = append(b.table.Ops, op)
	}
}

// mentionsAny reports whether the file imports any of the qualified names
// or a module they live in (a cheap filter before walking the file).
func (b *opTableBuilder) mentionsAny(im *astutil.Imports, names []string) bool {
	for _, n := range names {
		mod := n
		if i := strings.LastIndexByte(n, '.'); i >= 0 {
			mod = n[:i]
		}
		if im.Imported(n) || im.Imported(mod) {
			return true
		}
		head, _, _ := strings.Cut(n, ".")
		if _, ok := im.Local[head]; ok {
			return true
		}
	}
	return false
}

// allFuncDefs returns every function defined in the file, by name; a
// module-level definition wins over a nested one.
func allFuncDefs(f *source.File) map[string]*ast.FunctionDef {
	out := map[string]*ast.FunctionDef{}
	for _, n := range f.Nodes() {
		if fd, ok := n.(*ast.FunctionDef); ok {
			if _, seen := out[fd.Name]; !seen {
				out[fd.Name] = fd
			}
		}
	}
	for name, fd := range astutil.TopLevelFuncs(f.AST) {
		out[name] = fd
	}
	return out
}

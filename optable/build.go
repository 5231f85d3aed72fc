package optable

import (
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

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
	skips map[*source.File]fileSkips
}

// fileSkips are the skip directives of a file, in source order; inOrder
// says that their lines never decrease.
type fileSkips struct {
	list    []Skip
	inOrder bool
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
// a directory at the root's place.
func (b *opTableBuilder) findCuTileRoots() {
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

// IsBackendCheck reports whether e is `is_backend_available("<backend>")`
// (however is_backend_available is imported).
func IsBackendCheck(im *astutil.Imports, e ast.Expr, names []string, backend string) bool {
	c, ok := im.CallTo(e, names)
	if !ok {
		return false
	}
	s, ok := astutil.StringValue(astutil.CallArg(c, 0, "backend"))
	return ok && s == backend
}

func (b *opTableBuilder) findInits() {
	for _, f := range b.files() {
		if path.Base(f.Path) != "__init__.py" {
			continue
		}
		dir := path.Dir(f.Path)
		_, sm, ok := b.cutileRootOf(f.Path)
		if !ok && b.cutileRoots[dir].Scope != nil {
			sm, ok = b.cutileRoots[dir], true
		}
		if !ok {
			continue
		}
		b.table.Inits = append(b.table.Inits, b.parseInit(f, sm))
	}
}

// guardOf tells whether an if test guards its body with the cuTile
// availability check (1: `is_backend_available("cutile")`, also as a term
// of an `and`), its else branch (-1: `not is_backend_available("cutile")`),
// or neither (0).
func guardOf(im *astutil.Imports, test ast.Expr, names *layout.Names) int {
	switch t := test.(type) {
	case *ast.UnaryOp:
		if t.Op == ast.Not && IsBackendCheck(im, t.Operand, names.BackendAvailable, names.CuTileBackend) {
			return -1
		}
	case *ast.BoolOp:
		if t.Op == ast.And {
			for _, v := range t.Values {
				if IsBackendCheck(im, v, names.BackendAvailable, names.CuTileBackend) {
					return 1
				}
			}
		}
	default:
		if IsBackendCheck(im, test, names.BackendAvailable, names.CuTileBackend) {
			return 1
		}
	}
	return 0
}

// parseInit reads a cuTile package __init__.py: the backend block, the
// module and function imports (at top level or in the block, not in its
// else branch) and __all__.
func (b *opTableBuilder) parseInit(f *source.File, sm layout.ScopeMatch) *Init {
	im := b.importsOf(f)
	in := &Init{File: f, Scope: sm.Scope, Suite: sm.Suite, InBlock: map[ast.Node]bool{}}
	dir := path.Dir(f.Path)
	var visit func(body []ast.Stmt, inBlock bool)
	visit = func(body []ast.Stmt, inBlock bool) {
		for _, s := range body {
			switch s := s.(type) {
			case *ast.If:
				if in.Block != nil {
					continue
				}
				switch guardOf(im, s.Test, b.names) {
				case 1:
					in.Block, in.BlockBody = s, s.Body
					visit(s.Body, true)
				case -1:
					in.Block, in.BlockBody = s, s.Orelse
					visit(s.Orelse, true)
				}
			case *ast.Try:
				visit(s.Body, inBlock)
			case *ast.ImportFrom:
				if inBlock {
					in.InBlock[s] = true
				}
				if s.Level != 1 {
					continue
				}
				mod := ""
				if s.Module != nil {
					mod = *s.Module
				}
				for _, a := range s.Names {
					if a == nil || a.Name == "*" {
						continue
					}
					ii := &InitImport{Stmt: s, Alias: a, Name: a.Name, InBlock: inBlock}
					sub := astutil.JoinDotted(mod, a.Name)
					if mod == "" || b.isModule(dir, sub) {
						ii.Module = sub
						in.ModuleImports = append(in.ModuleImports, ii)
					} else {
						ii.Module = mod
						in.FuncImports = append(in.FuncImports, ii)
					}
				}
			case *ast.Assign:
				if inBlock {
					in.InBlock[s] = true
				}
				for _, t := range s.Targets {
					if nm, ok := t.(*ast.Name); ok && nm.Id == "__all__" {
						if list, ok := astutil.StringList(s.Value); ok {
							if in.AllNode == nil || len(list) > 0 {
								in.All = append([]*ast.Constant(nil), list...)
								in.AllNode = s
							}
						}
					}
				}
			case *ast.AugAssign:
				if nm, ok := s.Target.(*ast.Name); ok && nm.Id == "__all__" {
					if list, ok := astutil.StringList(s.Value); ok {
						in.All = append(in.All, list...)
						if in.AllNode == nil {
							in.AllNode = s
						}
					}
				}
			case *ast.ExprStmt:
				// __all__.extend([...]) / __all__.append("x")
				if c, ok := s.Value.(*ast.Call); ok {
					if astutil.DottedName(c.Func) == "__all__.extend" && len(c.Args) == 1 {
						if list, ok := astutil.StringList(c.Args[0]); ok {
							in.All = append(in.All, list...)
						}
					} else if astutil.DottedName(c.Func) == "__all__.append" && len(c.Args) == 1 {
						if k, ok := c.Args[0].(*ast.Constant); ok {
							if _, isStr := k.Value.(string); isStr {
								in.All = append(in.All, k)
							}
						}
					}
				}
			default:
				if inBlock {
					in.InBlock[s] = true
				}
			}
		}
	}
	visit(f.AST.Module.Body, false)
	return in
}

// isModule reports whether the dotted module sub of the package in dir is
// a module or package of the snapshot.
func (b *opTableBuilder) isModule(dir, sub string) bool {
	p := dir + "/" + strings.ReplaceAll(sub, ".", "/")
	return b.repo.HasPath(p+".py") || b.repo.HasPath(p+"/__init__.py")
}

// APIModules returns the public modules through which the ops of a scope
// are reached by tests and benchmarks.
func APIModules(sc *layout.Scope, suite string) []string {
	if len(sc.API) > 0 {
		out := make([]string, len(sc.API))
		for i, a := range sc.API {
			out[i] = layout.ExpandSuite(a, suite)
		}
		return out
	}
	seen := map[string]bool{}
	var out []string
	for _, d := range sc.Dispatch {
		if strings.Contains(d, "*") {
			continue
		}
		p := layout.ExpandSuite(d, suite)
		for _, m := range []string{astutil.ModulePath(p), astutil.PackagePath(p)} {
			if m != "" && !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// matchTestsAndBenchmarks attaches the test and benchmark files of each op.
//
// A file matched by a scope's Tests (Benchmarks) globs belongs to an op of
// that scope when it is named test_<func>.py (bench_<func>.py), when it
// reaches the op through a public API module (imports it, or names
// <api>.<func> with its imports resolved), or, for a benchmark, when it
// registers register_impl("<op>", ...). A test also belongs to the op a
// public wrapper of which it uses (opWrappers: a wrapper of one op only,
// never a composite). The Step 4-5 rules may refine this.
//
// Every lookup goes through an index by name (file name, qualified name,
// registered op), so the work is linear in the files and the ops.
func (b *opTableBuilder) matchTestsAndBenchmarks() {
	type key struct {
		scope *layout.Scope
		suite string
	}
	type scopeIdx struct {
		tests, benchmarks []string
		byFunc            map[string][]*Op // test_<func> / bench_<func>
		byName            map[string][]*Op // qualified names reaching the op
		byWrapper         map[string][]*Op // public wrappers (tests only)
	}
	idx := map[key]*scopeIdx{}
	var keys []key
	for _, op := range b.table.Ops {
		k := key{op.Scope, op.Suite}
		if idx[k] == nil {
			sx := &scopeIdx{byFunc: map[string][]*Op{}, byName: map[string][]*Op{}, byWrapper: map[string][]*Op{}}
			if k.scope != nil {
				for _, pat := range k.scope.Tests {
					sx.tests = append(sx.tests, layout.ExpandSuite(pat, k.suite))
				}
				for _, pat := range k.scope.Benchmarks {
					sx.benchmarks = append(sx.benchmarks, layout.ExpandSuite(pat, k.suite))
				}
			}
			idx[k] = sx
			keys = append(keys, k)
		}
	}
	implsByFile := map[string][]*Impl{}
	for _, impl := range b.table.Impls {
		implsByFile[impl.File.Path] = append(implsByFile[impl.File.Path], impl)
	}
	var wrappers map[*Op][]string
	if known := b.repo.Wrappers; known != nil {
		wrappers = map[*Op][]string{}
		for _, op := range b.table.Ops {
			if w, ok := known[op.Name]; ok {
				wrappers[op] = w
			}
		}
	} else {
		wrappers = b.opWrappers()
	}
	b.table.Wrappers = wrappers
	apisOf := map[key][]string{}
	for _, op := range b.table.Ops {
		k := key{op.Scope, op.Suite}
		sx := idx[k]
		sx.byFunc[op.Func] = append(sx.byFunc[op.Func], op)
		if op.Scope == nil {
			continue
		}
		apis, ok := apisOf[k]
		if !ok {
			apis = APIModules(k.scope, k.suite)
			apisOf[k] = apis
		}
		for _, api := range apis {
			sx.byName[api+"."+op.Func] = append(sx.byName[api+"."+op.Func], op)
			// A stub whose function name differs from its dispatch
			// name (TG102) is imported under the function's name.
			if op.Stub != nil && op.Stub.Def.Name != op.Func {
				q := api + "." + op.Stub.Def.Name
				sx.byName[q] = append(sx.byName[q], op)
			}
		}
		for _, w := range wrappers[op] {
			sx.byWrapper[w] = append(sx.byWrapper[w], op)
		}
		// A file that uses a backend function of the op (imports it from
		// its module) exercises the op too.
		for _, q := range ImplFuncQNames(op) {
			sx.byName[q] = append(sx.byName[q], op)
		}
	}
	// Scopes in a fixed order, so that the files of each op keep theirs.
	sort.SliceStable(keys, func(i, j int) bool {
		a, c := keys[i], keys[j]
		if a.scope != c.scope {
			return a.scope != nil && (c.scope == nil || a.scope.Name < c.scope.Name)
		}
		return a.suite < c.suite
	})
	// The keys whose tests or benchmarks a path matches, found with one
	// match per scope rather than per key (see layout.BindingIndex).
	list := make([]layout.Binding, len(keys))
	for i, k := range keys {
		list[i] = layout.Binding{Scope: k.scope, Suite: k.suite}
	}
	index := layout.NewBindingIndex(list, func(sc *layout.Scope) []string { return slices.Concat(sc.Tests, sc.Benchmarks) })
	keysOf := func(p string) []key {
		var out []key
		for _, i := range index.Match(p) {
			out = append(out, keys[i])
		}
		return out
	}
	b.table.about = map[string]map[*Op]bool{}
	for _, f := range b.files() {
		var served []*Op
		seen := map[*Op]bool{}
		add := func(ops []*Op) {
			for _, op := range ops {
				if !seen[op] {
					seen[op] = true
					served = append(served, op)
				}
			}
		}
		isTestFile := false
		for _, k := range keysOf(f.Path) {
			sx := idx[k]
			isTest := layout.MatchAnyPath(sx.tests, f.Path)
			isBench := !isTest && layout.MatchAnyPath(sx.benchmarks, f.Path)
			if !isTest && !isBench {
				continue
			}
			isTestFile = isTest
			base := strings.TrimSuffix(path.Base(f.Path), ".py")
			if isTest && strings.HasPrefix(base, "test_") {
				add(sx.byFunc[base[len("test_"):]])
			}
			if isBench && strings.HasPrefix(base, "bench_") {
				add(sx.byFunc[base[len("bench_"):]])
			}
			for _, n := range b.usedNames(f) {
				add(sx.byName[n])
				if isTest {
					add(sx.byWrapper[n])
				}
			}
			if isBench {
				for _, impl := range implsByFile[f.Path] {
					if op := b.table.ByName[impl.Op]; op != nil && op.Scope == k.scope && op.Suite == k.suite {
						add([]*Op{op})
					}
				}
			}
		}
		if len(served) == 0 {
			continue
		}
		sort.Slice(served, func(i, j int) bool { return served[i].Name < served[j].Name })
		for _, op := range served {
			if isTestFile {
				op.Tests = append(op.Tests, f)
			} else {
				op.Benchmarks = append(op.Benchmarks, f)
			}
		}
		if about := aboutOps(f, served, implsByFile[f.Path]); len(about) < len(served) {
			set := map[*Op]bool{}
			for _, op := range about {
				set[op] = true
			}
			b.table.about[f.Path] = set
		}
	}
	// A test or benchmark that does not parse still belongs to the op it is
	// named after: the parse error (TG001) is its one finding, not also a
	// missing file (TG401/TG501). The Step 4-5 kinds skip unparsed files.
	for _, p := range b.repo.Paths {
		f := b.repo.Files[p]
		if f == nil || f.AST != nil && f.AST.Module != nil {
			continue
		}
		base := strings.TrimSuffix(path.Base(f.Path), ".py")
		for _, k := range keysOf(f.Path) {
			isTest := layout.MatchBound(k.scope.Tests, k.suite, f.Path)
			isBench := layout.MatchBound(k.scope.Benchmarks, k.suite, f.Path)
			switch {
			case isTest && strings.HasPrefix(base, "test_"):
				for _, op := range idx[k].byFunc[base[len("test_"):]] {
					op.Tests = append(op.Tests, f)
				}
			case isBench && strings.HasPrefix(base, "bench_"):
				for _, op := range idx[k].byFunc[base[len("bench_"):]] {
					op.Benchmarks = append(op.Benchmarks, f)
				}
			}
		}
	}
}

// ImplFuncQNames returns the qualified names of the functions registered
// for an op by its implementations ("tilegym.ops.cutile.softmax.softmax").
func ImplFuncQNames(op *Op) []string {
	var out []string
	for _, im := range op.Impls {
		if im.Def != nil {
			if m := astutil.ModulePath(im.File.Path); m != "" {
				out = append(out, m+"."+im.Def.Name)
			}
		}
	}
	return out
}

// aboutOps returns the ops, among those a test or benchmark file serves,
// that the file is about; the others it merely calls (a baseline the
// benchmark compares with, an op the test uses to build its input). The
// evidence, strongest first:
//  1. names: each name the file gives itself — its file name
//     (bench_<func>.py), its benchmark or test functions (bench_<func>...)
//     and its test classes (Test<Func>...) — names the op(s) whose function
//     name it matches best: most of the op's name parts found in it, then
//     fewest not found (bench_flash_decode_fused.py is about
//     fmha_decode_fused, not its baseline fmha_decode); a file with one
//     benchmark function per op is about each;
//  2. the ops whose reference the file registers (register_impl);
//  3. else every op it serves.
//
// The names are matched through an index of the served ops' name parts
// (partIndex), not against every op; aboutOpsScan is the reference.
func aboutOps(f *source.File, served []*Op, impls []*Impl) []*Op {
	if len(served) <= 1 {
		return served
	}
	return aboutFrom(served, impls, newPartIndex(served).bestOps(aboutNames(f)))
}

// aboutNames returns the names a test or benchmark file gives itself: its
// file name, its bench_/test_ functions and its Test classes (snake_case).
func aboutNames(f *source.File) []string {
	names := []string{strings.TrimSuffix(path.Base(f.Path), ".py")}
	if f.AST != nil && f.AST.Module != nil {
		for _, s := range f.AST.Module.Body {
			switch d := s.(type) {
			case *ast.FunctionDef:
				if strings.HasPrefix(d.Name, "bench_") || strings.HasPrefix(d.Name, "test_") {
					names = append(names, d.Name)
				}
			case *ast.ClassDef:
				if strings.HasPrefix(d.Name, "Test") {
					names = append(names, snakeCase(d.Name))
				}
			}
		}
	}
	return names
}

// aboutFrom returns the served ops of aboutSet (the ops the file's names
// name), else those whose reference the file registers, else all.
func aboutFrom(served []*Op, impls []*Impl, aboutSet map[*Op]bool) []*Op {
	var out []*Op
	for _, op := range served {
		if aboutSet[op] {
			out = append(out, op)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, op := range served {
		for _, im := range impls {
			if im.Op == op.Name {
				out = append(out, op)
				break
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	return served
}

// nameParts splits a snake_case name into its lower-case words, without
// the test/bench prefix words.
func nameParts(s string) []string {
	var out []string
	for _, w := range strings.Split(strings.ToLower(s), "_") {
		if w != "" && w != "test" && w != "bench" {
			out = append(out, w)
		}
	}
	return out
}

// snakeCase turns a CamelCase class name into snake_case ("TestFMHADecode"
// -> "test_fmha_decode").
func snakeCase(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		upper := r >= 'A' && r <= 'Z'
		if upper && i > 0 {
			prevLower := rs[i-1] >= 'a' && rs[i-1] <= 'z' || rs[i-1] >= '0' && rs[i-1] <= '9'
			nextLower := i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z'
			if prevLower || nextLower && rs[i-1] >= 'A' && rs[i-1] <= 'Z' {
				b.WriteByte('_')
			}
		}
		if upper {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// usedNames returns the qualified names a file imports or mentions
// (Name/Attribute chains with imports resolved, and every prefix of them),
// sorted, each once.
func (b *opTableBuilder) usedNames(f *source.File) []string {
	return UsedNamesFact.Of(f)
}

// UsedNamesFact is BuildUsedNames of a file, computed once; the list is
// shared: callers must not modify it.
var UsedNamesFact = source.NewFact(BuildUsedNames)

// BuildUsedNames returns the names usedNames describes. They are a sorted
// list rather than a set: every reader goes through all of them in order,
// and the list, kept as long as the file, is a third of a map's size.
func BuildUsedNames(f *source.File) []string {
	im := f.Imports()
	var out []string
	addAll := func(q string) {
		for {
			out = append(out, q)
			i := strings.LastIndexByte(q, '.')
			if i < 0 {
				return
			}
			q = q[:i]
		}
	}
	for _, q := range im.Local {
		addAll(q)
	}
	// The attributes InspectFile reaches without entering an attribute.
	for _, at := range f.Attributes() {
		if q, imported := im.Resolve(at); imported {
			addAll(q)
		}
	}
	sort.Strings(out)
	out = slices.Compact(out)
	return append(make([]string, 0, len(out)), out...)
}

// findSkips reads the skip directives of each op: comments on the lines of
// its dispatch stub (or directly above its decorators), anywhere in the
// modules of its cuTile implementations, and the configuration's skips.
func (b *opTableBuilder) findSkips() {
	for _, op := range b.table.Ops {
		if op.Stub != nil {
			f := op.Stub.File
			start := StubStartLine(op.Stub)
			end := op.Stub.Def.End().Line
			// Extend upwards over a run of comment lines directly above.
			lines := CommentLines(f)
			for start > 1 && lines[start-1] {
				start--
			}
			op.Skips = append(op.Skips, b.skipsIn(f, start, end)...)
		}
		seen := map[string]bool{}
		for _, impl := range op.ImplsFor(b.names.CuTileBackend) {
			if impl.Module == "" || seen[impl.File.Path] {
				continue
			}
			seen[impl.File.Path] = true
			op.Skips = append(op.Skips, b.skipsOf(impl.File).list...)
		}
		if b.repo.ConfigSkips != nil {
			op.Skips = append(op.Skips, b.repo.ConfigSkips[op.Name]...)
		}
	}
}

// commentsScanned counts the comments the op table's builders read for
// skip directives (a test checks that each is read once per file, not once
// per op of the file).
var commentsScanned atomic.Int64

// skipsOf returns the skip directives of f in source order, read once per
// file: a dispatch file or cuTile module holds the directives of many ops,
// and reading all of its comments per op made the table quadratic in them.
func (b *opTableBuilder) skipsOf(f *source.File) fileSkips {
	if sk, ok := b.skips[f]; ok {
		return sk
	}
	var out []Skip
	for _, c := range f.AST.Comments {
		if sk, ok := ParseSkip(b.names.Directive, c); ok {
			sk.File = f.Path
			out = append(out, sk)
		}
	}
	commentsScanned.Add(int64(len(f.AST.Comments)))
	sk := fileSkips{out, sort.SliceIsSorted(out, func(i, j int) bool { return out[i].Pos.Line < out[j].Pos.Line })}
	if b.skips == nil {
		b.skips = map[*source.File]fileSkips{}
	}
	b.skips[f] = sk
	return sk
}

// skipsIn returns the skip directives of f on lines start to end, in
// source order.
func (b *opTableBuilder) skipsIn(f *source.File, start, end int) []Skip {
	fs := b.skipsOf(f)
	if !fs.inOrder {
		return b.skipsInScan(f, start, end) // the tokenizer keeps comments in order: never taken
	}
	sk := fs.list
	i := sort.Search(len(sk), func(i int) bool { return sk[i].Pos.Line >= start })
	j := i
	for j < len(sk) && sk[j].Pos.Line <= end {
		j++
	}
	return sk[i:j:j]
}

// skipsInScan is skipsIn reading every comment of f: the reference for
// skipsIn, and its way when the comments are out of order.
func (b *opTableBuilder) skipsInScan(f *source.File, start, end int) []Skip {
	var out []Skip
	for _, c := range f.AST.Comments {
		if c.Pos.Line >= start && c.Pos.Line <= end {
			if sk, ok := ParseSkip(b.names.Directive, c); ok {
				sk.File = f.Path
				out = append(out, sk)
			}
		}
	}
	commentsScanned.Add(int64(len(f.AST.Comments)))
	return out
}

// StubStartLine is the first line of a stub: its first decorator.
func StubStartLine(st *Stub) int {
	line := st.Def.Pos().Line
	for _, d := range st.Def.DecoratorList {
		if l := d.Pos().Line; l < line {
			// The '@' is on the decorator's line.
			line = l
		}
	}
	return line
}

// CommentLines returns the lines of f that hold only a comment (computed
// once per file; the map is shared and must not be modified).
func CommentLines(f *source.File) map[int]bool {
	return f.CommentLines()
}

// ParseSkip parses a skip directive `# tilegym-lint: skip-step=N
// reason="..."`. ok is false when the comment is not a skip directive. A
// directive with a step that is not a number keeps Step 0; one without a
// reason keeps Reason ""; one whose quoted reason is not closed has
// Unclosed set.
func ParseSkip(directive string, c ast.Comment) (Skip, bool) {
	text := strings.TrimSpace(strings.TrimPrefix(c.Text, "#"))
	rest, ok := strings.CutPrefix(text, directive)
	if !ok {
		return Skip{}, false
	}
	rest = strings.TrimSpace(rest)
	v, ok := strings.CutPrefix(rest, "skip-step")
	if !ok {
		return Skip{}, false
	}
	sk := Skip{Pos: c.Pos, Text: c.Text}
	v = strings.TrimLeft(v, " ")
	v, ok = strings.CutPrefix(v, "=")
	if !ok {
		return sk, true
	}
	v = strings.TrimLeft(v, " ")
	num := v
	if i := strings.IndexAny(v, " \t"); i >= 0 {
		num, v = v[:i], v[i:]
	} else {
		v = ""
	}
	if n, err := strconv.Atoi(num); err == nil {
		sk.Step = n
	}
	sk.Reason, sk.Unclosed = DirectiveReason(v)
	return sk, true
}

// DirectiveReason reads the `reason="..."` of a directive's rest (single or
// double quotes, or a bare word list to the end); unclosed says the quote
// opened and did not close. Bytes that are not UTF-8 (Python accepts them
// in comments) become U+FFFD: the reason is shown in every report.
func DirectiveReason(v string) (reason string, unclosed bool) {
	r, ok := strings.CutPrefix(strings.TrimSpace(v), "reason")
	if !ok {
		return "", false
	}
	if r, ok = strings.CutPrefix(strings.TrimSpace(r), "="); !ok {
		return "", false
	}
	r = strings.TrimSpace(r)
	if len(r) >= 1 && (r[0] == '"' || r[0] == '\'') {
		q := r[0]
		if j := strings.IndexByte(r[1:], q); j >= 0 {
			r = r[1 : 1+j]
		} else {
			r, unclosed = r[1:], true
		}
	}
	return strings.ToValidUTF8(strings.TrimSpace(r), "\uFFFD"), unclosed
}

// opWrappers returns, per op, the qualified names of the public wrappers
// that call it: module-level functions and classes of the scope's
// interface modules (the Python files directly in an API package, such as
// src/tilegym/ops/attn_interface.py) whose code calls the op through
// dispatch, directly or through other such wrappers (fused_moe ->
// _call_fused_experts_impl -> moe_align_block_size). A test of
// `tilegym.ops.fmha_interface` tests `fmha`. Each wrapper is named in its
// module and in each API package (re-exports). Used by the op table's test
// and benchmark association. A wrapper of several ops is left out (a
// composite does not credit its parts).
func (b *opTableBuilder) opWrappers() map[*Op][]string {
	type def struct {
		file *source.File
		name string
		node ast.Stmt
	}
	byPkg := map[string][]def{}
	for _, f := range b.files() {
		pkg := astutil.PackagePath(f.Path)
		if pkg == "" || path.Base(f.Path) == "__init__.py" {
			continue
		}
		for _, s := range f.AST.Module.Body {
			switch d := s.(type) {
			case *ast.FunctionDef:
				byPkg[pkg] = append(byPkg[pkg], def{f, d.Name, s})
			case *ast.ClassDef:
				byPkg[pkg] = append(byPkg[pkg], def{f, d.Name, s})
			}
		}
	}
	// What the definitions of each package call, to skip at once the ops
	// that no definition calls (most of them).
	type pkgCalls struct {
		q    map[string]bool                  // resolved callees
		bare map[*source.File]map[string]bool // bare-name callees, by file
	}
	calls := map[string]*pkgCalls{}
	callsOf := func(pkg string) *pkgCalls {
		if pc := calls[pkg]; pc != nil {
			return pc
		}
		pc := &pkgCalls{q: map[string]bool{}, bare: map[*source.File]map[string]bool{}}
		for _, d := range byPkg[pkg] {
			for _, c := range source.Callees(d.file, d.node) {
				pc.q[c.Q] = true
				if c.Bare {
					if pc.bare[d.file] == nil {
						pc.bare[d.file] = map[string]bool{}
					}
					pc.bare[d.file][c.Name] = true
				}
			}
		}
		calls[pkg] = pc
		return pc
	}
	out := map[*Op][]string{}
	for _, op := range b.table.Ops {
		if op.Scope == nil {
			continue
		}
		apis := APIModules(op.Scope, op.Suite)
		ndefs := 0
		for _, m := range apis {
			ndefs += len(byPkg[m])
		}
		if ndefs == 0 {
			continue
		}
		called := false
		for _, m := range apis {
			pc := callsOf(m)
			for _, a := range apis {
				if pc.q[a+"."+op.Func] {
					called = true
				}
			}
			if op.Stub != nil && pc.bare[op.Stub.File][op.Func] {
				called = true
			}
		}
		if !called {
			continue // no wrapper: nothing calls the op
		}
		var defs []def
		for _, m := range apis {
			defs = append(defs, byPkg[m]...)
		}
		// names: qualified names that reach the op; local: per file, bare
		// names of wrappers defined there (and the stub itself).
		names := map[string]bool{}
		for _, m := range apis {
			names[m+"."+op.Func] = true
		}
		local := map[*source.File]map[string]bool{}
		if op.Stub != nil {
			local[op.Stub.File] = map[string]bool{op.Func: true}
		}
		isWrapper := map[ast.Stmt]bool{}
		for changed := true; changed; {
			changed = false
			for _, d := range defs {
				if isWrapper[d.node] || (op.Stub != nil && d.file == op.Stub.File && d.name == op.Func) {
					continue
				}
				for _, c := range source.Callees(d.file, d.node) {
					if names[c.Q] || c.Bare && local[d.file][c.Name] {
						isWrapper[d.node] = true
						break
					}
				}
				if !isWrapper[d.node] {
					continue
				}
				changed = true
				if local[d.file] == nil {
					local[d.file] = map[string]bool{}
				}
				local[d.file][d.name] = true
				qs := []string{astutil.ModulePath(d.file.Path) + "." + d.name}
				for _, m := range apis {
					qs = append(qs, m+"."+d.name)
				}
				for _, q := range qs {
					names[q] = true
				}
				out[op] = append(out[op], qs...)
			}
		}
	}
	// A wrapper of several ops (a fused MLP class, a MoE pipeline) is a
	// composite: using it does not test any one of them, so it credits
	// none (a test of the op itself must exist, S4.1).
	count := map[string]int{}
	for _, ws := range out {
		for _, w := range ws {
			count[w]++
		}
	}
	for op, ws := range out {
		keep := ws[:0]
		for _, w := range ws {
			if count[w] == 1 {
				keep = append(keep, w)
			}
		}
		if len(keep) == 0 {
			delete(out, op)
		} else {
			out[op] = keep
		}
	}
	return out
}

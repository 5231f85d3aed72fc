package optable

// Which op each test and benchmark file belongs to: by its name, by the
// API modules and public wrappers it reaches the op through, by what it
// registers.

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

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

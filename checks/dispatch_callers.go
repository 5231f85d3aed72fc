package checks

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// DispatchCallersAnalyzer implements kind "dispatch-callers".
var DispatchCallersAnalyzer = &Analyzer{
	Name:         "dispatch-callers",
	Placeholders: []string{"op", "file", "name", "dispatch"},
	Texts:        []string{"no-dispatch-file"},
	Doc: `Reports tests and benchmarks that use a dispatch entry point that does not exist.

A test or benchmark reaches an op through its scope's public API
(tilegym.ops.<name>, an import from it). When <name> is no op of the scope
and nothing else the API defines (a function, class, variable or import of
the dispatch files and the API package's __init__.py, or a sub-module), the
use is reported: one finding per file and name, charged to the op the name
would be. An API package whose __init__.py is absent or imports * from a
module that is not in the snapshot is not judged (its names are unknown).`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Run:      runDispatchCallers,
}

// apiNames is what one public API module defines; open when unknown.
type apiNames struct {
	names map[string]bool
	open  bool
}

func runDispatchCallers(pass *Pass) (any, error) {
	tab := opTableOf(pass)
	if tab == nil || pass.Repo.Layout == nil {
		return nil, nil
	}
	type binding struct {
		scope *layout.Scope
		suite string
	}
	// The scope bindings that have ops; per binding, its API modules.
	var bindings []binding
	seen := map[binding]bool{}
	for _, sc := range pass.Repo.Layout.Scopes {
		if b := (binding{sc, ""}); !sc.HasSuite() && !seen[b] {
			seen[b] = true
			bindings = append(bindings, b)
		}
	}
	for _, op := range tab.Ops {
		b := binding{op.Scope, op.Suite}
		if op.Scope != nil && !seen[b] {
			seen[b] = true
			bindings = append(bindings, b)
		}
	}
	// The test and benchmark files of each binding, in path order.
	list := make([]layout.Binding, len(bindings))
	for i, b := range bindings {
		list[i] = layout.Binding{Scope: b.scope, Suite: b.suite}
	}
	index := layout.NewBindingIndex(list, func(sc *layout.Scope) []string { return slices.Concat(sc.Tests, sc.Benchmarks) })
	filesOf := map[binding][]*source.File{}
	for _, p := range pass.Repo.Paths {
		f := pass.Repo.Files[p]
		if f == nil || f.AST == nil || f.AST.Module == nil {
			continue
		}
		for _, i := range index.Match(p) {
			filesOf[bindings[i]] = append(filesOf[bindings[i]], f)
		}
	}
	for _, rule := range pass.Rules {
		for _, b := range bindings {
			apis := optable.APIModules(b.scope, b.suite)
			// Longest first: tilegym.ops.ops before tilegym.ops.
			sort.SliceStable(apis, func(i, j int) bool { return len(apis[i]) > len(apis[j]) })
			defined := map[string]*apiNames{}
			for _, api := range apis {
				defined[api] = definedNames(pass.Repo, api)
			}
			for _, f := range filesOf[b] {
				reported := map[string]bool{}
				report := func(n ast.Node, api, name string) {
					op := name
					if b.suite != "" {
						op = b.suite + "." + name
					}
					// An op without its stub (TG107) has no entry point either.
					if o := tab.ByName[op]; o != nil && o.Stub != nil || reported[op] || !pass.Wants(op) {
						return
					}
					reported[op] = true
					vars := map[string]string{"name": api + "." + name, "dispatch": firstDispatchFile(b.scope, b.suite)}
					if vars["dispatch"] == "" {
						vars["dispatch"] = analysis.RenderText(rule, "no-dispatch-file", op, vars)
					}
					reportAt(pass, rule, op, f, n, vars, nil, nil)
				}
				// missing returns the API and the undefined name that a
				// qualified name q reaches, if any.
				missing := func(q string) (string, string, bool) {
					for _, api := range apis {
						rest, ok := strings.CutPrefix(q, api+".")
						if !ok {
							continue
						}
						name, _, _ := strings.Cut(rest, ".")
						d := defined[api]
						if d.open || d.names[name] {
							return "", "", false
						}
						return api, name, true
					}
					return "", "", false
				}
				im := f.Imports()
				pkg := astutil.PackagePath(f.Path)
				for _, n := range f.Nodes() {
					s, ok := n.(*ast.ImportFrom)
					if !ok {
						continue
					}
					mod := astutil.ImportFromModule(pkg, s)
					for _, a := range s.Names {
						if a == nil || a.Name == "*" {
							continue
						}
						if api, name, bad := missing(astutil.JoinDotted(mod, a.Name)); bad {
							report(s, api, name)
						}
					}
				}
				for _, at := range f.Attributes() {
					d := astutil.DottedName(at)
					head, _, _ := strings.Cut(d, ".")
					bound, ok := im.Local[head]
					if !ok {
						continue
					}
					q, _ := im.Resolve(at)
					api, name, bad := missing(q)
					// A name imported from the API was judged at its import.
					if bad && len(bound) <= len(api) {
						report(at, api, name)
					}
				}
			}
		}
	}
	return nil, nil
}

// definedNames returns the names a public API module defines: for a
// module file, its top-level names; for a package, those of its
// __init__.py (with the names of the modules it imports * from) and its
// sub-modules.
func definedNames(repo *optable.Repo, api string) *apiNames {
	out := &apiNames{names: map[string]bool{}}
	rel := strings.ReplaceAll(api, ".", "/")
	var file string
	for _, p := range []string{"src/" + rel + ".py", rel + ".py"} {
		if repo.HasPath(p) {
			file = p
		}
	}
	isPkg := false
	for _, p := range []string{"src/" + rel + "/__init__.py", rel + "/__init__.py"} {
		if repo.HasPath(p) {
			file, isPkg = p, true
		}
	}
	if file == "" {
		out.open = true
		return out
	}
	f := repo.Files[file]
	if f == nil || f.AST == nil || f.AST.Module == nil {
		out.open = true
		return out
	}
	addTopLevel(repo, f, out, true)
	if isPkg {
		// The paths under dir, contiguous in the sorted Paths.
		dir := path.Dir(file) + "/"
		for _, p := range repo.Paths[sort.SearchStrings(repo.Paths, dir):] {
			rest, ok := strings.CutPrefix(p, dir)
			if !ok {
				break
			}
			first, _, _ := strings.Cut(rest, "/")
			out.names[strings.TrimSuffix(first, ".py")] = true
		}
	}
	return out
}

// addTopLevel adds the names a module binds at top level (in if/try
// blocks too); star imports add the names of the imported module, once.
func addTopLevel(repo *optable.Repo, f *source.File, out *apiNames, follow bool) {
	pkg := astutil.PackagePath(f.Path)
	astutil.EachTopLevel(f.AST.Module.Body, func(s ast.Stmt) {
		switch s := s.(type) {
		case *ast.FunctionDef:
			out.names[s.Name] = true
		case *ast.AsyncFunctionDef:
			out.names[s.Name] = true
		case *ast.ClassDef:
			out.names[s.Name] = true
		case *ast.Import:
			for _, a := range s.Names {
				if a == nil {
					continue
				}
				n := a.Name
				if a.Asname != nil {
					n = *a.Asname
				}
				head, _, _ := strings.Cut(n, ".")
				out.names[head] = true
			}
		case *ast.ImportFrom:
			for _, a := range s.Names {
				if a == nil {
					continue
				}
				if a.Name == "*" {
					g := moduleFile(repo, astutil.ImportFromModule(pkg, s))
					if !follow || g == nil {
						out.open = true
						continue
					}
					addTopLevel(repo, g, out, false)
					continue
				}
				n := a.Name
				if a.Asname != nil {
					n = *a.Asname
				}
				out.names[n] = true
			}
		default:
			for _, t := range assignTargets(s) {
				out.names[t] = true
			}
		}
	})
}

// moduleFile returns the parsed file of a dotted module, or nil.
func moduleFile(repo *optable.Repo, mod string) *source.File {
	rel := strings.ReplaceAll(mod, ".", "/")
	for _, p := range []string{"src/" + rel + ".py", rel + ".py", "src/" + rel + "/__init__.py", rel + "/__init__.py"} {
		if f := repo.Files[p]; f != nil && f.AST != nil && f.AST.Module != nil {
			return f
		}
	}
	return nil
}

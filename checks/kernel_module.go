package checks

import (
	"errors"
	"path"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// KernelModuleAnalyzer implements kind "kernel-module".
var KernelModuleAnalyzer = &Analyzer{
	Name:         "kernel-module",
	Placeholders: []string{"op", "file", "kernels", "state", "fix", "name", "init"},
	Texts:        []string{"not-imported", "exported", "register", "register-import", "unnamed"},
	Doc: `Reports a cuTile module that defines kernels but registers no op.

A module under a cuTile package that defines a kernel (a function decorated
with one of the rule's kernel names) serves an op only through a
register_impl of its own, or by being imported by another module (a kernel
library the registering modules call); the package's __init__.py importing
it does not count. A module doing neither is reported. A module with a test
or benchmark named after it is the module of an op being added (the op table
names the op after it): its finding is that op's. Other findings are of no
op (kept, when ops are selected, for the files of those ops; in change mode,
for changed files).`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(kernelModuleParams) },
	Run:      runKernelModule,
}

type kernelModuleParams struct {
	Kernel []string `toml:"kernel"` // qualified names of the kernel decorator
}

func runKernelModule(pass *Pass) (any, error) {
	tab := opTableOf(pass)
	if tab == nil || pass.Repo.Layout == nil {
		return nil, nil
	}
	registers := map[string]bool{}
	for _, im := range tab.Impls {
		registers[im.File.Path] = true
	}
	inits := map[string]bool{} // the cuTile __init__.py files
	for _, in := range tab.Inits {
		inits[in.File.Path] = true
	}
	// The modules each parsed file of the library imports: not the cuTile
	// __init__s (they export), nor tests and benchmarks (they use).
	imported := map[string]bool{}
	for _, p := range pass.Repo.Paths {
		f := pass.Repo.Files[p]
		if f == nil || f.AST == nil || f.AST.Module == nil || inits[p] || layout.StepPath(pass.Repo.Layout, p) {
			continue
		}
		for _, q := range f.Imports().Local {
			for q != "" {
				imported[q] = true
				i := strings.LastIndexByte(q, '.')
				if i < 0 {
					break
				}
				q = q[:i]
			}
		}
	}
	// The modules of the ops being added that register nothing yet
	// (optable's addUnregisteredOps): their findings are their op's.
	opOf := map[string]string{}
	for _, op := range tab.Ops {
		for _, im := range op.Impls {
			if im.Unregistered {
				opOf[im.File.Path] = op.Name
			}
		}
	}
	var exports *initExports // built at the first module that needs it
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*kernelModuleParams)
		if p == nil {
			continue
		}
		for _, fp := range pass.Repo.Paths {
			f := pass.Repo.Files[fp]
			if f == nil || f.AST == nil || f.AST.Module == nil || path.Base(fp) == "__init__.py" || registers[fp] {
				continue
			}
			if !inCuTilePackage(pass.Repo.Layout, fp) || imported[astutil.ModulePath(fp)] {
				continue
			}
			if len(rule.Files) > 0 && !layout.MatchBound(rule.Files, "", fp) {
				continue
			}
			im := f.Imports()
			var kernels []string
			var first *ast.FunctionDef
			for _, fd := range astutil.TopLevelFuncs(f.AST) {
				if _, _, ok := im.Decorator(fd.DecoratorList, p.Kernel); ok {
					kernels = append(kernels, fd.Name)
					if first == nil || fd.Pos().Before(first.Pos()) {
						first = fd
					}
				}
			}
			if first == nil {
				continue
			}
			sort.Strings(kernels)
			if exports == nil {
				exports = newInitExports(tab)
			}
			init, importer := exports.exportingInit(fp)
			op := opOf[fp]
			if op != "" && !pass.Wants(op) {
				continue
			}
			vars := map[string]string{"kernels": strings.Join(kernels, ", "), "name": op, "init": init}
			if op == "" {
				vars["name"] = analysis.RenderText(rule, "unnamed", op, vars)
			}
			state, fix := "not-imported", "register-import"
			if importer {
				state, fix = "exported", "register"
			} else if init == "" {
				vars["init"] = path.Dir(fp) + "/__init__.py"
			}
			vars["state"] = analysis.RenderText(rule, state, op, vars)
			vars["fix"] = analysis.RenderText(rule, fix, op, vars)
			reportAt(pass, rule, op, f, defNode(first), vars, nil, nil)
		}
	}
	return nil, nil
}

// inCuTilePackage reports whether p is inside the cuTile package of a
// layout scope.
func inCuTilePackage(l *layout.Layout, p string) bool {
	for _, sc := range l.Scopes {
		if sc.CuTile == "" {
			continue
		}
		root := strings.TrimSuffix(sc.CuTile, "/")
		if _, ok := layout.MatchPath(root+"/**", p); ok {
			return true
		}
	}
	return false
}

// initExports indexes the cuTile __init__.py files of a table by
// directory, each with the set of modules it imports, so that finding the
// one exporting a module looks up the module's ancestor directories
// instead of scanning every init and its imports (quadratic in the modules
// of a package, and in the suites).
type initExports struct {
	inits []*optable.Init
	byDir map[string][]int  // directory -> indexes in inits
	mods  []map[string]bool // the modules each init imports
}

func newInitExports(tab *optable.OpTable) *initExports {
	x := &initExports{inits: tab.Inits, byDir: map[string][]int{}, mods: make([]map[string]bool, len(tab.Inits))}
	for i, in := range tab.Inits {
		dir := path.Dir(in.File.Path)
		x.byDir[dir] = append(x.byDir[dir], i)
		m := map[string]bool{}
		for _, list := range [][]*optable.InitImport{in.ModuleImports, in.FuncImports} {
			for _, ii := range list {
				m[ii.Module] = true
			}
		}
		x.mods[i] = m
	}
	return x
}

// exportingInit returns the cuTile __init__.py that imports the module
// file fp (importer true; the first such in the table's order), else the
// outermost cuTile __init__.py above it, where its import belongs.
func (x *initExports) exportingInit(fp string) (string, bool) {
	var above []int // the inits of fp's ancestor directories
	for i := strings.IndexByte(fp, '/'); i >= 0; {
		if dir := fp[:i]; dir != "" {
			above = append(above, x.byDir[dir]...)
		}
		j := strings.IndexByte(fp[i+1:], '/')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	sort.Ints(above)
	outer := ""
	for _, i := range above {
		in := x.inits[i]
		if outer == "" || len(in.File.Path) < len(outer) {
			outer = in.File.Path
		}
		if x.mods[i][optable.ModuleUnder(path.Dir(in.File.Path), fp)] {
			return in.File.Path, true
		}
	}
	return outer, false
}

func (p *kernelModuleParams) Validate() error {
	if len(p.Kernel) == 0 {
		return errors.New("kernel: want the qualified names of the kernel decorator")
	}
	return nil
}

package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// ImplKernelAnalyzer implements kind "impl-kernel".
var ImplKernelAnalyzer = opKind(&Analyzer{
	Doc: `Reports a cuTile module that defines no kernel and imports none.

The module defines a function decorated with one of "kernel", or imports a
module of the repository that does. A module not importing "tile_module"
(impl-imports' finding) is reported only when no function of it is decorated
as a kernel under any name. It reports once per module, for the first op it
registers.`,
	Name:         "impl-kernel",
	Placeholders: []string{"op", "file", "kernel"},
}, runImplKernel)

type implKernelParams struct {
	Kernel     []string `toml:"kernel"`
	TileModule string   `toml:"tile_module"`
}

func (p *implKernelParams) Validate() error { return needEntries("kernel", p.Kernel) }

func runImplKernel(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *implKernelParams) {
	for _, m := range wantedModules(pass, tab) {
		im := m.file.Imports()
		if p.TileModule != "" && !im.Imported(p.TileModule) {
			// TG202 asks for the import; a kernel under another name
			// (`import cuda_tile_shim as ct`, `@ct.kernel`) is there.
			if decoratedKernel(m.file.AST) {
				continue
			}
		} else if len(kernelDefs(m.file, im, p.Kernel)) > 0 || importsKernelModule(pass.Repo, m.file, im, p.Kernel) {
			continue
		}
		first := m.impls[0]
		reportAt(pass, rule, first.Op, m.file, implCallee(first), map[string]string{"kernel": firstOr(p.Kernel, "")}, nil, nil)
	}
}

// importsKernelModule reports whether a file imports names from another
// module of the snapshot that defines a kernel (kernels shared between
// cuTile modules, e.g. `from .jsd import _jsd_kernel`).
func importsKernelModule(repo *optable.Repo, f *source.File, im *astutil.Imports, kernel []string) bool {
	mods := map[string]bool{}
	for _, q := range im.Local {
		mods[q] = true
		if i := strings.LastIndexByte(q, '.'); i >= 0 {
			mods[q[:i]] = true
		}
	}
	for _, p := range repo.Paths {
		other := repo.Files[p]
		if other == nil || other == f || other.AST == nil || !mods[astutil.ModulePath(p)] {
			continue
		}
		if len(kernelDefs(other, other.Imports(), kernel)) > 0 {
			return true
		}
	}
	return false
}

// decoratedKernel reports whether a module-level function of f has a
// decorator named kernel, however qualified (`@ct.kernel`, `@kernel(...)`).
func decoratedKernel(f *ast.File) bool {
	if f == nil || f.Module == nil {
		return false
	}
	for _, st := range f.Module.Body {
		fd, ok := st.(*ast.FunctionDef)
		if !ok {
			continue
		}
		for _, d := range fd.DecoratorList {
			if c, isCall := d.(*ast.Call); isCall {
				d = c.Func
			}
			name := astutil.DottedName(d)
			if name == "kernel" || strings.HasSuffix(name, ".kernel") {
				return true
			}
		}
	}
	return false
}

package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

var ImplKernelAnalyzer = registerOpKind(&Analyzer{
	Doc: `Checks that every cuTile module defines a kernel (S2.3).

The module (one importing "tile_module") defines a function decorated with
one of "kernel", or imports a module of the repository that does. It reports
once per module, for the first op it registers.`,
	Name:         "impl-kernel",
	Placeholders: []string{"op", "file", "kernel"},
}, runImplKernel)

type implKernelParams struct {
	Kernel     []string `toml:"kernel"`
	TileModule string   `toml:"tile_module"`
}

func (p *implKernelParams) Validate() error { return needEntries("kernel", p.Kernel) }

func runImplKernel(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *implKernelParams) {
	for _, m := range tileModules(pass, tab, p.TileModule) {
		im := m.file.Imports()
		if len(kernelDefs(m.file, im, p.Kernel)) == 0 && !importsKernelModule(pass.Repo, m.file, im, p.Kernel) {
			first := m.impls[0]
			reportAt(pass, rule, first.Op, m.file, implCallee(first), map[string]string{"kernel": firstOr(p.Kernel, "")}, nil, nil)
		}
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

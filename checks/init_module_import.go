package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// InitModuleImportAnalyzer implements kind "init-module-import".
var InitModuleImportAnalyzer = opKind(&Analyzer{
	Doc: `Reports a cuTile module not imported through its package chain.

Each __init__.py of the chain imports the next part (see the init-* kinds in
init_chain.go); reported once per module, for the first op registered in it.`,
	Name:         "init-module-import",
	Placeholders: []string{"op", "file", "action", "import", "init", "module", "where", "backend"},
	Texts:        []string{"in-block", "top-level", "add", "move", "related-no-init", "fix"},
}, runInitModuleImport)

func runInitModuleImport(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *InitParams) {
	names := layout.LayoutNames(pass.Repo.Layout)
	// A module is reported once, for the first op registered in it: this
	// sees every op.
	done := map[string]bool{}
	eachChain(pass, tab, p, false, func(op *optable.Op, impls []*optable.Impl, c *initChain) {
		if done[impls[0].File.Path] {
			return
		}
		done[impls[0].File.Path] = true
		for i := range c.parts {
			if ok, outside := c.loadsPart(i); !ok {
				reportInitModule(pass, rule, op, c, i, outside, names)
				return
			}
		}
	})
}

func reportInitModule(pass *Pass, rule *rules.Rule, op *optable.Op, c *initChain, i int, outside bool, names *layout.Names) {
	if j := c.moduleHome(i); j < i && !outside {
		// The package's modules are imported by an ancestor (upstream's
		// root block has `from .experimental import mhc`, experimental/
		// __init__.py imports nothing): the import belongs there, beside
		// them and where TG303 puts the function import, not unguarded
		// in the package's own __init__.py.
		stmt := "from ." + strings.Join(c.parts[j:i], ".") + " import " + c.parts[i]
		bl := c.blockedAt(j)
		in := c.inits[j]
		vars := withWhere(rule, op.Name, bl, names, map[string]string{"import": stmt, "module": c.parts[i], "init": in.File.Path})
		vars["action"] = analysis.RenderText(rule, "add", op.Name, vars)
		reportShared(pass, rule, op.Name, in.File, initAnchor(in, bl), vars, nil)
		return
	}
	stmt := "from . import " + c.parts[i]
	bl := c.blockedAt(i)
	vars := withWhere(rule, op.Name, bl, names, map[string]string{"import": stmt, "module": c.parts[i]})
	vars["action"] = analysis.RenderText(rule, "add", op.Name, vars)
	in := c.inits[i]
	if in == nil {
		// The package has no __init__.py: anchor on the dispatch decorator.
		f, n := dispatchAnchor(op)
		vars["init"] = c.dirs[i] + "/__init__.py"
		reportAt(pass, rule, op.Name, f, n, vars, []analysis.Related{{File: vars["init"], Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: analysis.RenderText(rule, "related-no-init", op.Name, vars)}}, nil)
		return
	}
	vars["init"] = in.File.Path
	if outside {
		vars["action"] = analysis.RenderText(rule, "move", op.Name, vars)
	}
	var fixes []analysis.SuggestedFix
	if !outside && codeNames(c.parts[i]) {
		fixes = ruleFix(rule, "fix", op.Name, vars, moduleImportEdits(in, bl, c.parts[i]))
	}
	reportShared(pass, rule, op.Name, in.File, initAnchor(in, bl), vars, fixes)
}

// moduleHome returns the index of the __init__ that should import
// parts[i]: an ancestor j < i that already imports other modules of the
// package dirs[i] through it (`from .experimental import mhc` in the root)
// while the package's own __init__.py imports no module; else i.
func (c *initChain) moduleHome(i int) int {
	if i == 0 || c.inits[i] != nil && len(c.inits[i].ModuleImports)+len(c.inits[i].FuncImports) > 0 {
		return i
	}
	for j := 0; j < i; j++ {
		if c.inits[j] == nil {
			continue
		}
		pkg := strings.Join(c.parts[j:i], ".")
		for _, x := range c.index[j].byPrefix[pkg] {
			if len(x.Module) > len(pkg) && (!c.blockedAt(j) || x.InBlock) {
				return j
			}
		}
	}
	return i
}

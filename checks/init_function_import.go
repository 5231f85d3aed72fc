package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// InitFunctionImportAnalyzer implements kind "init-function-import".
var InitFunctionImportAnalyzer = opKind(&Analyzer{
	Doc: `Reports an op whose registered function no __init__.py of its chain imports.

Some __init__.py of the chain imports the registered function ("from
.<module> import <func>", where <func> is the op's function name or the name
of its registered function).`,
	Name:         "init-function-import",
	Placeholders: []string{"op", "file", "func", "import", "init", "where", "backend"},
	Texts:        []string{"in-block", "top-level", "fix"},
}, runInitFunctionImport)

func runInitFunctionImport(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *InitParams) {
	names := layout.LayoutNames(pass.Repo.Layout)
	eachChain(pass, tab, p, true, func(op *optable.Op, impls []*optable.Impl, c *initChain) {
		// Also when the module import is missing (init-module-import):
		// Step 3 names every entry it lacks at once, so that adding one does
		// not reveal the next.
		if c.findFunc(implFuncNames(op, impls)) {
			return
		}
		i := c.funcHome()
		in := c.inits[i]
		if in == nil {
			return
		}
		fn := suggestFunc(op, impls)
		stmt := "from ." + c.modRel(i) + " import " + fn
		bl := c.blockedAt(i)
		vars := withWhere(rule, op.Name, bl, names, map[string]string{"import": stmt, "init": in.File.Path, "func": fn})
		reportShared(pass, rule, op.Name, in.File, initAnchor(in, bl), vars, ruleFix(rule, "fix", op.Name, vars, funcImportEdits(in, bl, c.modRel(i), fn)))
	})
}

// findFunc reports whether an __init__ of the chain imports one of funcs
// from the module (or from a package of the chain containing it).
func (c *initChain) findFunc(funcs map[string]bool) bool {
	for i, in := range c.inits {
		if in == nil {
			continue
		}
		for f := range funcs {
			for _, x := range c.index[i].funcs[f] {
				if c.blockedAt(i) && !x.InBlock {
					continue
				}
				rel := c.modRel(i)
				if x.Module == rel || strings.HasPrefix(rel, x.Module+".") {
					return true
				}
			}
		}
	}
	return false
}

package checks

import (
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// InitAllAnalyzer implements kind "init-all".
var InitAllAnalyzer = opKind(&Analyzer{
	Doc: `Reports an op whose function no __init__.py of its chain lists in __all__.

Some __init__.py of the op's chain (see init_chain.go) lists "<func>" in
__all__, where <func> is the op's function name or the name of its
registered function. Else the finding is on the __init__.py where the
function import belongs (the deepest of the chain that imports functions or
has a backend block, else the root), at its __all__ or its first statement,
with a fix adding the entry.`,
	Name:         "init-all",
	Placeholders: []string{"op", "file", "func", "init", "where", "backend"},
	Texts:        []string{"in-block", "top-level", "fix"},
}, runInitAll)

func runInitAll(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *InitParams) {
	names := layout.LayoutNames(pass.Repo.Layout)
	eachChain(pass, tab, p, true, func(op *optable.Op, impls []*optable.Impl, c *initChain) {
		if c.findAll(implFuncNames(op, impls)) { // with or without the module import, as init-function-import
			return
		}
		i := c.funcHome()
		in := c.inits[i]
		if in == nil {
			return
		}
		fn := suggestFunc(op, impls)
		var n ast.Node = in.AllNode
		if n == nil {
			n = initAnchor(in, c.blockedAt(i))
		}
		vars := withWhere(rule, op.Name, c.blockedAt(i), names, map[string]string{"func": fn, "init": in.File.Path})
		reportShared(pass, rule, op.Name, in.File, n, vars, ruleFix(rule, "fix", op.Name, vars, addToAllEdits(in, fn)))
	})
}

func (c *initChain) findAll(funcs map[string]bool) bool {
	for j, in := range c.inits {
		if in == nil {
			continue
		}
		for f := range funcs {
			if c.index[j].all[f] {
				return true
			}
		}
	}
	return false
}

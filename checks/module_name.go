package checks

import (
	"path"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

var ModuleNameAnalyzer = opKind(&Analyzer{
	Doc: `Checks that the cuTile module registering the op is named after it (X.1).

The module is named <func>.py, unless it registers several ops (a grouping
module such as attention.py).`,
	Name:         "module-name",
	Placeholders: []string{"op", "file", "actual", "expected", "func"},
}, runModuleName)

func runModuleName(pass *Pass, tab *optable.OpTable, rule *rules.Rule, _ *noParams) {
	names := layout.LayoutNames(pass.Repo.Layout)
	// Op names registered per file (dispatched or not: a module that
	// registers fmha and fmha_backward groups ops).
	perFile := map[string]map[string]bool{}
	for _, im := range tab.Impls {
		if perFile[im.File.Path] == nil {
			perFile[im.File.Path] = map[string]bool{}
		}
		perFile[im.File.Path][im.Op] = true
	}
	for _, op := range tab.Ops {
		if op.Skipped(2) != nil {
			continue
		}
		for _, im := range cutileImpls(op, names) {
			if len(perFile[im.File.Path]) > 1 || astutil.DottedTail(im.Module) == op.Func {
				continue
			}
			want := path.Dir(im.File.Path) + "/" + op.Func + ".py"
			reportAt(pass, rule, op.Name, im.File, im.Node(), map[string]string{"expected": want, "func": op.Func, "actual": im.File.Path}, nil, nil)
		}
	}
}

package checks

import (
	"path"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

// ModuleNameAnalyzer implements kind "module-name".
var ModuleNameAnalyzer = opKind(&Analyzer{
	Doc: `Reports a cuTile module not named after the op it registers.

Each cuTile module of the op (under its scope's cuTile package) is named
<func>.py, unless it registers several op names, dispatched or not (a
grouping module such as attention.py). Ops skipping Step 2 are left alone.`,
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

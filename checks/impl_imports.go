package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// ImplImportsAnalyzer implements kind "impl-imports".
var ImplImportsAnalyzer = opKind(&Analyzer{
	Doc: `Reports a cuTile module without the required imports.

The module imports each of "modules" (any alias) and takes register_impl
from one of "register_impl" (default: the layout's register-impl names).
It reports once per module, for the first op it registers.`,
	Name:         "impl-imports",
	Placeholders: []string{"op", "file", "missing", "module", "modules"},
	Texts:        []string{"import", "register-impl"},
}, runImplImports)

type implImportsParams struct {
	Modules      []string `toml:"modules"`
	RegisterImpl []string `toml:"register_impl"`
}

func (p *implImportsParams) Validate() error { return needEntries("modules", p.Modules) }

func runImplImports(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *implImportsParams) {
	// register_impl: the rule's names, else the layout's (every spelling
	// the op table recognizes as register_impl).
	accepted := p.RegisterImpl
	if len(accepted) == 0 {
		accepted = layout.LayoutNames(pass.Repo.Layout).RegisterImpl
	}
	for _, m := range wantedModules(pass, tab) {
		im := m.file.Imports()
		first := m.impls[0]
		var missing []string
		vars := map[string]string{"modules": strings.Join(trimLast(accepted), " or ")}
		for _, mod := range p.Modules {
			if !im.Imported(mod) {
				vars["module"] = mod
				missing = append(missing, analysis.RenderText(rule, "import", first.Op, vars))
			}
		}
		// A module that registers nothing yet (an op being added) needs
		// register_impl with its registration, which TG210 asks for.
		if len(accepted) > 0 && !first.Unregistered {
			ok := false
			for _, impl := range m.impls {
				if impl.Call != nil && im.Is(impl.Call.Func, accepted) {
					ok = true
				}
			}
			if !ok {
				missing = append(missing, analysis.RenderText(rule, "register-impl", first.Op, vars))
			}
		}
		// One clause per thing missing, joined by "and".
		if len(missing) > 0 {
			vars["missing"] = strings.Join(missing, " and ")
			reportAt(pass, rule, first.Op, m.file, implCallee(first), vars, nil, nil)
		}
	}
}

// trimLast returns the modules of qualified names ("tilegym.backend" for
// "tilegym.backend.register_impl").
func trimLast(names []string) []string {
	var out []string
	for _, n := range names {
		if i := strings.LastIndexByte(n, '.'); i >= 0 {
			out = append(out, n[:i])
		} else {
			out = append(out, n)
		}
	}
	return uniq(out)
}

package checks

import (
	"errors"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
)

// TestComparesAnalyzer implements kind "test-compares".
var TestComparesAnalyzer = &Analyzer{
	Name:         "test-compares",
	Placeholders: []string{"op", "file", "func", "method", "problem"},
	Texts:        []string{"no-compare", "no-assert"},
	Doc: `Reports test methods that assert nothing, and test files that never compare with a reference.

Each method matching the rule's methods globs must check something: call one
of the compare functions (self.assertCorrectness, torch.testing.assert_close,
torch.allclose, ...) or one of the check functions (pytest.raises), or hold an
assert statement; in its body, a function nested in it, or a helper method or
module function it calls (one level down). And at least one such method of
the file must call a compare function.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(testComparesParams) },
	Run:      runTestCompares,
}

type testComparesParams struct {
	Methods []string `toml:"methods"` // globs of test method names
	Compare []string `toml:"compare"` // qualified names of the comparisons with a reference
	Checks  []string `toml:"checks"`  // other calls that assert something (pytest.raises)
}

func runTestCompares(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*testComparesParams)
		if p == nil {
			continue
		}
		for _, sf := range stepFiles(pass, tab, 4, rule) {
			x := sf.Index
			methods := x.testMethods(p.Methods, sf.Ops)
			compared := false
			var silent []funcScope
			for _, m := range methods {
				scopes := append([]funcScope{m}, x.helpers(m)...)
				compares, asserts := false, false
				for _, s := range scopes {
					if len(x.CallsTo(s.Def, p.Compare)) > 0 {
						compares = true
					}
					if len(x.CallsTo(s.Def, p.Checks)) > 0 || hasAssert(s.Def.Body) {
						asserts = true
					}
				}
				compared = compared || compares
				if !compares && !asserts {
					silent = append(silent, m)
				}
			}
			if !compared && len(methods) > 0 {
				// One finding for the file: none of its tests compares.
				vars := map[string]string{"method": methods[0].Def.Name, "func": sf.Primary.Func}
				vars["problem"] = analysis.RenderText(rule, "no-compare", sf.Primary.Name, vars)
				reportAt(pass, rule, sf.Primary.Name, sf.File, defNode(methods[0].Def), vars, nil, nil)
				continue
			}
			for _, m := range silent {
				op := sf.opOf(m)
				vars := map[string]string{"method": m.Def.Name, "func": op.Func}
				vars["problem"] = analysis.RenderText(rule, "no-assert", op.Name, vars)
				reportAt(pass, rule, op.Name, sf.File, defNode(m.Def), vars, nil, nil)
			}
		}
	}
	return nil, nil
}

// hasAssert reports whether a body holds an assert statement (nested
// functions included).
func hasAssert(body []ast.Stmt) bool {
	found := false
	for _, s := range body {
		ast.Inspect(s, func(n ast.Node) bool {
			if _, ok := n.(*ast.Assert); ok {
				found = true
			}
			return !found
		})
	}
	return found
}

func (p *testComparesParams) Validate() error {
	return errors.Join(needList("methods", p.Methods), needList("compare", p.Compare))
}

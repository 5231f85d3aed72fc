package checks

// A check kind over the op table, the shape of most kinds.

import (
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// opTableOf returns the op table a pass requires, or nil.
func opTableOf(pass *Pass) *optable.OpTable {
	t, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	return t
}

// noParams is the params type of a check kind that takes none.
type noParams struct{}

// opKind completes a check kind that reads the op table: the kind
// requires the op table, decodes a rule's params into a new *P (none for
// noParams), and runs check once per rule.
func opKind[P any](a *Analyzer, check func(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *P)) *Analyzer {
	a.Requires = []*Analyzer{optable.OpTableAnalyzer}
	if _, none := any(new(P)).(*noParams); !none {
		a.Params = func() any { return new(P) }
	}
	a.Run = func(pass *Pass) (any, error) {
		tab := opTableOf(pass)
		if tab == nil {
			return nil, nil
		}
		for _, rule := range pass.Rules {
			p, _ := rule.Params.(*P)
			if p == nil && rule.Params == nil {
				p = new(P)
			}
			if p != nil {
				check(pass, tab, rule, p)
			}
		}
		return nil, nil
	}
	return a
}

package checks

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// CallKeywordAnalyzer implements kind "call-keyword".
var CallKeywordAnalyzer = &Analyzer{
	Name:         "call-keyword",
	Placeholders: []string{"op", "file", "call", "func", "keyword"},
	Doc: `Reports calls that do not pass a keyword with an accepted value.

The file must call one of the rule's calls (triton.testing.Benchmark), and
every such call must pass each keyword of the keywords table with one of its
accepted string values (line_arg = "backend": one line per backend).`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(callKeywordParams) },
	Run:      runCallKeyword,
}

type callKeywordParams struct {
	Step     int                 `toml:"step"`     // 4 or 5
	Calls    []string            `toml:"calls"`    // qualified names of the calls
	Keywords map[string][]string `toml:"keywords"` // keyword -> accepted values
}

func runCallKeyword(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*callKeywordParams)
		if p == nil || len(p.Calls) == 0 {
			continue
		}
		kws := make([]string, 0, len(p.Keywords))
		for k := range p.Keywords {
			kws = append(kws, k)
		}
		sort.Strings(kws)
		for _, sf := range stepFiles(pass, tab, p.Step, rule) {
			x := sf.Index
			var calls []*ast.Call
			for _, s := range x.Body() {
				calls = append(calls, x.CallsTo(s, p.Calls)...)
			}
			vars := func(k string) map[string]string {
				want := ""
				if k != "" {
					want = k + "=" + quoteList(p.Keywords[k][:min(1, len(p.Keywords[k]))])
				}
				return map[string]string{"func": sf.Primary.Func, "call": astutil.DottedTail(firstOr(p.Calls, "")), "keyword": want}
			}
			if len(calls) == 0 {
				reportAt(pass, rule, sf.Primary.Name, sf.File, x.anchorStmt(), vars(firstOr(kws, "")), nil, nil)
				continue
			}
			for _, c := range calls {
				for _, k := range kws {
					v, ok := astutil.StringValue(astutil.CallArg(c, -1, k))
					if ok && slices.Contains(p.Keywords[k], v) {
						continue
					}
					var n ast.Node = c
					if kv := astutil.CallArg(c, -1, k); kv != nil {
						n = kv
					}
					reportAt(pass, rule, sf.Primary.Name, sf.File, n, vars(k), nil, nil)
					break
				}
			}
		}
	}
	return nil, nil
}

func (p *callKeywordParams) Validate() error {
	var err error
	if len(p.Keywords) == 0 {
		err = errors.New("keywords: want at least one keyword")
	}
	for k, vs := range p.Keywords {
		if len(vs) == 0 {
			err = errors.Join(err, fmt.Errorf("keywords.%s: want at least one accepted value", k))
		}
	}
	return errors.Join(validStep(p.Step), needList("calls", p.Calls), err)
}

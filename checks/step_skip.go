package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
)

// StepSkipAnalyzer implements kind "step-skip".
var StepSkipAnalyzer = &Analyzer{
	Name:         "step-skip",
	Placeholders: []string{"op", "file", "problem", "step", "steps"},
	Texts:        []string{"no-step", "step-one", "not-skippable", "unclosed", "no-reason"},
	Doc: `Reports a written decision to skip a step that is not valid.

A skip is a comment "# tilegym-lint: skip-step=N reason=\"...\"" on the
lines of the op's dispatch stub (or directly above its decorators) or
anywhere in its cuTile module, or an entry of the configuration's [skip]
table, as the op table reads them. A skip must name a step listed in
"steps" and give a non-empty reason; each one that does not is reported.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(stepSkipParams) },
	Run:      runStepSkip,
}

type stepSkipParams struct {
	Steps []int `toml:"steps"`
}

func runStepSkip(pass *Pass) (any, error) {
	tab := opTableOf(pass)
	if tab == nil {
		return nil, nil
	}
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*stepSkipParams)
		allowed := map[int]bool{}
		var list []string
		if p != nil {
			for _, s := range p.Steps {
				allowed[s] = true
				list = append(list, strconv.Itoa(s))
			}
		}
		steps := strings.Join(list, ", ")
		seen := map[string]bool{}
		for _, op := range tab.Ops {
			for _, sk := range op.Skips {
				key := sk.File + ":" + strconv.Itoa(sk.Pos.Line) + ":" + strconv.Itoa(sk.Pos.Col) + ":" + op.Name
				if seen[key] {
					continue
				}
				seen[key] = true
				var text string
				switch {
				case sk.Step == 0:
					text = "no-step"
				case sk.Step == 1:
					text = "step-one"
				case !allowed[sk.Step]:
					text = "not-skippable"
				case sk.Unclosed:
					text = "unclosed"
				case strings.TrimSpace(sk.Reason) == "":
					text = "no-reason"
				default:
					continue
				}
				f := pass.Repo.File(sk.File)
				var n ast.Node
				if f != nil && sk.Text != "" {
					n = commentNode(sk.Pos, len(sk.Text))
				} else {
					f, n = dispatchAnchor(op)
				}
				vars := map[string]string{"step": strconv.Itoa(sk.Step), "steps": steps}
				vars["problem"] = analysis.RenderText(rule, text, op.Name, vars)
				reportAt(pass, rule, op.Name, f, n, vars, nil, nil)
			}
		}
	}
	return nil, nil
}

// commentNode makes a node spanning a comment.
func commentNode(pos ast.Pos, length int) ast.Node {
	n := &ast.Name{Id: "#"}
	n.Attrs = ast.Span(pos, ast.Pos{Line: pos.Line, Col: pos.Col + length})
	return n
}

func (p *stepSkipParams) Validate() error {
	if len(p.Steps) == 0 {
		return fmt.Errorf("steps must list the steps that can be skipped")
	}
	for _, s := range p.Steps {
		if s < 2 || s > 6 {
			return fmt.Errorf("steps: %d cannot be skipped (2-6)", s)
		}
	}
	return nil
}

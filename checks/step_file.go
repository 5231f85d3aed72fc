package checks

import (
	"errors"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/source"
)

// StepFileAnalyzer implements kind "step-file".
var StepFileAnalyzer = &Analyzer{
	Name:         "step-file",
	Placeholders: []string{"op", "file", "expected", "func", "suite"},
	Texts:        []string{"related-expected"},
	Doc: `Reports an op that has no file for a step (its tests or its benchmark).

The op table associates test and benchmark files with ops by what they do
(importing or calling the op through the public API, registering its torch
reference) or by their name. An op with none gets one finding, anchored on
its @dispatch decorator and naming the expected path (a related position
too, text "related-expected"), built from the rule's
expected templates per layout scope: {func} is the op's function name,
{suite} its suite and {pkg} the sub-package of its cuTile module with a
trailing slash ("activation/" for ops/cutile/activation/relu.py, "" at the
top). A written skip of the step silences it.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(stepFileParams) },
	Run:      runStepFile,
}

type stepFileParams struct {
	// Step is 4 (tests) or 5 (benchmarks).
	Step int `toml:"step"`
	// Expected maps a layout scope name ("core", "suites") to the template
	// of the expected path.
	Expected map[string]string `toml:"expected"`
}

func runStepFile(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	if tab == nil {
		return nil, nil
	}
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*stepFileParams)
		if p == nil || (p.Step != 4 && p.Step != 5) {
			continue
		}
		for _, op := range tab.Ops {
			if op == nil || op.Skipped(p.Step) != nil || !pass.Wants(op.Name) {
				continue
			}
			// An op being added without its stub yet (TG107) is anchored
			// on its first registration.
			anchorFile, anchor := stepFileAnchor(op)
			if anchorFile == nil {
				continue
			}
			files := op.Tests
			if p.Step == 5 {
				files = op.Benchmarks
			}
			if len(files) > 0 {
				continue
			}
			expected := ExpectedStepPath(p.Expected, op)
			n := anchor
			vars := map[string]string{"expected": expected, "func": op.Func, "suite": op.Suite, "file": anchorFile.Path}
			d := analysis.Diagnostic{Rule: rule, Op: op.Name, File: anchorFile.Path, Message: analysis.Render(rule.Message, op.Name, vars)}
			if n != nil {
				d.Pos, d.End = n.Pos(), n.End()
				if d.End.Line > d.Pos.Line { // a multi-line decorator: point at its first line
					d.End = ast.Pos{Line: d.Pos.Line, Col: d.Pos.Col + len("dispatch")}
				}
			} else {
				d.Pos, d.End = ast.Pos{Line: 1}, ast.Pos{Line: 1}
			}
			if expected != "" {
				d.Related = []analysis.Related{{File: expected, Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: analysis.RenderText(rule, "related-expected", op.Name, vars)}}
			}
			pass.Report(d)
		}
	}
	return nil, nil
}

// stepFileAnchor returns where an op's missing test or benchmark is
// reported: its @dispatch decorator, else (an op without a stub) its first
// register_impl call; a nil file when it has neither.
func stepFileAnchor(op *optable.Op) (*source.File, ast.Node) {
	if op.Stub != nil && op.Stub.File != nil {
		if op.Stub.Decorator != nil {
			return op.Stub.File, op.Stub.Decorator
		}
		return op.Stub.File, defNode(op.Stub.Def)
	}
	if len(op.Impls) > 0 && op.Impls[0].File != nil {
		return op.Impls[0].File, op.Impls[0].Call
	}
	return nil, nil
}

// ExpectedStepPath fills the template of the op's scope.
func ExpectedStepPath(tmpls map[string]string, op *optable.Op) string {
	scope := "core"
	if op.Scope != nil && op.Scope.Name != "" {
		scope = op.Scope.Name
	}
	t, ok := tmpls[scope]
	if !ok {
		return ""
	}
	pkg := ""
	for _, im := range op.ImplsFor("cutile") {
		if i := strings.LastIndexByte(im.Module, '.'); i >= 0 {
			pkg = strings.ReplaceAll(im.Module[:i], ".", "/") + "/"
			break
		}
	}
	out := analysis.Expand(t, "{func}", op.Func, "{suite}", op.Suite, "{pkg}", pkg, "{op}", op.Name)
	// A sub-package the layout puts no tests or benchmarks in (only
	// experimental/ has its own benchmark directory) is dropped: the
	// expected path must be one the op table would find.
	if pkg != "" && op.Scope != nil && len(op.Scope.Tests)+len(op.Scope.Benchmarks) > 0 && !layout.MatchBound(op.Scope.Tests, op.Suite, out) && !layout.MatchBound(op.Scope.Benchmarks, op.Suite, out) {
		out = analysis.Expand(t, "{func}", op.Func, "{suite}", op.Suite, "{pkg}", "", "{op}", op.Name)
	}
	return out
}

func (p *stepFileParams) Validate() error {
	if err := validStep(p.Step); err != nil {
		return err
	}
	if len(p.Expected) == 0 {
		return errors.New("expected: want a path template per layout scope")
	}
	return nil
}

package checks

import (
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

// StubParamAnalyzer implements kind "stub-param".
var StubParamAnalyzer = opKind(&Analyzer{
	Doc: `Reports a @dispatch stub without the templated parameter.

The stub has the parameter "param" with a default of "default" and an
annotation among "annotations"; stubs whose function name matches "exempt"
globs or whose return annotation's head is in "exempt_returns" are exempt.`,
	Name:         "stub-param",
	Placeholders: []string{"op", "file", "annotation", "default", "param", "got", "problem"},
	Texts:        []string{"no-default", "no-annotation", "annotated", "missing"},
}, runStubParam)

type stubParamParams struct {
	Param         string   `toml:"param"`
	Default       string   `toml:"default"`
	Annotations   []string `toml:"annotations"`
	Exempt        []string `toml:"exempt"`
	ExemptReturns []string `toml:"exempt_returns"`
}

func (p *stubParamParams) Validate() error { return needValue("param", p.Param) }

func runStubParam(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *stubParamParams) {
	for _, op := range stubbedOps(pass, tab) {
		fd := op.Stub.Def
		if stubExempt(fd, p) {
			continue
		}
		if text, got, node := stubParamProblem(fd, p); text != "" {
			vars := map[string]string{"param": p.Param, "default": p.Default, "annotation": firstOr(p.Annotations, ""), "got": got}
			vars["problem"] = analysis.RenderText(rule, text, op.Name, vars)
			reportAt(pass, rule, op.Name, op.Stub.File, node, vars, nil, nil)
		}
	}
}

// stubExempt reports whether a stub is exempt from the "param" check.
func stubExempt(fd *ast.FunctionDef, p *stubParamParams) bool {
	for _, g := range p.Exempt {
		if ok, _ := path.Match(g, fd.Name); ok {
			return true
		}
	}
	if fd.Returns != nil && len(p.ExemptReturns) > 0 {
		head := annotationHead(fd.Returns)
		for _, r := range p.ExemptReturns {
			if head == r || astutil.DottedTail(head) == r {
				return true
			}
		}
	}
	return false
}

// annotationHead returns the outer name of an annotation, looking through
// Optional[...] and X | None: "Tuple" for Tuple[int, int], "Callable" for
// Optional[Callable].
func annotationHead(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Subscript:
		h := astutil.DottedName(e.Value)
		if astutil.DottedTail(h) == "Optional" {
			return annotationHead(e.Slice)
		}
		return h
	case *ast.BinOp:
		if astutil.IsNoneExpr(e.Right) {
			return annotationHead(e.Left)
		}
		if astutil.IsNoneExpr(e.Left) {
			return annotationHead(e.Right)
		}
		return "|"
	case *ast.Constant:
		if s, ok := e.Value.(string); ok {
			return s
		}
	}
	return astutil.DottedName(e)
}

// normAnnotation renders an annotation for comparison: string annotations
// are unquoted, `X | None` and `Union[X, None]` become Optional[X].
func normAnnotation(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Constant:
		if s, ok := e.Value.(string); ok {
			return strings.ReplaceAll(s, " ", "")
		}
	case *ast.BinOp:
		if e.Op == ast.BitOr {
			if astutil.IsNoneExpr(e.Right) {
				return "Optional[" + normAnnotation(e.Left) + "]"
			}
			if astutil.IsNoneExpr(e.Left) {
				return "Optional[" + normAnnotation(e.Right) + "]"
			}
		}
	case *ast.Subscript:
		head := astutil.DottedTail(astutil.DottedName(e.Value))
		if head == "Optional" {
			return "Optional[" + normAnnotation(e.Slice) + "]"
		}
		if head == "Union" {
			if t, ok := e.Slice.(*ast.Tuple); ok && len(t.Elts) == 2 {
				if astutil.IsNoneExpr(t.Elts[1]) {
					return "Optional[" + normAnnotation(t.Elts[0]) + "]"
				}
				if astutil.IsNoneExpr(t.Elts[0]) {
					return "Optional[" + normAnnotation(t.Elts[1]) + "]"
				}
			}
		}
		return head + "[" + normAnnotation(e.Slice) + "]"
	}
	return strings.ReplaceAll(astutil.ExprString(e), " ", "")
}

// stubParamProblem checks the templated parameter of a stub: the text
// ([rule.texts]) naming what is wrong, "" when nothing is, the annotation
// it has instead, and the node to anchor on.
func stubParamProblem(fd *ast.FunctionDef, p *stubParamParams) (text, got string, n ast.Node) {
	for _, prm := range astutil.Params(fd.Args) {
		if prm.Name != p.Param || prm.Kind == astutil.VarPositional || prm.Kind == astutil.VarKeyword {
			continue
		}
		if p.Default != "" && (prm.Default == nil || astutil.ExprString(prm.Default) != p.Default) {
			return "no-default", "", prm.Arg
		}
		if len(p.Annotations) > 0 {
			if prm.Arg.Annotation == nil {
				return "no-annotation", "", prm.Arg
			}
			got := normAnnotation(prm.Arg.Annotation)
			for _, a := range p.Annotations {
				if strings.ReplaceAll(a, " ", "") == got {
					return "", "", nil
				}
			}
			return "annotated", astutil.ExprString(prm.Arg.Annotation), prm.Arg
		}
		return "", "", nil
	}
	return "missing", "", defNode(fd)
}

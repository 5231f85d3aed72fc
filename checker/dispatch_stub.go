package checker

import (
	"fmt"
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// DispatchStubAnalyzer implements kind "dispatch-stub" (S1.1-S1.5).
var DispatchStubAnalyzer = &Analyzer{
	Name:         "dispatch-stub",
	Placeholders: []string{"op", "file", "annotation", "default", "exception", "expected", "first", "func", "kwarg", "param", "problem"},
	Doc: `Checks one property of every @dispatch stub.

The rule's params select the property (check = ...):
  "unique"    one stub per dispatch name (S1.1); each further stub is reported
  "name"      the function name is the last dotted part of the dispatch name,
              and in a scope with a namespace the name starts with it (S1.1)
  "body"      the body (after an optional docstring) only raises the
              exception named by "exception" (S1.2)
  "kwargs"    the stub takes **kwargs; "kwarg_name", when set, also fixes its
              name (S1.3)
  "param"     the stub has the parameter "param" with a default of
              "default" and an annotation among "annotations" (S1.4); stubs
              whose function name matches "exempt" globs or whose return
              annotation's head is in "exempt_returns" are exempt
  "docstring" the stub has a docstring (S1.5)`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(dispatchStubParams) },
	Run:      runDispatchStub,
}

func init() { Register(DispatchStubAnalyzer) }

type dispatchStubParams struct {
	Check         string   `toml:"check"`
	Exception     string   `toml:"exception"`
	KwargName     string   `toml:"kwarg_name"`
	Param         string   `toml:"param"`
	Default       string   `toml:"default"`
	Annotations   []string `toml:"annotations"`
	Exempt        []string `toml:"exempt"`
	ExemptReturns []string `toml:"exempt_returns"`
}

func runDispatchStub(pass *Pass) (any, error) {
	tab := opTableOf(pass)
	if tab == nil {
		return nil, nil
	}
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*dispatchStubParams)
		if p == nil {
			continue
		}
		for _, op := range tab.Ops {
			if op.Stub == nil || op.Stub.Def == nil || !pass.Wants(op.Name) {
				continue
			}
			st := op.Stub
			fd := st.Def
			switch p.Check {
			case "unique":
				for _, other := range op.Stubs[1:] {
					reportAt(pass, rule, op.Name, other.File, other.NameArg, map[string]string{
						"first": st.File.Path + ":" + itoa(st.Def.Pos().Line),
					}, []Related{{File: st.File.Path, Pos: st.NameArg.Pos(), End: st.NameArg.End(), Message: "first stub"}}, nil)
				}
			case "name":
				want := op.Func
				ns := ""
				if op.Scope != nil && op.Scope.Namespace != "" {
					ns = ExpandSuite(op.Scope.Namespace, op.Suite)
				}
				if ns != "" && !strings.HasPrefix(op.Name, ns+".") {
					reportAt(pass, rule, op.Name, st.File, st.NameArg, map[string]string{
						"problem":  "the dispatch name must start with the namespace \"" + ns + ".\"",
						"expected": ns + "." + fd.Name, "func": fd.Name,
					}, nil, nil)
				} else if fd.Name != want {
					reportAt(pass, rule, op.Name, st.File, st.NameArg, map[string]string{
						"problem":  "the function is named \"" + fd.Name + "\" but the dispatch name ends in \"" + want + "\"",
						"expected": strings.TrimSuffix(op.Name, want) + fd.Name, "func": fd.Name,
					}, nil, nil)
				}
			case "body":
				if bad := stubBodyProblem(fd, p.Exception); bad != nil {
					reportAt(pass, rule, op.Name, st.File, bad, map[string]string{"exception": p.Exception}, nil, nil)
				}
			case "kwargs":
				kw := fd.Args.Kwarg
				if kw == nil {
					reportAt(pass, rule, op.Name, st.File, defHeader(fd), map[string]string{"func": fd.Name, "kwarg": kwargLabel(p.KwargName)}, nil, kwargsFix(st.File, fd, strings.TrimPrefix(kwargLabel(p.KwargName), "**")))
				} else if p.KwargName != "" && kw.Arg != p.KwargName {
					reportAt(pass, rule, op.Name, st.File, kw, map[string]string{"func": fd.Name, "kwarg": kwargLabel(p.KwargName)}, nil, nil)
				}
			case "param":
				if stubExempt(fd, p) {
					continue
				}
				prob, node := stubParamProblem(fd, p)
				if prob != "" {
					reportAt(pass, rule, op.Name, st.File, node, map[string]string{"problem": prob, "param": p.Param, "default": p.Default, "annotation": firstOr(p.Annotations, "")}, nil, nil)
				}
			case "docstring":
				if Docstring(fd.Body) == nil {
					reportAt(pass, rule, op.Name, st.File, defHeader(fd), map[string]string{"func": fd.Name}, nil, nil)
				}
			}
		}
	}
	return nil, nil
}

func kwargLabel(name string) string {
	if name == "" {
		return "**kwargs"
	}
	return "**" + name
}

func firstOr(list []string, def string) string {
	if len(list) > 0 {
		return list[0]
	}
	return def
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

// defHeader returns a node covering `def <name>` of a function.
func defHeader(fd *ast.FunctionDef) ast.Node {
	line := fd.Pos().Line
	col := fd.Pos().Col
	// The def's position is its `def` keyword (decorators are not part of
	// it in CPython >= 3.8).
	h := &ast.Name{Id: fd.Name}
	h.Lineno, h.ColOffset = line, col
	h.EndLineno, h.EndColOffset = line, col+len("def ")+len(fd.Name)
	return h
}

// stubBodyProblem returns the first statement of a stub's body that is not
// an optional leading docstring followed by `raise <exception>(...)` or a
// bare `raise <exception>`; nil when the body is fine. An empty remainder
// reports the def.
func stubBodyProblem(fd *ast.FunctionDef, exception string) ast.Node {
	body := fd.Body
	if Docstring(body) != nil {
		body = body[1:]
	}
	if len(body) == 0 {
		return defHeader(fd)
	}
	for _, s := range body {
		r, ok := s.(*ast.Raise)
		if !ok || r.Exc == nil {
			return s
		}
		exc := r.Exc
		if c, ok := exc.(*ast.Call); ok {
			exc = c.Func
		}
		if dottedTail(DottedName(exc)) != exception {
			return s
		}
	}
	if len(body) > 1 {
		return body[1]
	}
	return nil
}

// stubExempt reports whether a stub is exempt from the "param" check.
func stubExempt(fd *ast.FunctionDef, p *dispatchStubParams) bool {
	for _, g := range p.Exempt {
		if ok, _ := path.Match(g, fd.Name); ok {
			return true
		}
	}
	if fd.Returns != nil && len(p.ExemptReturns) > 0 {
		head := annotationHead(fd.Returns)
		for _, r := range p.ExemptReturns {
			if head == r || dottedTail(head) == r {
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
		h := DottedName(e.Value)
		if dottedTail(h) == "Optional" {
			return annotationHead(e.Slice)
		}
		return h
	case *ast.BinOp:
		if isNoneExpr(e.Right) {
			return annotationHead(e.Left)
		}
		if isNoneExpr(e.Left) {
			return annotationHead(e.Right)
		}
		return "|"
	case *ast.Constant:
		if s, ok := e.Value.(string); ok {
			return s
		}
	}
	return DottedName(e)
}

func isNoneExpr(e ast.Expr) bool {
	c, ok := e.(*ast.Constant)
	return ok && c.Value == nil
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
			if isNoneExpr(e.Right) {
				return "Optional[" + normAnnotation(e.Left) + "]"
			}
			if isNoneExpr(e.Left) {
				return "Optional[" + normAnnotation(e.Right) + "]"
			}
		}
	case *ast.Subscript:
		head := dottedTail(DottedName(e.Value))
		if head == "Optional" {
			return "Optional[" + normAnnotation(e.Slice) + "]"
		}
		if head == "Union" {
			if t, ok := e.Slice.(*ast.Tuple); ok && len(t.Elts) == 2 {
				if isNoneExpr(t.Elts[1]) {
					return "Optional[" + normAnnotation(t.Elts[0]) + "]"
				}
				if isNoneExpr(t.Elts[0]) {
					return "Optional[" + normAnnotation(t.Elts[1]) + "]"
				}
			}
		}
		return head + "[" + normAnnotation(e.Slice) + "]"
	}
	return strings.ReplaceAll(ExprString(e), " ", "")
}

// stubParamProblem checks the templated parameter of a stub.
func stubParamProblem(fd *ast.FunctionDef, p *dispatchStubParams) (string, ast.Node) {
	for _, prm := range Params(fd.Args) {
		if prm.Name != p.Param || prm.Kind == VarPositional || prm.Kind == VarKeyword {
			continue
		}
		if p.Default != "" && (prm.Default == nil || ExprString(prm.Default) != p.Default) {
			return "has no default " + p.Default, prm.Arg
		}
		if len(p.Annotations) > 0 {
			if prm.Arg.Annotation == nil {
				return "has no annotation", prm.Arg
			}
			got := normAnnotation(prm.Arg.Annotation)
			for _, a := range p.Annotations {
				if strings.ReplaceAll(a, " ", "") == got {
					return "", nil
				}
			}
			return "is annotated " + ExprString(prm.Arg.Annotation), prm.Arg
		}
		return "", nil
	}
	return "is missing", defHeader(fd)
}

func (p *dispatchStubParams) Validate() error {
	if err := oneOf("check", p.Check, "unique", "name", "body", "kwargs", "param", "docstring"); err != nil {
		return err
	}
	switch {
	case p.Check == "body" && p.Exception == "":
		return fmt.Errorf(`check = "body" needs exception`)
	case p.Check == "param" && p.Param == "":
		return fmt.Errorf(`check = "param" needs param`)
	}
	return nil
}

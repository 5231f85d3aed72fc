package checks

import (
	"maps"
	"strconv"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

// ImplSignatureAnalyzer implements kind "impl-signature".
var ImplSignatureAnalyzer = &Analyzer{
	Name:         "impl-signature",
	Placeholders: []string{"op", "file", "backend", "func", "problems", "stub", "param", "position", "impl_position", "other", "other_position", "kwargs", "default", "impl_default"},
	Texts:        []string{"keyword-only", "moved", "shifted", "renamed", "swallowed", "missing", "positional-only", "required", "default", "no-kwargs", "related-stub"},
	Doc: `Reports a registered implementation whose parameters differ from its dispatch stub's.

For each register_impl site of a dispatched op whose function is resolvable in
its file (a decorated def, or register_impl(...)(name) with name defined in
the file), of the backends listed in "backends" (empty: every backend):
every stub parameter is accepted under the same name, positional ones at the
same position; wherever the stub gives a default the implementation gives
the same one (compared structurally: None, 1.0, -1, "none"); and the
implementation takes **kwargs. One finding per implementation, anchored on
the first differing parameter; {problems} names every difference, each with
a text of the rule, joined by "; ": the stub's parameter {param}, at
{position} in the stub, is keyword-only, at {impl_position} ("moved"),
missing where {other} (the stub's parameter {other_position}) moved up
("shifted"), in the place of {other} ("renamed"), missing and swallowed by
**{kwargs} ("swallowed") or just missing, positional-only, required where the
stub defaults it to {default}, or defaulted to {impl_default}; or there is
no ** parameter ("no-kwargs"). The stub's def is a related position (text
"related-stub").`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(implSignatureParams) },
	Run:      runImplSignature,
}

type implSignatureParams struct {
	Backends []string `toml:"backends"`
	// RequireKwargs demands a ** parameter in the implementation.
	RequireKwargs bool `toml:"require_kwargs"`
	// ReferenceFiles are globs of files (benchmarks) whose registered
	// functions are references called only by their own file: they may omit
	// stub parameters that have a default and need not take **kwargs
	// (a call passing those fails loudly, it is not silently ignored).
	ReferenceFiles []string `toml:"reference_files"`
	// Files, when set, restricts the implementations checked to files
	// matching these globs (e.g. leave out benchmark reference functions).
	Files []string `toml:"files"`
}

func runImplSignature(pass *Pass) (any, error) {
	tab := opTableOf(pass)
	if tab == nil {
		return nil, nil
	}
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*implSignatureParams)
		if p == nil {
			continue
		}
		for _, op := range tab.Ops {
			if op.Stub == nil || op.Stub.Def == nil || !pass.Wants(op.Name) {
				continue
			}
			for _, impl := range op.Impls {
				if impl.Def == nil || !backendListed(p.Backends, impl.Backend) {
					continue
				}
				if len(p.Files) > 0 && !layout.MatchBound(p.Files, op.Suite, impl.File.Path) {
					continue
				}
				if len(rule.Files) > 0 && !layout.MatchBound(rule.Files, op.Suite, impl.File.Path) {
					continue
				}
				lenient := len(p.ReferenceFiles) > 0 && layout.MatchBound(p.ReferenceFiles, op.Suite, impl.File.Path)
				drifts, anchor := signatureDrift(op.Stub.Def, impl.Def, p.RequireKwargs && !lenient, lenient)
				if len(drifts) == 0 {
					continue
				}
				if anchor == nil {
					anchor = defNode(impl.Def)
				}
				vars := map[string]string{
					"backend": impl.Backend,
					"func":    impl.Def.Name,
					"stub":    op.Stub.File.Path + ":" + strconv.Itoa(op.Stub.Def.Pos().Line),
				}
				vars["problems"] = renderDrifts(rule, op.Name, drifts, vars)
				reportAt(pass, rule, op.Name, impl.File, anchor, vars, []analysis.Related{{File: op.Stub.File.Path, Pos: op.Stub.Def.Pos(), End: op.Stub.Def.Pos(), Message: analysis.RenderText(rule, "related-stub", op.Name, vars)}}, nil)
			}
		}
	}
	return nil, nil
}

// renderDrifts names each drift in the rule's words, joined by "; ". The
// drifts' placeholders are added to vars (the last drift's value wins).
func renderDrifts(rule *rules.Rule, op string, drifts []drift, vars map[string]string) string {
	clauses := make([]string, len(drifts))
	for i, d := range drifts {
		maps.Copy(vars, d.vars)
		clauses[i] = analysis.RenderText(rule, d.text, op, vars)
	}
	return strings.Join(clauses, "; ")
}

func backendListed(list []string, b string) bool {
	if len(list) == 0 {
		return true
	}
	for _, x := range list {
		if x == b {
			return true
		}
	}
	return false
}

// A drift is one difference of an implementation's signature from the
// stub's: the text of the rule that names it (a key of the kind's Texts)
// and the placeholders it fills.
type drift struct {
	text string
	vars map[string]string
}

// signatureDrift compares an implementation's signature with the stub's.
// With lenient, stub parameters that have a default may be missing. The
// anchor is the implementation's first differing parameter, nil when the
// first difference is one it lacks.
func signatureDrift(stub, impl *ast.FunctionDef, requireKwargs, lenient bool) ([]drift, ast.Node) {
	sp := astutil.Params(stub.Args)
	ip := astutil.Params(impl.Args)
	byName := map[string]astutil.Param{}
	var ipos []astutil.Param
	hasKw, hasVarPos := false, false
	for _, q := range ip {
		switch q.Kind {
		case astutil.VarKeyword:
			hasKw = true
		case astutil.VarPositional:
			hasVarPos = true
		default:
			byName[q.Name] = q
			if q.Kind != astutil.KeywordOnly {
				ipos = append(ipos, q)
			}
		}
	}
	stubNames := map[string]int{} // the stub's parameters by name, their index
	for _, s := range sp {
		stubNames[s.Name] = s.Index
	}
	var drifts []drift
	var anchor ast.Node
	// note records a drift of the stub's parameter s (nil: of none), at n.
	note := func(text string, s *astutil.Param, n ast.Node, kv ...string) {
		vars := map[string]string{}
		if s != nil {
			vars["param"], vars["position"] = s.Name, strconv.Itoa(s.Index+1)
		}
		for i := 0; i+1 < len(kv); i += 2 {
			vars[kv[i]] = kv[i+1]
		}
		drifts = append(drifts, drift{text, vars})
		if anchor == nil && n != nil {
			anchor = n
		}
	}
	for _, s := range sp {
		if s.Kind == astutil.VarKeyword || s.Kind == astutil.VarPositional {
			continue
		}
		q, ok := byName[s.Name]
		positional := s.Kind != astutil.KeywordOnly
		if positional && ok && q.Kind == astutil.KeywordOnly {
			note("keyword-only", &s, q.Arg)
			continue
		}
		if positional && s.Index < len(ipos) && ipos[s.Index].Name != s.Name {
			other := ipos[s.Index]
			if ok {
				note("moved", &s, q.Arg, "impl_position", strconv.Itoa(q.Index+1))
			} else if at, named := stubNames[other.Name]; named {
				// The stub's parameter is missing and the later ones
				// moved up: name the missing one, the root of the shift.
				note("shifted", &s, other.Arg, "other", other.Name, "other_position", strconv.Itoa(at+1))
			} else {
				note("renamed", &s, other.Arg, "other", other.Name)
			}
			continue
		}
		if !ok {
			if lenient && s.Default != nil {
				continue
			}
			if positional && hasVarPos && s.Index >= len(ipos) {
				continue // taken by *args positionally; its name cannot be checked
			}
			if hasKw {
				note("swallowed", &s, nil, "kwargs", kwName(impl))
			} else {
				note("missing", &s, nil)
			}
			continue
		}
		if positional && q.Kind == astutil.PosOnly && s.Kind != astutil.PosOnly {
			note("positional-only", &s, q.Arg)
		}
		if s.Default != nil {
			if q.Default == nil {
				note("required", &s, q.Arg, "default", astutil.ExprString(s.Default))
			} else if astutil.ExprString(q.Default) != astutil.ExprString(s.Default) {
				note("default", &s, q.Default, "default", astutil.ExprString(s.Default), "impl_default", astutil.ExprString(q.Default))
			}
		}
	}
	if requireKwargs && !hasKw {
		note("no-kwargs", nil, nil)
	}
	return drifts, anchor
}

func kwName(fd *ast.FunctionDef) string {
	if fd.Args != nil && fd.Args.Kwarg != nil {
		return fd.Args.Kwarg.Arg
	}
	return "kwargs"
}

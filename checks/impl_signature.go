package checks

import (
	"strconv"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// ImplSignatureAnalyzer implements kind "impl-signature".
var ImplSignatureAnalyzer = &Analyzer{
	Name:         "impl-signature",
	Placeholders: []string{"op", "file", "backend", "func", "problems", "stub"},
	Doc: `Reports a registered implementation whose parameters differ from its dispatch stub's.

For each register_impl site of a dispatched op whose function is resolvable in
its file (a decorated def, or register_impl(...)(name) with name defined in
the file), of the backends listed in "backends" (empty: every backend):
every stub parameter is accepted under the same name, positional ones at the
same position; wherever the stub gives a default the implementation gives
the same one (compared structurally: None, 1.0, -1, "none"); and the
implementation takes **kwargs. One finding per implementation, naming every
difference, anchored on the first differing parameter.`,
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
				probs, anchor := signatureDrift(op.Stub.Def, impl.Def, p.RequireKwargs && !lenient, lenient)
				if len(probs) == 0 {
					continue
				}
				if anchor == nil {
					anchor = defNode(impl.Def)
				}
				reportAt(pass, rule, op.Name, impl.File, anchor, map[string]string{
					"backend":  impl.Backend,
					"func":     impl.Def.Name,
					"problems": strings.Join(probs, "; "),
					"stub":     op.Stub.File.Path + ":" + strconv.Itoa(op.Stub.Def.Pos().Line),
				}, []analysis.Related{{File: op.Stub.File.Path, Pos: op.Stub.Def.Pos(), End: op.Stub.Def.Pos(), Message: "the dispatch stub"}}, nil)
			}
		}
	}
	return nil, nil
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

// signatureDrift compares an implementation's signature with the stub's.
// With lenient, stub parameters that have a default may be missing.
func signatureDrift(stub, impl *ast.FunctionDef, requireKwargs, lenient bool) ([]string, ast.Node) {
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
	var probs []string
	var anchor ast.Node
	note := func(msg string, n ast.Node) {
		probs = append(probs, msg)
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
			note("makes \""+s.Name+"\" keyword-only where the dispatch stub has it as parameter "+strconv.Itoa(s.Index+1), q.Arg)
			continue
		}
		if positional && s.Index < len(ipos) && ipos[s.Index].Name != s.Name {
			if ok {
				note("takes \""+s.Name+"\" as parameter "+strconv.Itoa(q.Index+1)+" where the dispatch stub has it as parameter "+strconv.Itoa(s.Index+1), q.Arg)
			} else if _, named := stubNames[ipos[s.Index].Name]; named {
				// The stub's parameter is missing and the later ones
				// moved up: name the missing one, the root of the shift.
				note("has no parameter \""+s.Name+"\" (its parameter "+strconv.Itoa(s.Index+1)+" is \""+ipos[s.Index].Name+"\", the dispatch stub's parameter "+strconv.Itoa(stubNames[ipos[s.Index].Name]+1)+")", ipos[s.Index].Arg)
			} else {
				note("names parameter "+strconv.Itoa(s.Index+1)+" \""+ipos[s.Index].Name+"\" where the dispatch stub has \""+s.Name+"\"", ipos[s.Index].Arg)
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
				note("has no parameter \""+s.Name+"\" (it would be swallowed by **"+kwName(impl)+" and ignored)", nil)
			} else {
				note("has no parameter \""+s.Name+"\"", nil)
			}
			continue
		}
		if positional && q.Kind == astutil.PosOnly && s.Kind != astutil.PosOnly {
			note("makes \""+s.Name+"\" positional-only", q.Arg)
		}
		if s.Default != nil {
			if q.Default == nil {
				note("requires \""+s.Name+"\" where the dispatch stub defaults it to "+astutil.ExprString(s.Default), q.Arg)
			} else if astutil.ExprString(q.Default) != astutil.ExprString(s.Default) {
				note("defaults \""+s.Name+"\" to "+astutil.ExprString(q.Default)+" where the dispatch stub has "+astutil.ExprString(s.Default), q.Default)
			}
		}
	}
	if requireKwargs && !hasKw {
		note("does not take **kwargs", nil)
	}
	return probs, anchor
}

func kwName(fd *ast.FunctionDef) string {
	if fd.Args != nil && fd.Args.Kwarg != nil {
		return fd.Args.Kwarg.Arg
	}
	return "kwargs"
}

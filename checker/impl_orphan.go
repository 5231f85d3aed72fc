package checker

import (
	"github.com/tilegym/tilegym-lint/python/ast"
)

// ImplOrphanAnalyzer implements kind "impl-orphan" (S2.5).
var ImplOrphanAnalyzer = &Analyzer{
	Name:         "impl-orphan",
	Placeholders: []string{"op", "file", "backend", "hint", "name"},
	Doc: `Reports register_impl names that no @dispatch stub declares.

An implementation registered under a name that is not a dispatched op is
never called through the dispatcher: a typo, or an op whose stub is missing.
The message suggests the nearest dispatched name. Sites in files matching the
rule's "files" globs only (empty: every file); names in "ignore" are allowed
(internal helpers registered on purpose).`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(implOrphanParams) },
	Run:      runImplOrphan,
}

func init() { Register(ImplOrphanAnalyzer) }

type implOrphanParams struct {
	Ignore []string `toml:"ignore"`
}

func runImplOrphan(pass *Pass) (any, error) {
	tab := opTableOf(pass)
	if tab == nil {
		return nil, nil
	}
	// A dispatch file that does not parse hides its stubs: every register_impl
	// of its ops would look orphaned. Name it in Related so that the driver
	// blames the parse error (TG001) instead.
	var brokenDispatch []Related
	for _, p := range pass.Repo.Paths {
		if f := pass.Repo.Files[p]; f != nil && f.AST == nil {
			if _, ok := DispatchScope(pass.Repo.Layout, p); ok {
				brokenDispatch = append(brokenDispatch, Related{File: p, Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: "does not parse; it may declare the op"})
			}
		}
	}
	var names []string
	for _, op := range tab.Ops {
		names = append(names, op.Name)
	}
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*implOrphanParams)
		ignore := map[string]bool{}
		if p != nil {
			for _, n := range p.Ignore {
				ignore[n] = true
			}
		}
		for _, impl := range tab.Impls {
			if tab.ByName[impl.Op] != nil || ignore[impl.Op] {
				continue
			}
			if len(rule.Files) > 0 && !matchBound(rule.Files, "", impl.File.Path) {
				continue
			}
			hint := "declare it with @dispatch(\"" + impl.Op + "\") in the dispatch file, or register it under the dispatched name"
			if c := closest(impl.Op, names); c != "" {
				hint = "did you mean \"" + c + "\"?"
			}
			var n ast.Node = impl.Call
			if a := CallArg(impl.Call, 0, "name"); a != nil {
				n = a
			}
			reportAt(pass, rule, "", impl.File, n, map[string]string{"name": impl.Op, "backend": impl.Backend, "hint": hint}, brokenDispatch, nil)
		}
	}
	return nil, nil
}

package checks

import (
	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

// ImplOrphanAnalyzer implements kind "impl-orphan".
var ImplOrphanAnalyzer = &Analyzer{
	Name:         "impl-orphan",
	Placeholders: []string{"op", "file", "backend", "dispatch", "func", "hint", "name", "nearest", "adds", "path"},
	Texts:        []string{"undeclared", "near-miss", "related-unparsed", "registered", "unregistered", "no-dispatch-file"},
	TextsFor:     implOrphanTexts,
	Doc: `Reports register_impl names that no @dispatch stub declares.

Each register_impl site of the op table whose name is no op's and not in
ignore, in a file the rule's files globs match (empty: every file), is
reported at its call. A near miss of a dispatched name (optable's suggester)
is charged to that op, with the text "near-miss", else "undeclared", a
finding of no op (the Undeclared property: change mode matches it across
snapshots by name). A dispatch file that does not parse is named as a
related position (text "related-unparsed"): its stubs are unknown. With stubless, the rule reports
instead each op of the table that has no dispatch stub (one registered for
the cuTile backend), once, at its first cuTile registration.`,
	Requires:   []*Analyzer{optable.OpTableAnalyzer},
	Params:     func() any { return new(implOrphanParams) },
	Run:        runImplOrphan,
	Undeclared: true,
}

type implOrphanParams struct {
	Ignore []string `toml:"ignore"`
	// Stubless, when set, reports instead each op of the table that has
	// no dispatch stub (an op being added: registered for the cuTile
	// backend, see addStublessOps), once, at its first cuTile registration.
	Stubless bool `toml:"stubless"`
}

func runImplOrphan(pass *Pass) (any, error) {
	tab := opTableOf(pass)
	if tab == nil {
		return nil, nil
	}
	// A dispatch file that does not parse hides its stubs: every register_impl
	// of its ops would look orphaned. Name it in Related so that the driver
	// blames the parse error (TG001) instead.
	var brokenDispatch []string
	for _, p := range pass.Repo.Paths {
		if f := pass.Repo.Files[p]; f != nil && f.AST == nil {
			if _, ok := layout.DispatchScope(pass.Repo.Layout, p); ok {
				brokenDispatch = append(brokenDispatch, p)
			}
		}
	}
	var names []string
	for _, op := range tab.Ops {
		names = append(names, op.Name)
	}
	suggest := optable.NewSuggester()
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*implOrphanParams)
		if p != nil && p.Stubless {
			reportStubless(pass, tab, rule)
			continue
		}
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
			if len(rule.Files) > 0 && !layout.MatchBound(rule.Files, "", impl.File.Path) {
				continue
			}
			// A near miss of a dispatched name is charged to that op: it is
			// the op the registration was meant for, whose Step 2 it
			// fails, and --op shows it as a whole check does.
			op, text := "", "undeclared"
			if c := suggest.Closest(impl.Op, names); c != "" {
				op, text = c, "near-miss"
			}
			vars := map[string]string{"name": impl.Op, "nearest": op, "backend": impl.Backend}
			vars["hint"] = analysis.RenderText(rule, text, op, vars)
			var n ast.Node = impl.Call
			if a := astutil.CallArg(impl.Call, 0, "name"); a != nil {
				n = a
			}
			var related []analysis.Related
			for _, p := range brokenDispatch {
				related = append(related, analysis.Related{File: p, Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: analysis.RenderText(rule, "related-unparsed", op, vars)})
			}
			reportAt(pass, rule, op, impl.File, n, vars, related, nil)
		}
	}
	return nil, nil
}

// implOrphanTexts: a stubless rule names the op's registration and the
// dispatch file, any other the registered name's repair.
func implOrphanTexts(r *rules.Rule) []string {
	if p, _ := r.Params.(*implOrphanParams); p != nil && p.Stubless {
		return []string{"registered", "unregistered", "no-dispatch-file"}
	}
	return []string{"undeclared", "near-miss", "related-unparsed"}
}

// reportStubless reports the ops of the table that have no dispatch stub.
func reportStubless(pass *Pass, tab *optable.OpTable, rule *rules.Rule) {
	names := layout.LayoutNames(pass.Repo.Layout)
	for _, op := range tab.Ops {
		if op.Stub != nil || !pass.Wants(op.Name) || op.Skipped(1) != nil {
			continue
		}
		impls := op.ImplsFor(names.CuTileBackend)
		if len(impls) == 0 {
			continue
		}
		impl := impls[0]
		text := "registered"
		if impl.Unregistered {
			text = "unregistered"
		}
		vars := map[string]string{"backend": impl.Backend, "func": op.Func, "dispatch": dispatchFileOf(op), "path": impl.File.Path}
		if vars["dispatch"] == "" {
			vars["dispatch"] = analysis.RenderText(rule, "no-dispatch-file", op.Name, vars)
		}
		vars["adds"] = analysis.RenderText(rule, text, op.Name, vars)
		reportAt(pass, rule, op.Name, impl.File, impl.Node(), vars, nil, nil)
	}
}

// dispatchFileOf names the dispatch file an op's stub belongs in, or ""
// (see firstDispatchFile).
func dispatchFileOf(op *optable.Op) string {
	if op.Scope == nil {
		return ""
	}
	return firstDispatchFile(op.Scope, op.Suite)
}

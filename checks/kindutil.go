package checks

// Helpers shared by the check kinds: anchors,
// reporting with related positions, skips and name suggestions.

import (
	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// dispatchAnchor returns the node a finding about an op's absence is
// anchored on: the dispatch decorator's callee (one line even when the
// decorator spans several), else the stub's def.
func dispatchAnchor(op *optable.Op) (*source.File, ast.Node) {
	if op == nil || op.Stub == nil {
		return nil, nil
	}
	if op.Stub.Decorator != nil && op.Stub.Decorator.Func != nil {
		return op.Stub.File, op.Stub.Decorator.Func
	}
	return op.Stub.File, op.Stub.Def
}

// reportAt reports a finding of rule for op at node n of file f, with
// optional related positions and fixes.
func reportAt(pass *Pass, rule *rules.Rule, op string, f *source.File, n ast.Node, vars map[string]string, related []analysis.Related, fixes []analysis.SuggestedFix) {
	if f != nil {
		pass.Report(diagAt(rule, op, f, n, vars, related, fixes))
	}
}

// reportShared is reportAt for a finding anchored on a line that several
// ops' findings share (Diagnostic.Shared).
func reportShared(pass *Pass, rule *rules.Rule, op string, f *source.File, n ast.Node, vars map[string]string, fixes []analysis.SuggestedFix) {
	if f != nil {
		d := diagAt(rule, op, f, n, vars, nil, fixes)
		d.Shared = true
		pass.Report(d)
	}
}

func diagAt(rule *rules.Rule, op string, f *source.File, n ast.Node, vars map[string]string, related []analysis.Related, fixes []analysis.SuggestedFix) analysis.Diagnostic {
	d := analysis.Diagnostic{Rule: rule, Op: op, File: f.Path, Message: analysis.Render(rule.Message, op, withFile(vars, f.Path)), Related: related, Fixes: fixes}
	if n != nil {
		d.Pos, d.End = n.Pos(), n.End()
	} else {
		d.Pos, d.End = ast.Pos{Line: 1}, ast.Pos{Line: 1}
	}
	return d
}

func withFile(vars map[string]string, file string) map[string]string {
	out := map[string]string{"file": file}
	for k, v := range vars {
		out[k] = v
	}
	return out
}

// cutileImpls returns the op's cuTile implementations that live under the
// cuTile package of its own scope (a suite op registered from the core
// package, or the other way round, does not count).
func cutileImpls(op *optable.Op, names *layout.Names) []*optable.Impl {
	var out []*optable.Impl
	root := ""
	if op.Scope != nil {
		root = layout.ExpandSuite(op.Scope.CuTile, op.Suite)
	}
	for _, im := range op.ImplsFor(names.CuTileBackend) {
		if im.Module != "" && im.File != nil && im.File.AST != nil && layout.UnderDir(root, im.File.Path) {
			out = append(out, im)
		}
	}
	return out
}

// inScopes reports whether the op's scope is listed (an empty list means
// every scope).
func inScopes(scopes []string, sc *layout.Scope) bool {
	if len(scopes) == 0 {
		return true
	}
	for _, s := range scopes {
		if sc != nil && s == sc.Name {
			return true
		}
	}
	return false
}

// opPublicNames returns the qualified names under which an op is reached
// through the public API of its scope ("tilegym.ops.softmax",
// "tilegym.ops.ops.softmax", "tilegym.suites.liger.ops.jsd").
func opPublicNames(op *optable.Op) []string {
	if op.Scope == nil {
		return nil
	}
	var out []string
	for _, m := range optable.APIModules(op.Scope, op.Suite) {
		out = append(out, m+"."+op.Func)
	}
	return out
}

// preferredPublicName is the shortest public name of an op
// ("tilegym.ops.softmax" rather than "tilegym.ops.ops.softmax"), for
// messages.
func preferredPublicName(op *optable.Op) string {
	best := ""
	for _, n := range opPublicNames(op) {
		if best == "" || len(n) < len(best) {
			best = n
		}
	}
	return best
}

// fill replaces {op}, {func} and {suite} of a template for an op.
func fill(tmpl string, op *optable.Op) string {
	return analysis.Render(tmpl, op.Name, map[string]string{"func": op.Func, "suite": op.Suite})
}

// stubbedOps returns the ops of the table with a stub the pass wants.
func stubbedOps(pass *Pass, tab *optable.OpTable) []*optable.Op {
	var out []*optable.Op
	for _, op := range tab.Ops {
		if op.Stub != nil && op.Stub.Def != nil && pass.Wants(op.Name) {
			out = append(out, op)
		}
	}
	return out
}

func firstOr(list []string, def string) string {
	if len(list) > 0 {
		return list[0]
	}
	return def
}

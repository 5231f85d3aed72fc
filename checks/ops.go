package checks

// What several kinds read of an op: its cuTile implementations, its public
// names, a template filled for it, the ops with a dispatch stub.

import (
	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
)

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

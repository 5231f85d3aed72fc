package checker

// Helpers shared by the check kinds: the op table of a pass, anchors,
// reporting with related positions, skips and name suggestions.

import (
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// opTableOf returns the op table a pass requires, or nil.
func opTableOf(pass *Pass) *OpTable {
	t, _ := pass.ResultOf[OpTableAnalyzer].(*OpTable)
	return t
}

// dispatchAnchor returns the node a finding about an op's absence is
// anchored on: the dispatch decorator's callee (one line even when the
// decorator spans several), else the stub's def.
func dispatchAnchor(op *Op) (*File, ast.Node) {
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
func reportAt(pass *Pass, rule *rules.Rule, op string, f *File, n ast.Node, vars map[string]string, related []Related, fixes []SuggestedFix) {
	if f == nil {
		return
	}
	d := Diagnostic{Rule: rule, Op: op, File: f.Path, Message: Render(rule.Message, op, withFile(vars, f.Path)), Related: related, Fixes: fixes}
	if n != nil {
		d.Pos, d.End = n.Pos(), n.End()
	} else {
		d.Pos, d.End = ast.Pos{Line: 1}, ast.Pos{Line: 1}
	}
	pass.Report(d)
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
func cutileImpls(op *Op, names *Names) []*Impl {
	var out []*Impl
	root := ""
	if op.Scope != nil {
		root = ExpandSuite(op.Scope.CuTile, op.Suite)
	}
	for _, im := range op.ImplsFor(names.CuTileBackend) {
		if im.Module != "" && im.File != nil && im.File.AST != nil && UnderDir(root, im.File.Path) {
			out = append(out, im)
		}
	}
	return out
}

// stepSkipped reports whether a step of op is skipped in writing; a skip of
// Step 2 also skips Step 3.
func stepSkipped(op *Op, step int) bool {
	if op.Skipped(step) != nil {
		return true
	}
	return step == 3 && op.Skipped(2) != nil
}

// inScopes reports whether the op's scope is listed (an empty list means
// every scope).
func inScopes(scopes []string, sc *Scope) bool {
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

// closest returns the candidate nearest to s by edit distance, if it is
// near enough to be a plausible typo. Only candidates within that distance
// are measured to the end, in one table allocated once: it is called per name
// that matches nothing, against every name of the repository.
func closest(s string, candidates []string) string {
	limit := max(2, len(s)/5)
	best, bestD := "", limit+1
	rows := make([]int, 2*(len(s)+limit+1)) // the longest candidate measured
	for _, c := range candidates {
		if len(c) > len(s)+limit || len(s) > len(c)+limit {
			continue // the distance is at least the difference of the lengths
		}
		var d int
		d, rows = editDistanceWithin(s, c, limit, rows)
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of two strings (bytes).
func editDistance(a, b string) int {
	d, _ := editDistanceWithin(a, b, len(a)+len(b), nil)
	return d
}

// editDistanceWithin returns the Levenshtein distance of a and b when it is
// at most limit, else limit+1 (as soon as a row of the table shows it). It
// uses rows for the table when it is long enough, and returns the table's
// storage for the next call.
func editDistanceWithin(a, b string, limit int, rows []int) (int, []int) {
	if cap(rows) < 2*(len(b)+1) {
		rows = make([]int, 2*(len(b)+1))
	}
	prev, cur := rows[:len(b)+1], rows[len(b)+1:2*(len(b)+1)]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1, rows // a row's minimum never decreases below
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit+1), rows
}

// dottedTail returns the last part of a dotted name.
func dottedTail(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// opPublicNames returns the qualified names under which an op is reached
// through the public API of its scope ("tilegym.ops.softmax",
// "tilegym.ops.ops.softmax", "tilegym.suites.liger.ops.jsd").
func opPublicNames(op *Op) []string {
	if op.Scope == nil {
		return nil
	}
	var out []string
	for _, m := range apiModules(op.Scope, op.Suite) {
		out = append(out, m+"."+op.Func)
	}
	return out
}

// preferredPublicName is the shortest public name of an op
// ("tilegym.ops.softmax" rather than "tilegym.ops.ops.softmax"), for
// messages.
func preferredPublicName(op *Op) string {
	best := ""
	for _, n := range opPublicNames(op) {
		if best == "" || len(n) < len(best) {
			best = n
		}
	}
	return best
}

// fill replaces {op}, {func} and {suite} of a template for an op.
func fill(tmpl string, op *Op) string {
	return Render(tmpl, op.Name, map[string]string{"func": op.Func, "suite": op.Suite})
}

// noParams is the params type of a check kind that takes none.
type noParams struct{}

// registerOpKind completes a check kind that reads the op table and
// registers it: the kind requires the op table, decodes a rule's params
// into a new *P (none for noParams), and runs check once per rule.
func registerOpKind[P any](a *Analyzer, check func(pass *Pass, tab *OpTable, rule *rules.Rule, p *P)) *Analyzer {
	a.Requires = []*Analyzer{OpTableAnalyzer}
	if _, none := any(new(P)).(*noParams); !none {
		a.Params = func() any { return new(P) }
	}
	a.Run = func(pass *Pass) (any, error) {
		tab := opTableOf(pass)
		if tab == nil {
			return nil, nil
		}
		for _, rule := range pass.Rules {
			p, _ := rule.Params.(*P)
			if p == nil && rule.Params == nil {
				p = new(P)
			}
			if p != nil {
				check(pass, tab, rule, p)
			}
		}
		return nil, nil
	}
	Register(a)
	return a
}

// stubbedOps returns the ops of the table with a stub the pass wants.
func stubbedOps(pass *Pass, tab *OpTable) []*Op {
	var out []*Op
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

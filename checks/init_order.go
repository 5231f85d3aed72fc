package checks

import (
	"path"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// InitOrderAnalyzer implements kind "init-order".
var InitOrderAnalyzer = opKind(&Analyzer{
	Doc: `Reports the module imports of an __init__.py that are out of alphabetical order.

The "from . import <module>" statements of each __init__.py are in
alphabetical order; reported at each statement to move (outside a longest
run already in order), charged to its module's op, with a fix that sorts
them.`,
	Name:         "init-order",
	Placeholders: []string{"op", "file", "init", "module", "other", "previous", "relation"},
	Texts:        []string{"fix"},
}, func(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *InitParams) {
	checkInitOrder(pass, rule, p, tab, layout.LayoutNames(pass.Repo.Layout))
})

// checkInitOrder reports the first out-of-order `from . import` statement of
// each __init__ of the selected scopes.
func checkInitOrder(pass *Pass, rule *rules.Rule, p *InitParams, tab *optable.OpTable, names *layout.Names) {
	moduleOp := map[string]string{} // init dir + "/" + module part -> op
	for _, op := range tab.Ops {
		for _, im := range cutileImpls(op, names) {
			root := strings.TrimSuffix(layout.ExpandSuite(op.Scope.CuTile, op.Suite), "/")
			parts := strings.Split(im.Module, ".")
			dir := root
			for _, part := range parts {
				k := dir + "/" + part
				if _, ok := moduleOp[k]; !ok {
					moduleOp[k] = op.Name
				}
				dir += "/" + part
			}
		}
	}
	for _, in := range tab.Inits {
		if in.Scope == nil || !inScopes(p.Scopes, in.Scope) {
			continue
		}
		blocked := len(p.BlockScopes) > 0 && inScopes(p.BlockScopes, in.Scope) && in.Block != nil
		imps := PlainModuleImports(in, blocked)
		// The imports to move are those outside a longest run already in
		// order (a longest non-decreasing subsequence): each is reported,
		// charged to its own op (not to a neighbour), so that the op whose
		// import is out of place fails Step 3.
		dir := path.Dir(in.File.Path)
		lower := make([]string, len(imps))
		for i, x := range imps {
			lower[i] = strings.ToLower(x.Name)
		}
		inOrder := longestOrdered(lower)
		involved := map[int]bool{}
		for i := range imps {
			if inOrder[i] {
				continue
			}
			involved[i] = true
		}
		var edits []analysis.TextEdit
		fixBuilt := false
		greatest, least := greatestBefore(lower), leastAfter(lower)
		for i, cur := range imps {
			if !involved[i] {
				continue
			}
			name := lower[i]
			var after, before *optable.InitImport
			if g := greatest[i]; g >= 0 && lower[g] > name {
				after = imps[g]
			}
			if l := least[i]; l >= 0 && lower[l] < name {
				before = imps[l]
			}
			relation, other := "after", after
			if other == nil {
				relation, other = "before", before
			}
			if other == nil {
				continue
			}
			if !fixBuilt {
				// Once per init: a block it cannot sort (imports not one
				// per line) has no fix, and building it again for each
				// misplaced import split the file each time.
				edits, fixBuilt = sortImportsEdits(in, imps), true
			}
			op := moduleOp[dir+"/"+cur.Name]
			vars := map[string]string{"module": cur.Name, "previous": other.Name, "other": other.Name, "relation": relation, "init": in.File.Path}
			reportAt(pass, rule, op, in.File, cur.Stmt, vars, nil, ruleFix(rule, "fix", op, vars, edits))
		}
	}
}

// greatestBefore returns, for each i, the index of the first of the
// greatest of xs[:i] (-1 for i = 0): the import a misplaced one is reported
// after, found in one pass instead of a scan per import.
func greatestBefore(xs []string) []int {
	out := make([]int, len(xs))
	g := -1
	for i := range xs {
		out[i] = g
		if g < 0 || xs[i] > xs[g] {
			g = i
		}
	}
	return out
}

// leastAfter returns, for each i, the index of the first of the least of
// xs[i+1:] (-1 for the last): the import a misplaced one is reported
// before when none before it is greater.
func leastAfter(xs []string) []int {
	out := make([]int, len(xs))
	l := -1
	for i := len(xs) - 1; i >= 0; i-- {
		out[i] = l
		if l < 0 || xs[i] <= xs[l] {
			l = i
		}
	}
	return out
}

// longestOrdered marks a longest non-decreasing subsequence of xs: the
// one whose every element follows the earliest of the longest runs that
// can precede it, ending at the earliest end of a longest one (as
// longestOrderedScan picks it). Each element's predecessor is the best of
// the elements not greater than it, found in a Fenwick tree over the
// ranks of the values: O(n log n) instead of O(n^2) comparisons.
func longestOrdered(xs []string) []bool {
	n := len(xs)
	sorted := append([]string(nil), xs...)
	sort.Strings(sorted)
	ranks := make([]int, n)
	for i, x := range xs {
		ranks[i] = sort.SearchStrings(sorted, x) + 1 // equal values share a rank
	}
	type run struct{ length, end int } // a run of length ending at index end
	better := func(a, b run) bool { return a.length > b.length || a.length == b.length && a.end < b.end }
	tree := make([]run, n+1) // tree[k]: the best run ending at a value of rank in (k-lowbit(k), k]
	prev := make([]int, n)
	best := run{0, -1}
	for i := range xs {
		p := run{0, -1}
		for k := ranks[i]; k > 0; k -= k & -k {
			if better(tree[k], p) {
				p = tree[k]
			}
		}
		prev[i] = p.end
		r := run{p.length + 1, i}
		for k := ranks[i]; k <= n; k += k & -k {
			if better(r, tree[k]) {
				tree[k] = r
			}
		}
		if better(r, best) {
			best = r
		}
	}
	out := make([]bool, n)
	for i := best.end; i >= 0; i = prev[i] {
		out[i] = true
	}
	return out
}

// sortImportsEdits rewrite the `from . import` lines sorted, when they are
// single-line statements on consecutive lines (comments after them kept).
func sortImportsEdits(in *optable.Init, imps []*optable.InitImport) []analysis.TextEdit {
	lines := strings.Split(in.File.Text(), "\n")
	first := imps[0].Stmt.Pos().Line
	for i, x := range imps {
		if x.Stmt.Pos().Line != first+i || x.Stmt.End().Line != first+i || len(x.Stmt.Names) != 1 {
			return nil
		}
	}
	last := first + len(imps) - 1
	if last > len(lines) {
		return nil
	}
	type ln struct{ name, text string }
	var ls []ln
	for i, x := range imps {
		ls = append(ls, ln{x.Name, lines[first-1+i]})
	}
	sort.SliceStable(ls, func(a, b int) bool { return strings.ToLower(ls[a].name) < strings.ToLower(ls[b].name) })
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.text)
		b.WriteString("\n")
	}
	return []analysis.TextEdit{{
		File: in.File.Path, Start: ast.Pos{Line: first}, End: ast.Pos{Line: last + 1}, NewText: b.String(),
	}}
}

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

var InitOrderAnalyzer = registerOpKind(&Analyzer{
	Doc: `Checks that the module imports of each __init__.py are sorted (S3.2).

The "from . import <module>" statements of each __init__.py are in
alphabetical order; reported at each statement to move (outside a longest
run already in order), charged to its module's op, with a fix that sorts
them.`,
	Name:         "init-order",
	Placeholders: []string{"op", "file", "init", "module", "other", "previous", "relation"},
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
		var fix []analysis.SuggestedFix
		for i, cur := range imps {
			if !involved[i] {
				continue
			}
			name := lower[i]
			var after, before *optable.InitImport
			for _, e := range imps[:i] {
				if strings.ToLower(e.Name) > name && (after == nil || strings.ToLower(e.Name) > strings.ToLower(after.Name)) {
					after = e
				}
			}
			for _, l := range imps[i+1:] {
				if strings.ToLower(l.Name) < name && (before == nil || strings.ToLower(l.Name) < strings.ToLower(before.Name)) {
					before = l
				}
			}
			relation, other := "after", after
			if other == nil {
				relation, other = "before", before
			}
			if other == nil {
				continue
			}
			if fix == nil {
				fix = sortImportsFix(in, imps)
			}
			reportAt(pass, rule, moduleOp[dir+"/"+cur.Name], in.File, cur.Stmt, map[string]string{
				"module": cur.Name, "previous": other.Name, "other": other.Name, "relation": relation, "init": in.File.Path,
			}, nil, fix)
		}
	}
}

// longestOrdered marks the elements of a longest non-decreasing
// subsequence of xs (the earliest such, for a deterministic choice).
func longestOrdered(xs []string) []bool {
	n := len(xs)
	length, prev := make([]int, n), make([]int, n)
	best := -1
	for i := range xs {
		length[i], prev[i] = 1, -1
		for j := 0; j < i; j++ {
			if xs[j] <= xs[i] && length[j]+1 > length[i] {
				length[i], prev[i] = length[j]+1, j
			}
		}
		if best < 0 || length[i] > length[best] {
			best = i
		}
	}
	out := make([]bool, n)
	for i := best; i >= 0; i = prev[i] {
		out[i] = true
	}
	return out
}

// sortImportsFix rewrites the `from . import` lines sorted, when they are
// single-line statements on consecutive lines (comments after them kept).
func sortImportsFix(in *optable.Init, imps []*optable.InitImport) []analysis.SuggestedFix {
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
	return []analysis.SuggestedFix{{Message: "sort the module imports", Edits: []analysis.TextEdit{{
		File: in.File.Path, Start: ast.Pos{Line: first}, End: ast.Pos{Line: last + 1}, NewText: b.String(),
	}}}}
}

package checks

import (
	"strconv"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// ImplExistsAnalyzer implements kind "impl-exists".
var ImplExistsAnalyzer = opKind(&Analyzer{
	Doc: `Reports an op with no cuTile implementation under its scope's cuTile package.

The op table must hold a register_impl(..., backend=<cuTile backend>) site
of the op in a module under the cuTile package of the op's scope; else one
finding on the @dispatch decorator naming the expected module ("expected",
a template such as "{cutile}/{func}.py") as a related position, with any
module of the package that does not parse (it may register the op). A
written skip of Step 2 silences it. {action} is what to do: add the
expected module, or, when a cuTile module registers a near miss of the
op's name (Op.Misnamed), correct that registration.`,
	Name:         "impl-exists",
	Placeholders: []string{"op", "file", "backends", "expected", "func", "action", "backend", "path", "line", "name"},
	Texts:        []string{"add", "misnamed", "backend-in", "backend-as", "no-backend", "related-expected", "related-unparsed"},
}, runImplExists)

type implExistsParams struct {
	Expected string `toml:"expected"` // template of the expected module: "{cutile}/{func}.py"
}

func runImplExists(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *implExistsParams) {
	names := layout.LayoutNames(pass.Repo.Layout)
	for _, op := range tab.Ops {
		if !pass.Wants(op.Name) || op.Skipped(2) != nil || len(cutileImpls(op, names)) > 0 {
			continue
		}
		f, n := dispatchAnchor(op)
		exp := expectedModule(pass.Repo, op, p.Expected)
		vars := map[string]string{"expected": exp, "func": op.Func}
		var other []string
		for _, im := range op.Impls {
			if im.Backend == names.CuTileBackend {
				vars["backend"], vars["path"] = im.Backend, im.File.Path
				other = append(other, analysis.RenderText(rule, "backend-in", op.Name, vars))
			} else {
				other = append(other, im.Backend)
			}
		}
		action := "add"
		if len(op.Misnamed) > 0 {
			m := op.Misnamed[0]
			action = "misnamed"
			vars["path"], vars["line"], vars["name"], vars["backend"] = m.File.Path, strconv.Itoa(m.Call.Pos().Line), m.Op, m.Backend
			other = append(other, analysis.RenderText(rule, "backend-as", op.Name, vars))
		}
		vars["action"] = analysis.RenderText(rule, action, op.Name, vars)
		vars["backends"] = strings.Join(uniq(other), ", ")
		if len(other) == 0 {
			vars["backends"] = analysis.RenderText(rule, "no-backend", op.Name, vars)
		}
		related := []analysis.Related{{File: exp, Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: analysis.RenderText(rule, "related-expected", op.Name, vars)}}
		// A module of the package that does not parse may register the
		// op: name it, so that the driver blames the parse error (TG001)
		// instead of reporting a missing implementation.
		for _, u := range unparsedUnder(pass.Repo, op) {
			if u != exp {
				related = append(related, analysis.Related{File: u, Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: analysis.RenderText(rule, "related-unparsed", op.Name, vars)})
			}
		}
		reportAt(pass, rule, op.Name, f, n, vars, related, nil)
	}
}

// unparsedUnder returns the files under the op's cuTile package that did
// not parse (the op may be registered in one of them).
func unparsedUnder(repo *optable.Repo, op *optable.Op) []string {
	if op.Scope == nil {
		return nil
	}
	root := layout.ExpandSuite(op.Scope.CuTile, op.Suite)
	var out []string
	for _, p := range repo.Paths {
		if f := repo.Files[p]; f != nil && f.AST == nil && layout.UnderDir(root, p) {
			out = append(out, p)
		}
	}
	return out
}

// expectedModule renders the path of the expected cuTile module of an op:
// {cutile} is the scope's cuTile root, {func} the op's function name and
// {suite} its suite.
func expectedModule(repo *optable.Repo, op *optable.Op, tmpl string) string {
	if tmpl == "" {
		tmpl = "{cutile}/{func}.py"
	}
	root := ""
	if op.Scope != nil {
		root = strings.TrimSuffix(layout.ExpandSuite(op.Scope.CuTile, op.Suite), "/")
	}
	return analysis.Expand(tmpl, "{cutile}", root, "{func}", op.Func, "{suite}", op.Suite)
}

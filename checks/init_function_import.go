package checks

import (
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

var InitFunctionImportAnalyzer = opKind(&Analyzer{
	Doc: `Checks that an __init__.py imports each op's registered function (S3.3).

Some __init__.py of the chain imports the registered function ("from
.<module> import <func>", where <func> is the op's function name or the name
of its registered function).`,
	Name:         "init-function-import",
	Placeholders: []string{"op", "file", "func", "import", "init", "where"},
}, runInitFunctionImport)

func runInitFunctionImport(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *InitParams) {
	names := layout.LayoutNames(pass.Repo.Layout)
	eachChain(pass, tab, p, true, func(op *optable.Op, impls []*optable.Impl, c *initChain) {
		// Also when the module import is missing (init-module-import):
		// Step 3 names every entry it lacks at once, so that adding one does
		// not reveal the next.
		if c.findFunc(implFuncNames(op, impls)) {
			return
		}
		i := c.funcHome()
		in := c.inits[i]
		if in == nil {
			return
		}
		fn := suggestFunc(op, impls)
		stmt := "from ." + c.modRel(i) + " import " + fn
		bl := c.blockedAt(i)
		reportShared(pass, rule, op.Name, in.File, initAnchor(in, bl), map[string]string{
			"import": stmt, "where": whereLabel(bl, names), "init": in.File.Path, "func": fn,
		}, funcImportFix(in, bl, c.modRel(i), fn))
	})
}

// findFunc reports whether an __init__ of the chain imports one of funcs
// from the module (or from a package of the chain containing it).
func (c *initChain) findFunc(funcs map[string]bool) bool {
	for i, in := range c.inits {
		if in == nil {
			continue
		}
		for f := range funcs {
			for _, x := range c.index[i].funcs[f] {
				if c.blockedAt(i) && !x.InBlock {
					continue
				}
				rel := c.modRel(i)
				if x.Module == rel || strings.HasPrefix(rel, x.Module+".") {
					return true
				}
			}
		}
	}
	return false
}

func lastFuncImport(in *optable.Init, blocked bool) ast.Stmt {
	var last ast.Stmt
	for _, x := range in.FuncImports {
		if !blocked || x.InBlock {
			last = x.Stmt
		}
	}
	if last == nil {
		imps := PlainModuleImports(in, blocked)
		if len(imps) > 0 {
			last = imps[len(imps)-1].Stmt
		}
	}
	return last
}

// funcImportFix inserts `from .<module> import <name>` among the init's
// `from .x import y` statements in isort's place (by module, then name,
// case-insensitively), else after its last module import.
func funcImportFix(in *optable.Init, blocked bool, module, name string) []analysis.SuggestedFix {
	if !codeNames(module) || !ast.IsIdentifier(name) {
		return nil
	}
	stmt := "from ." + module + " import " + name
	key := func(mod, name string) string { return strings.ToLower(mod) + "\x00" + strings.ToLower(name) }
	want := key(module, name)
	var froms []*ast.ImportFrom
	seen := map[*ast.ImportFrom]bool{}
	for _, list := range [][]*optable.InitImport{in.ModuleImports, in.FuncImports} {
		for _, x := range list {
			if x.Stmt.Module == nil || x.Stmt.Level != 1 || blocked && !x.InBlock || seen[x.Stmt] || len(x.Stmt.Names) == 0 {
				continue
			}
			seen[x.Stmt] = true
			froms = append(froms, x.Stmt)
		}
	}
	if len(froms) == 0 {
		return insertImportFix(in, blocked, stmt, lastFuncImport(in, blocked))
	}
	sort.SliceStable(froms, func(i, j int) bool { return froms[i].Pos().Before(froms[j].Pos()) })
	var after ast.Stmt
	for _, s := range froms {
		if key(*s.Module, s.Names[0].Name) <= want {
			after = s
		}
	}
	if after != nil {
		return insertImportFix(in, blocked, stmt, after)
	}
	first := froms[0]
	pos := ast.Pos{Line: first.Pos().Line}
	indent := strings.Repeat(" ", first.Pos().Col)
	return []analysis.SuggestedFix{{Message: "add " + stmt, Edits: []analysis.TextEdit{{File: in.File.Path, Start: pos, End: pos, NewText: indent + stmt + "\n"}}}}
}

package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
)

// The Step 3 entries of an op in a cuTile __init__.py, as one set of fixes:
// what `tilegym-lint new` writes is what --fix would write.

// InitEntryFixes returns the fixes that add the Step 3 entries of the op
// whose module is module and whose function is function to the cuTile
// __init__.py in (inside its backend block when blocked): the module import
// (TG301's fix), the function import (TG303's) and, when in has an
// __all__, its entry (TG304's); only those in lacks. All are computed on in
// as it is: two that insert at the same place are merged into one fix, the
// module import first. ok is false when an entry is missing and no fix for
// it is mechanical (an unusual layout of the file).
func InitEntryFixes(in *optable.Init, blocked bool, module, function string) (fixes []analysis.SuggestedFix, ok bool) {
	ok = true
	add := func(missing bool, fix func() []analysis.SuggestedFix) {
		if !missing {
			return
		}
		f := fix()
		ok = ok && len(f) > 0
		fixes = append(fixes, f...)
	}
	add(!initImportsModule(in, blocked, module), func() []analysis.SuggestedFix { return moduleImportFix(in, blocked, module) })
	add(!initImportsFunc(in, blocked, module, function), func() []analysis.SuggestedFix { return funcImportFix(in, blocked, module, function) })
	add(in.AllNode != nil && !initLists(in, function), func() []analysis.SuggestedFix { return addToAllFix(in, function) })
	return mergeInsertions(fixes), ok
}

// moduleImportFix inserts `from . import <name>` in alphabetical place
// among the init's module imports, with the `# noqa` comment they carry
// (a suite's __init__.py marks them so, having no __all__ to name them in).
func moduleImportFix(in *optable.Init, blocked bool, name string) []analysis.SuggestedFix {
	stmt := "from . import " + name
	fixes := insertImportFix(in, blocked, stmt, sortedModuleSlot(in, blocked, name))
	if suffix := moduleImportNoqa(in, blocked); suffix != "" {
		for i := range fixes {
			for j := range fixes[i].Edits {
				e := &fixes[i].Edits[j]
				e.NewText = strings.TrimSuffix(e.NewText, "\n") + suffix + "\n"
			}
		}
	}
	return fixes
}

// moduleImportNoqa returns "  # noqa..." when the init's last module import
// ends with such a comment, else "".
func moduleImportNoqa(in *optable.Init, blocked bool) string {
	imps := PlainModuleImports(in, blocked)
	if len(imps) == 0 || in.File.AST == nil {
		return ""
	}
	end := imps[len(imps)-1].Stmt.End().Line
	for _, c := range in.File.AST.Comments {
		if c.Pos.Line == end && strings.HasPrefix(c.Text, "# noqa") {
			return "  " + c.Text
		}
	}
	return ""
}

func initImportsModule(in *optable.Init, blocked bool, module string) bool {
	for _, x := range in.ModuleImports {
		if x.Module == module && (!blocked || x.InBlock) {
			return true
		}
	}
	return false
}

func initImportsFunc(in *optable.Init, blocked bool, module, function string) bool {
	for _, x := range in.FuncImports {
		if x.Module == module && x.Name == function && (!blocked || x.InBlock) {
			return true
		}
	}
	return false
}

func initLists(in *optable.Init, function string) bool {
	for _, c := range in.All {
		if s, _ := c.Value.(string); s == function {
			return true
		}
	}
	return false
}

// mergeInsertions merges fixes whose single edit inserts at the same place
// of the same file into one fix (their texts in order): applied together,
// two insertions at one place would overlap.
func mergeInsertions(fixes []analysis.SuggestedFix) []analysis.SuggestedFix {
	var out []analysis.SuggestedFix
	type place struct {
		file string
		pos  ast.Pos
	}
	at := map[place]int{} // index in out
	for _, f := range fixes {
		if len(f.Edits) != 1 || f.Edits[0].Start != f.Edits[0].End {
			out = append(out, f)
			continue
		}
		e := f.Edits[0]
		key := place{e.File, e.Start}
		if i, ok := at[key]; ok {
			out[i].Message += "; " + f.Message
			out[i].Edits[0].NewText += e.NewText
			continue
		}
		at[key] = len(out)
		out = append(out, analysis.SuggestedFix{Message: f.Message, Edits: []analysis.TextEdit{e}})
	}
	return out
}

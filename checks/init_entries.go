package checks

import (
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/directive"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

// The Step 3 entries of an op in a cuTile __init__.py, as one set of edits:
// what `tilegym-lint new` writes is what --fix would write.

// InitEntryEdits returns the edits that add the Step 3 entries of the op
// whose module is module and whose function is function to the cuTile
// __init__.py in (inside its backend block when blocked): the module import
// (TG301's fix), the function import (TG303's) and, when in has an
// __all__, its entry (TG304's); only those in lacks. All are computed on in
// as it is: two that insert at the same place are merged into one edit, the
// module import first. ok is false when an entry is missing and no fix for
// it is mechanical (an unusual layout of the file).
func InitEntryEdits(in *optable.Init, blocked bool, module, function string) (edits []analysis.TextEdit, ok bool) {
	ok = true
	add := func(missing bool, fix func() []analysis.TextEdit) {
		if !missing {
			return
		}
		e := fix()
		ok = ok && len(e) > 0
		edits = append(edits, e...)
	}
	add(!initImportsModule(in, blocked, module), func() []analysis.TextEdit { return moduleImportEdits(in, blocked, module) })
	add(!initImportsFunc(in, blocked, module, function), func() []analysis.TextEdit { return funcImportEdits(in, blocked, module, function) })
	add(in.AllNode != nil && !initLists(in, function), func() []analysis.TextEdit { return addToAllEdits(in, function) })
	return mergeInsertions(edits), ok
}

// moduleImportEdits insert `from . import <name>` in alphabetical place
// among the init's module imports, with the `# noqa` comment they carry
// (a suite's __init__.py marks them so, having no __all__ to name them in).
func moduleImportEdits(in *optable.Init, blocked bool, name string) []analysis.TextEdit {
	stmt := "from . import " + name
	edits := insertImportEdits(in, blocked, stmt, sortedModuleSlot(in, blocked, name))
	if suffix := moduleImportNoqa(in, blocked); suffix != "" {
		for i := range edits {
			e := &edits[i]
			e.NewText = strings.TrimSuffix(e.NewText, "\n") + suffix + "\n"
		}
	}
	return edits
}

// moduleImportNoqa returns "  " and the comment ending the init's last
// module import when it is a # noqa (as package directive reads one), else
// "".
func moduleImportNoqa(in *optable.Init, blocked bool) string {
	imps := PlainModuleImports(in, blocked)
	if len(imps) == 0 || in.File.AST == nil {
		return ""
	}
	end := imps[len(imps)-1].Stmt.End().Line
	for _, c := range in.File.AST.Comments {
		if _, noqa := directive.Noqa(c.Text); c.Pos.Line == end && noqa {
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

// mergeInsertions merges edits that insert at the same place of the same
// file into one (their texts in order): applied together, two insertions
// at one place would overlap.
func mergeInsertions(edits []analysis.TextEdit) []analysis.TextEdit {
	var out []analysis.TextEdit
	type place struct {
		file string
		pos  ast.Pos
	}
	at := map[place]int{} // index in out
	for _, e := range edits {
		if e.Start != e.End {
			out = append(out, e)
			continue
		}
		key := place{e.File, e.Start}
		if i, ok := at[key]; ok {
			out[i].NewText += e.NewText
			continue
		}
		at[key] = len(out)
		out = append(out, e)
	}
	return out
}

// addToAllEdits add "name" to the __all__ list literal: in alphabetical
// place when the list is sorted, else at its end; on a line of its own when
// the list has one element a line.
func addToAllEdits(in *optable.Init, name string) []analysis.TextEdit {
	if !ast.IsIdentifier(name) {
		return nil
	}
	a, ok := in.AllNode.(*ast.Assign)
	if !ok {
		return nil
	}
	var elts []ast.Expr
	entry := "\"" + name + "\""
	switch v := a.Value.(type) {
	case *ast.List:
		elts = v.Elts
	case *ast.Tuple:
		elts = v.Elts
		entry += ","
	default:
		return nil
	}
	if len(elts) == 0 {
		// An empty literal, "[]" or "()": the entry goes inside.
		open := a.Value.Pos()
		if line := srcLine(fileLines.Of(in.File), open.Line); open.Col >= len(line) || line[open.Col] != '[' && line[open.Col] != '(' {
			return nil
		}
		at := ast.Pos{Line: open.Line, Col: open.Col + 1}
		return []analysis.TextEdit{{File: in.File.Path, Start: at, End: at, NewText: entry}}
	}
	last := elts[len(elts)-1]
	lines := fileLines.Of(in.File)
	sc := &scanner{lines: lines, pos: last.End()}
	comma := false
	if sc.skip() == ',' {
		comma = true
		sc.next()
	}
	if c := sc.skip(); c == ']' || c == ')' {
		closing := sc.pos
		if comma && closing.Line > last.End().Line && strings.TrimSpace(srcLine(lines, closing.Line)[:closing.Col]) == "" && last.Pos().Line == last.End().Line {
			// One element a line, with a trailing comma: a line of its own,
			// in alphabetical place when the list is sorted, else after the
			// last element (before any comment lines below it).
			at := ast.Pos{Line: last.End().Line + 1}
			if before := sortedSlot(elts, name); before != nil && before.Pos().Col == len(leadingSpace(srcLine(lines, before.Pos().Line))) {
				at = ast.Pos{Line: before.Pos().Line}
			}
			indent := leadingSpace(srcLine(lines, last.Pos().Line))
			return []analysis.TextEdit{{File: in.File.Path, Start: at, End: at, NewText: indent + "\"" + name + "\",\n"}}
		}
	}
	if before := sortedSlot(elts, name); before != nil {
		// A sorted list written on one line (or several entries a line):
		// in alphabetical place.
		return []analysis.TextEdit{{File: in.File.Path, Start: before.Pos(), End: before.Pos(), NewText: "\"" + name + "\", "}}
	}
	return []analysis.TextEdit{{File: in.File.Path, Start: last.End(), End: last.End(), NewText: ", \"" + name + "\""}}
}

// sortedSlot returns, when the string elements are sorted (ignoring case),
// the first one that name goes before; nil when it goes last or the list
// is not sorted.
func sortedSlot(elts []ast.Expr, name string) ast.Expr {
	var at ast.Expr
	prev := ""
	for i, e := range elts {
		v, ok := astutil.StringValue(e)
		if !ok || e.Pos().Line != e.End().Line {
			return nil
		}
		v = strings.ToLower(v)
		if i > 0 && v < prev {
			return nil
		}
		prev = v
		if at == nil && strings.ToLower(name) < v {
			at = e
		}
	}
	return at
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

// funcImportEdits insert `from .<module> import <name>` among the init's
// `from .x import y` statements in isort's place (by module, then name,
// case-insensitively), else after its last module import.
func funcImportEdits(in *optable.Init, blocked bool, module, name string) []analysis.TextEdit {
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
		return insertImportEdits(in, blocked, stmt, lastFuncImport(in, blocked))
	}
	sort.SliceStable(froms, func(i, j int) bool { return froms[i].Pos().Before(froms[j].Pos()) })
	var after ast.Stmt
	for _, s := range froms {
		if key(*s.Module, s.Names[0].Name) <= want {
			after = s
		}
	}
	if after != nil {
		return insertImportEdits(in, blocked, stmt, after)
	}
	first := froms[0]
	pos := ast.Pos{Line: first.Pos().Line}
	indent := strings.Repeat(" ", first.Pos().Col)
	return []analysis.TextEdit{{File: in.File.Path, Start: pos, End: pos, NewText: indent + stmt + "\n"}}
}

// sortedModuleSlot returns the statement after which `from . import name`
// belongs in alphabetical order (nil: before the first one).
func sortedModuleSlot(in *optable.Init, blocked bool, name string) ast.Stmt {
	imps := PlainModuleImports(in, blocked)
	var after ast.Stmt
	for _, x := range imps {
		if strings.ToLower(x.Name) < strings.ToLower(name) {
			after = x.Stmt
		}
	}
	if after == nil && len(imps) > 0 {
		return nil
	}
	return after
}

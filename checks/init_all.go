package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
)

var InitAllAnalyzer = opKind(&Analyzer{
	Doc: `Checks that an __init__.py lists each op's function in __all__ (S3.4).

Some __init__.py of the chain lists "<func>" in __all__, where <func> is the
op's function name or the name of its registered function.`,
	Name:         "init-all",
	Placeholders: []string{"op", "file", "func", "init", "where"},
}, runInitAll)

func runInitAll(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *InitParams) {
	names := layout.LayoutNames(pass.Repo.Layout)
	eachChain(pass, tab, p, true, func(op *optable.Op, impls []*optable.Impl, c *initChain) {
		if c.findAll(implFuncNames(op, impls)) { // with or without the module import, as init-function-import
			return
		}
		i := c.funcHome()
		in := c.inits[i]
		if in == nil {
			return
		}
		fn := suggestFunc(op, impls)
		var n ast.Node = in.AllNode
		if n == nil {
			n = initAnchor(in, c.blockedAt(i))
		}
		reportShared(pass, rule, op.Name, in.File, n, map[string]string{
			"func": fn, "where": whereLabel(c.blockedAt(i), names), "init": in.File.Path,
		}, addToAllFix(in, fn))
	})
}

func (c *initChain) findAll(funcs map[string]bool) bool {
	for j, in := range c.inits {
		if in == nil {
			continue
		}
		for f := range funcs {
			if c.index[j].all[f] {
				return true
			}
		}
	}
	return false
}

// addToAllFix adds "name" to the __all__ list literal: in alphabetical
// place when the list is sorted, else at its end; on a line of its own when
// the list has one element a line.
func addToAllFix(in *optable.Init, name string) []analysis.SuggestedFix {
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
		return []analysis.SuggestedFix{{Message: "add \"" + name + "\" to __all__", Edits: []analysis.TextEdit{{File: in.File.Path, Start: at, End: at, NewText: entry}}}}
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
			return []analysis.SuggestedFix{{Message: "add \"" + name + "\" to __all__", Edits: []analysis.TextEdit{{File: in.File.Path, Start: at, End: at, NewText: indent + "\"" + name + "\",\n"}}}}
		}
	}
	if before := sortedSlot(elts, name); before != nil {
		// A sorted list written on one line (or several entries a line):
		// in alphabetical place.
		return []analysis.SuggestedFix{{Message: "add \"" + name + "\" to __all__", Edits: []analysis.TextEdit{{File: in.File.Path, Start: before.Pos(), End: before.Pos(), NewText: "\"" + name + "\", "}}}}
	}
	return []analysis.SuggestedFix{{Message: "add \"" + name + "\" to __all__", Edits: []analysis.TextEdit{{File: in.File.Path, Start: last.End(), End: last.End(), NewText: ", \"" + name + "\""}}}}
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

package checks

import (
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// Suggested fixes shared by the check kinds. Each builder returns the edits
// of a fix, nil when the fix would not be mechanical and unambiguous (an
// unusual layout of the source, a name bound to something else): the
// finding is then left to a person. The kind gives the edits their title
// from a text of its rule (ruleFix). Positions are the parser's (line
// 1-based, column a byte offset).

// ruleFix is a finding's suggested fix: the edits under the title that the
// rule's text renders (a "fix" or "fix-..." text of [rule.texts], so that
// its words live with the rule's), or nil without edits.
func ruleFix(rule *rules.Rule, text, op string, vars map[string]string, edits []analysis.TextEdit) []analysis.SuggestedFix {
	if len(edits) == 0 {
		return nil
	}
	return []analysis.SuggestedFix{{Message: analysis.RenderText(rule, text, op, vars), Edits: edits}}
}

// fileLines is srcLines of a file's source, computed once per file: fixes
// are built per finding, and splitting the file for each made a file with
// many findings quadratic. The list is shared: callers must not modify it.
// The lines are substrings of the file's source (File.Text), not a copy.
var fileLines = source.NewFact(func(f *source.File) []string { return srcLines(f.Text()) })

// codeNames reports whether s -- a name from the repository (a file's,
// an op's) that a fix would write into code -- is a dotted path of Python
// identifiers, none a keyword. Any other name gets no fix: a module named
// "softmax;import evil.py" must not become "from . import softmax;import
// evil" (nor a name with a quote break out of an __all__ string).
func codeNames(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if !ast.IsIdentifier(part) {
			return false
		}
	}
	return true
}

// srcLines returns the text of each line of src without its line end (a
// "\n", "\r\n" or lone "\r" ends a line, as for the parser), and without a
// UTF-8 BOM on line 1. The list has no room to spare (it is kept with the
// file).
func srcLines(src string) []string {
	s := strings.TrimPrefix(src, "\xef\xbb\xbf")
	if strings.IndexByte(s, '\r') >= 0 {
		return splitLineEnds(s)
	}
	// Only "\n" ends a line (most files): each found by IndexByte.
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
}

// splitLineEnds is srcLines of a source with a "\r" (after its BOM).
func splitLineEnds(s string) []string {
	n := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			n++
		case '\r':
			n++
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		}
	}
	out := make([]string, 0, n)
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			out = append(out, s[start:i])
			start = i + 1
		case '\r':
			out = append(out, s[start:i])
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// eofPos is the position of the end of a source split by srcLines: past
// the last line end (line count+1, column 0) when it ends with one, else
// the end of the last line.
func eofPos(lines []string) ast.Pos {
	return ast.Pos{Line: len(lines), Col: len(lines[len(lines)-1])}
}

// leadingSpace returns the indentation of a line.
func leadingSpace(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// srcLine returns line n (1-based) of lines, or "".
func srcLine(lines []string, n int) string {
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// restIsComment reports whether line holds only blanks and perhaps a
// comment from byte col on.
func restIsComment(line string, col int) bool {
	if col > len(line) {
		return false
	}
	r := strings.TrimLeft(line[col:], " \t")
	return r == "" || r[0] == '#'
}

// scanner walks source text by position, skipping blanks, line
// continuations and comments.
type scanner struct {
	lines []string
	pos   ast.Pos
}

// skip moves to the next character that is not a blank, a comment or a
// line end, and returns it (0 at the end of the text).
func (s *scanner) skip() byte {
	for s.pos.Line >= 1 && s.pos.Line <= len(s.lines) {
		l := s.lines[s.pos.Line-1]
		for s.pos.Col < len(l) {
			c := l[s.pos.Col]
			switch c {
			case ' ', '\t', '\f', '\\':
				s.pos.Col++
				continue
			case '#':
				s.pos.Col = len(l)
				continue
			}
			return c
		}
		s.pos = ast.Pos{Line: s.pos.Line + 1}
	}
	return 0
}

func (s *scanner) next() { s.pos.Col++ }

// lastParamEnd returns where the last element of a parameter list ends
// (an argument, its default, or "/"), whether a comma follows it, and the
// position of the closing parenthesis. ok is false when the text after the
// last element is not what a parameter list ends with.
func lastParamEnd(lines []string, fd *ast.FunctionDef) (last ast.Pos, comma bool, closing ast.Pos, ok bool) {
	a := fd.Args
	var ends []ast.Pos
	add := func(n ast.Node) {
		if n != nil {
			ends = append(ends, n.End())
		}
	}
	for _, x := range a.PosOnlyArgs {
		add(x)
	}
	for _, x := range a.Args {
		add(x)
	}
	if a.Vararg != nil {
		add(a.Vararg)
	}
	for _, x := range a.KwOnlyArgs {
		add(x)
	}
	if a.Kwarg != nil {
		add(a.Kwarg)
	}
	for _, x := range a.Defaults {
		add(x)
	}
	for _, x := range a.KwDefaults {
		if x != nil {
			add(x)
		}
	}
	sc := &scanner{lines: lines}
	if len(ends) == 0 {
		// No parameter: the list is "(" ")" after the name and any type
		// parameters.
		sc.pos = ast.Pos{Line: fd.Pos().Line, Col: fd.Pos().Col + len("def ") + len(fd.Name)}
		if len(fd.TypeParams) > 0 {
			sc.pos = fd.TypeParams[len(fd.TypeParams)-1].End()
			if sc.skip() == ',' {
				sc.next()
			}
			if sc.skip() != ']' {
				return last, false, closing, false
			}
			sc.next()
		}
		if sc.skip() != '(' {
			return last, false, closing, false
		}
		sc.next()
		if sc.skip() != ')' {
			return last, false, closing, false
		}
		return ast.Pos{}, false, sc.pos, true
	}
	for _, e := range ends {
		if last.Before(e) {
			last = e
		}
	}
	sc.pos = last
	for {
		switch sc.skip() {
		case ',':
			comma = true
			sc.next()
		case '/':
			sc.next()
			last, comma = sc.pos, false
		case ')':
			return last, comma, sc.pos, true
		default:
			return last, false, closing, false
		}
	}
}

// kwargsEdits add "**<name>: Any" as the last parameter of fd, and the
// import of Any when the file does not bind it.
func kwargsEdits(f *source.File, fd *ast.FunctionDef, name string) []analysis.TextEdit {
	if f == nil || f.AST == nil || fd.Args == nil || fd.Args.Kwarg != nil {
		return nil
	}
	lines := fileLines.Of(f)
	last, comma, closing, ok := lastParamEnd(lines, fd)
	if !ok {
		return nil
	}
	param := "**" + name + ": Any"
	var edits []analysis.TextEdit
	switch {
	case last == (ast.Pos{}):
		edits = append(edits, analysis.TextEdit{File: f.Path, Start: closing, End: closing, NewText: param})
	case comma && closing.Line > last.Line && strings.TrimSpace(srcLine(lines, closing.Line)[:closing.Col]) == "":
		// One parameter a line, with a trailing comma: a line of its own.
		at := ast.Pos{Line: closing.Line}
		indent := leadingSpace(srcLine(lines, last.Line))
		edits = append(edits, analysis.TextEdit{File: f.Path, Start: at, End: at, NewText: indent + param + ",\n"})
	default:
		edits = append(edits, analysis.TextEdit{File: f.Path, Start: last, End: last, NewText: ", " + param})
	}
	switch q, bound := f.Imports().Local["Any"]; {
	case bound && q != "typing.Any" && q != "typing_extensions.Any":
		return nil // Any is something else here
	case !bound || !importedAtTopLevel(f.AST.Module, "Any"):
		// Not bound, or bound only where the def's annotations are not
		// evaluated from (under "if TYPE_CHECKING:"): NameError at import.
		if _, other := astutil.ModuleNames(f.AST)["Any"]; other && !bound {
			return nil // a def or assignment named Any
		}
		e, ok := typingImportEdit(f, lines, "Any")
		if !ok {
			return nil
		}
		edits = append(edits, e)
	}
	return edits
}

// importedAtTopLevel reports whether a statement at the module's top level
// (or in a top-level try) imports name, so that it is bound when the
// module runs; an import under "if TYPE_CHECKING:" is not.
func importedAtTopLevel(m *ast.Module, name string) bool {
	var in func(body []ast.Stmt) bool
	in = func(body []ast.Stmt) bool {
		for _, s := range body {
			switch s := s.(type) {
			case *ast.ImportFrom:
				for _, a := range s.Names {
					if a.Name == name && a.Asname == nil || a.Asname != nil && *a.Asname == name {
						return true
					}
				}
			case *ast.Try:
				if in(s.Body) {
					return true
				}
			}
		}
		return false
	}
	return m != nil && in(m.Body)
}

// isortKey orders names as isort does by default (order_by_type): CONSTANTS,
// then Classes, then functions, each case-insensitively.
func isortKey(name string) string {
	class := "2"
	switch {
	case strings.ToUpper(name) == name:
		class = "0"
	case name != "" && name[0] >= 'A' && name[0] <= 'Z':
		class = "1"
	}
	return class + strings.ToLower(name)
}

// stdlibHeads are standard library modules that commonly open a file's
// imports; an import of one of them is in the section `typing` joins.
var stdlibHeads = map[string]bool{
	"__future__": true, "abc": true, "collections": true, "contextlib": true, "dataclasses": true,
	"enum": true, "functools": true, "importlib": true, "inspect": true, "itertools": true,
	"logging": true, "math": true, "os": true, "re": true, "sys": true, "typing": true, "warnings": true,
}

// typingImportEdit inserts "from typing import <name>" on its own line
// (TileGym's isort setting is force-single-line): among the file's
// "from typing import" lines in sorted place, else at the end of the
// leading standard library imports, else before the first import with a
// blank line after it.
func typingImportEdit(f *source.File, lines []string, name string) (analysis.TextEdit, bool) {
	body := f.AST.Module.Body
	var typing []*ast.ImportFrom
	firstImport := -1
	for i, s := range body {
		switch s := s.(type) {
		case *ast.ImportFrom:
			if s.Level == 0 && s.Module != nil && *s.Module == "typing" {
				typing = append(typing, s)
			}
			if firstImport < 0 && !(s.Module != nil && *s.Module == "__future__") {
				firstImport = i
			}
		case *ast.Import:
			if firstImport < 0 {
				firstImport = i
			}
		}
	}
	stmt := "from typing import " + name + "\n"
	if len(typing) > 0 {
		for _, s := range typing {
			if len(s.Names) > 0 && isortKey(s.Names[0].Name) > isortKey(name) {
				at := ast.Pos{Line: s.Pos().Line}
				return analysis.TextEdit{File: f.Path, Start: at, End: at, NewText: stmt}, true
			}
		}
		at := ast.Pos{Line: typing[len(typing)-1].End().Line + 1}
		if at.Line > len(lines) {
			return analysis.TextEdit{}, false
		}
		return analysis.TextEdit{File: f.Path, Start: at, End: at, NewText: stmt}, true
	}
	if firstImport < 0 {
		return analysis.TextEdit{}, false
	}
	head := func(s ast.Stmt) string {
		switch s := s.(type) {
		case *ast.Import:
			if len(s.Names) > 0 {
				h, _, _ := strings.Cut(s.Names[0].Name, ".")
				return h
			}
		case *ast.ImportFrom:
			if s.Level == 0 && s.Module != nil {
				h, _, _ := strings.Cut(*s.Module, ".")
				return h
			}
		}
		return ""
	}
	first := body[firstImport]
	if !stdlibHeads[head(first)] {
		at := ast.Pos{Line: first.Pos().Line}
		return analysis.TextEdit{File: f.Path, Start: at, End: at, NewText: stmt + "\n"}, true
	}
	// After the run of standard library imports on consecutive lines.
	lastStd := first
	for _, s := range body[firstImport+1:] {
		if !stdlibHeads[head(s)] || s.Pos().Line != lastStd.End().Line+1 {
			break
		}
		lastStd = s
	}
	at := ast.Pos{Line: lastStd.End().Line + 1}
	if at.Line > len(lines) {
		return analysis.TextEdit{}, false
	}
	return analysis.TextEdit{File: f.Path, Start: at, End: at, NewText: stmt}, true
}

// localName returns how file f spells the qualified name q: the local name
// bound to it, else a module alias and the rest (`ct.Constant` for
// cuda.tile.Constant under `import cuda.tile as ct`), the shortest such.
func localName(im *astutil.Imports, q string) (string, bool) {
	var cands []string
	for local, target := range im.Local {
		switch {
		case target == q:
			cands = append(cands, local)
		case strings.HasPrefix(q, target+"."):
			cands = append(cands, local+q[len(target):])
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	sort.Slice(cands, func(i, j int) bool {
		if len(cands[i]) != len(cands[j]) {
			return len(cands[i]) < len(cands[j])
		}
		return cands[i] < cands[j]
	})
	return cands[0], true
}

// constantAnnotation is the annotation of a compile-time int as file
// spells it (ct.Constant[int] under `import cuda.tile as ct`), "" when the
// file does not import the first of constant.
func constantAnnotation(im *astutil.Imports, constant []string) string {
	if len(constant) == 0 {
		return ""
	}
	ref, ok := localName(im, constant[0])
	if !ok {
		return ""
	}
	return ref + "[int]"
}

// constantEdits annotate a kernel parameter ann (constantAnnotation): one
// with no annotation, or annotated "int".
func constantEdits(f *source.File, a *ast.Arg, ann string) []analysis.TextEdit {
	if ann == "" {
		return nil
	}
	switch t := a.Annotation.(type) {
	case nil:
		end := ast.Pos{Line: a.Pos().Line, Col: a.Pos().Col + len(a.Arg)}
		return []analysis.TextEdit{{File: f.Path, Start: end, End: end, NewText: ": " + ann}}
	case *ast.Name:
		if t.Id != "int" {
			return nil
		}
		return []analysis.TextEdit{{File: f.Path, Start: t.Pos(), End: t.End(), NewText: ann}}
	}
	return nil
}

// classListEdits add the statement stmt (listAssignment) as the first
// statement of a class body (after its docstring).
func classListEdits(f *source.File, c *ast.ClassDef, stmt string) []analysis.TextEdit {
	if f == nil || stmt == "" || len(c.Body) == 0 || c.Body[0].Pos().Line <= c.Pos().Line {
		return nil
	}
	lines := fileLines.Of(f)
	first := c.Body[0]
	line := stmtFirstLine(first)
	indent := leadingSpace(srcLine(lines, line))
	if line <= c.Pos().Line || len(indent) != first.Pos().Col {
		return nil
	}
	at := ast.Pos{Line: line}
	if astutil.Docstring(c.Body) != nil {
		end := first.End().Line
		if !restIsComment(srcLine(lines, end), first.End().Col) || len(c.Body) > 1 && c.Body[1].Pos().Line <= end || end+1 > len(lines) {
			return nil
		}
		at = ast.Pos{Line: end + 1}
	}
	text := indent + stmt + "\n"
	next := first
	if at.Line > line {
		next = nil // after the docstring
		if len(c.Body) > 1 {
			next = c.Body[1]
		}
	}
	switch next.(type) {
	case *ast.FunctionDef, *ast.AsyncFunctionDef, *ast.ClassDef:
		if strings.TrimSpace(srcLine(lines, at.Line)) != "" {
			text += "\n" // a blank line before a method, as ruff format puts it
		}
	}
	return []analysis.TextEdit{{File: f.Path, Start: at, End: at, NewText: text}}
}

// listAssignment is the statement `<name> = ["<entry>", ...]`, "" when a
// name is not one to write into code (codeNames).
func listAssignment(name string, entries []string) string {
	if !codeNames(name) {
		return ""
	}
	q := make([]string, len(entries))
	for i, e := range entries {
		if !codeNames(e) {
			return ""
		}
		q[i] = `"` + e + `"`
	}
	return name + " = [" + strings.Join(q, ", ") + "]"
}

// stmtFirstLine is the first line of a statement, its decorators included.
func stmtFirstLine(s ast.Stmt) int {
	var decs []ast.Expr
	switch s := s.(type) {
	case *ast.FunctionDef:
		decs = s.DecoratorList
	case *ast.AsyncFunctionDef:
		decs = s.DecoratorList
	case *ast.ClassDef:
		decs = s.DecoratorList
	}
	line := s.Pos().Line
	for _, d := range decs {
		if d.Pos().Line < line {
			line = d.Pos().Line
		}
	}
	return line
}

// mainGuardAppendEdits append `if __name__ == "__main__":` calling call at
// the end of the file, after two blank lines.
func mainGuardAppendEdits(f *source.File, call string) []analysis.TextEdit {
	lines := fileLines.Of(f)
	prefix := ""
	if l := lines[len(lines)-1]; l != "" {
		prefix = "\n" // the last line has no line end
	}
	blank := 0
	for i := len(lines) - 2; i >= 0 && strings.TrimSpace(lines[i]) == ""; i-- {
		blank++
	}
	if blank < 2 && len(lines) > 1 {
		prefix += strings.Repeat("\n", 2-blank)
	}
	at := eofPos(fileLines.Of(f))
	text := prefix + "if __name__ == \"__main__\":\n    " + call + "\n"
	return []analysis.TextEdit{{File: f.Path, Start: at, End: at, NewText: text}}
}

// mainGuardWrapEdits put a one-line module-level statement under
// `if __name__ == "__main__":`.
func mainGuardWrapEdits(f *source.File, s ast.Stmt) []analysis.TextEdit {
	lines := fileLines.Of(f)
	if s.Pos().Col != 0 || s.End().Line != s.Pos().Line || !restIsComment(srcLine(lines, s.Pos().Line), s.End().Col) {
		return nil
	}
	at := ast.Pos{Line: s.Pos().Line}
	return []analysis.TextEdit{{File: f.Path, Start: at, End: at, NewText: "if __name__ == \"__main__\":\n    "}}
}

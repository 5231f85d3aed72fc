package checker

import (
	"path"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// CuTileInitAnalyzer implements kind "cutile-init" (S3.1-S3.4).
var CuTileInitAnalyzer = &Analyzer{
	Name:         "cutile-init",
	Placeholders: []string{"op", "file", "action", "func", "import", "init", "module", "other", "previous", "relation", "where"},
	Doc: `Checks that each op's cuTile module is registered in its package __init__.py.

For an op whose cuTile module is <root>/<a>/<b>/<m>.py, the chain of packages
is <root>, <root>/<a>, <root>/<a>/<b>; each package's __init__.py must import
the next part ("from . import a", "from .a import ...", "from .a.b import m"
all import it). In the scopes listed in "block_scopes" those imports must sit
inside the if is_backend_available("cutile"): block; elsewhere (suites) at
the top level. The rule's params select the property (check = ...):
  "module"    the module is imported through the chain (S3.1); once per module
  "order"     the "from . import <module>" statements of each __init__.py are
              in alphabetical order (S3.2); at each statement to move (outside
              a longest run already in order), charged to its module's op,
              with a fix that sorts them
  "function"  some __init__.py of the chain imports the registered function
              ("from .<module> import <func>") (S3.3)
  "all"       some __init__.py of the chain lists "<func>" in __all__ (S3.4)
"scopes" limits the ops checked to layout scopes (empty: all). <func> is the
op's function name or the name of its registered function.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(cutileInitParams) },
	Run:      runCuTileInit,
}

func init() { Register(CuTileInitAnalyzer) }

type cutileInitParams struct {
	Check       string   `toml:"check"`
	Scopes      []string `toml:"scopes"`
	BlockScopes []string `toml:"block_scopes"`
}

// initChain is the packages between a cuTile root and a module.
type initChain struct {
	dirs    []string // package directories, root first
	parts   []string // module path parts: parts[i] is imported by dirs[i]
	inits   []*Init  // the __init__ of each dir, nil when missing
	blocked bool     // imports must be inside the backend block
}

// blockedAt reports whether the imports of init i must sit in the backend
// block: only the cuTile root's, since a sub-package is imported from
// inside the root's block and is guarded by it.
func (c *initChain) blockedAt(i int) bool { return c.blocked && i == 0 }

func (c *initChain) modRel(i int) string { return strings.Join(c.parts[i:], ".") }

func buildChain(tab *OpTable, impl *Impl, op *Op, blockScopes []string) *initChain {
	root := strings.TrimSuffix(ExpandSuite(op.Scope.CuTile, op.Suite), "/")
	parts := strings.Split(impl.Module, ".")
	c := &initChain{parts: parts, blocked: len(blockScopes) > 0 && inScopes(blockScopes, op.Scope)}
	byPath := map[string]*Init{}
	for _, in := range tab.Inits {
		byPath[in.File.Path] = in
	}
	dir := root
	for i := range parts {
		c.dirs = append(c.dirs, dir)
		c.inits = append(c.inits, byPath[dir+"/__init__.py"])
		dir += "/" + parts[i]
	}
	return c
}

// importsOf returns the module and function imports of an init (only
// those in the block when blocked).
func (c *initChain) importsOf(in *Init, blocked bool) []*InitImport {
	var out []*InitImport
	for _, list := range [][]*InitImport{in.ModuleImports, in.FuncImports} {
		for _, x := range list {
			if !blocked || x.InBlock {
				out = append(out, x)
			}
		}
	}
	return out
}

// loadsPart reports whether parts[i] is imported: by init i (any import
// form whose module path starts with it), or by an ancestor init j < i
// importing a module path that reaches it (`from .experimental import mhc`
// or `from .experimental.mhc import f` in the root load experimental.mhc).
// outside says that an import exists only outside the required block.
func (c *initChain) loadsPart(i int) (ok, outside bool) {
	for j := i; j >= 0; j-- {
		in := c.inits[j]
		if in == nil {
			continue
		}
		want := strings.Join(c.parts[j:i+1], ".")
		for _, x := range c.importsOf(in, false) {
			if x.Module == want || strings.HasPrefix(x.Module, want+".") {
				if !c.blockedAt(j) || x.InBlock {
					return true, false
				}
				outside = true
			}
		}
	}
	return false, outside
}

func runCuTileInit(pass *Pass) (any, error) {
	tab := opTableOf(pass)
	if tab == nil {
		return nil, nil
	}
	names := LayoutNames(pass.Repo.Layout)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*cutileInitParams)
		if p == nil {
			continue
		}
		if p.Check == "order" {
			checkInitOrder(pass, rule, p, tab, names)
			continue
		}
		doneModule := map[string]bool{}
		for _, op := range tab.Ops {
			if op.Scope == nil || !inScopes(p.Scopes, op.Scope) || stepSkipped(op, 3) {
				continue
			}
			// The module check reports a module once, for the first op
			// registered in it: it sees every op.
			if p.Check != "module" && !pass.Wants(op.Name) {
				continue
			}
			impls := cutileImpls(op, names)
			if len(impls) == 0 {
				continue
			}
			impl := impls[0]
			c := buildChain(tab, impl, op, p.BlockScopes)

			switch p.Check {
			case "module":
				if doneModule[impl.File.Path] {
					continue
				}
				doneModule[impl.File.Path] = true
				for i := range c.parts {
					ok, outside := c.loadsPart(i)
					if ok {
						continue
					}
					reportInitModule(pass, rule, op, c, i, outside, names)
					break
				}
			case "function":
				if !c.loaded() {
					continue // S3.1 reports
				}
				funcs := implFuncNames(op, impls)
				if c.findFunc(funcs) {
					continue
				}
				i := c.funcHome()
				in := c.inits[i]
				if in == nil {
					continue
				}
				fn := suggestFunc(op, impls)
				stmt := "from ." + c.modRel(i) + " import " + fn
				bl := c.blockedAt(i)
				reportAt(pass, rule, op.Name, in.File, initAnchor(in, bl), map[string]string{
					"import": stmt, "where": whereLabel(bl, names), "init": in.File.Path, "func": fn,
				}, nil, funcImportFix(in, bl, c.modRel(i), fn))
			case "all":
				if !c.loaded() {
					continue
				}
				funcs := implFuncNames(op, impls)
				if c.findAll(funcs) {
					continue
				}
				i := c.funcHome()
				in := c.inits[i]
				if in == nil {
					continue
				}
				fn := suggestFunc(op, impls)
				var n ast.Node = in.AllNode
				if n == nil {
					n = initAnchor(in, c.blockedAt(i))
				}
				reportAt(pass, rule, op.Name, in.File, n, map[string]string{
					"func": fn, "where": whereLabel(c.blockedAt(i), names), "init": in.File.Path,
				}, nil, addToAllFix(in, fn))
			}
		}
	}
	return nil, nil
}

func (c *initChain) loaded() bool {
	for i := range c.parts {
		if ok, _ := c.loadsPart(i); !ok {
			return false
		}
	}
	return true
}

// findFunc reports whether an __init__ of the chain imports one of funcs
// from the module (or from a package of the chain containing it).
func (c *initChain) findFunc(funcs map[string]bool) bool {
	for i, in := range c.inits {
		if in == nil {
			continue
		}
		for _, x := range in.FuncImports {
			if c.blockedAt(i) && !x.InBlock {
				continue
			}
			if !funcs[x.Name] {
				continue
			}
			rel := c.modRel(i)
			if x.Module == rel || strings.HasPrefix(rel, x.Module+".") {
				return true
			}
		}
	}
	return false
}

func (c *initChain) findAll(funcs map[string]bool) bool {
	for _, in := range c.inits {
		if in == nil {
			continue
		}
		for _, k := range in.All {
			if s, _ := k.Value.(string); funcs[s] {
				return true
			}
		}
	}
	return false
}

// funcHome is the index of the __init__ where the function import belongs:
// the deepest one of the chain that already imports functions or has a
// backend block, else the root.
func (c *initChain) funcHome() int {
	for i := len(c.inits) - 1; i > 0; i-- {
		in := c.inits[i]
		if in != nil && (len(in.FuncImports) > 0 || in.Block != nil) {
			return i
		}
	}
	return 0
}

func implFuncNames(op *Op, impls []*Impl) map[string]bool {
	out := map[string]bool{op.Func: true}
	for _, im := range impls {
		if im.Def != nil {
			out[im.Def.Name] = true
		}
	}
	return out
}

// suggestFunc is the name to import: the registered function's, else the op's.
func suggestFunc(op *Op, impls []*Impl) string {
	for _, im := range impls {
		if im.Def != nil {
			return im.Def.Name
		}
	}
	return op.Func
}

func whereLabel(blocked bool, names *Names) string {
	if blocked {
		return "the if is_backend_available(\"" + names.CuTileBackend + "\") block"
	}
	return "the top level"
}

// initAnchor is where a finding about an __init__ points: its backend block's
// `if` test, else its first statement.
func initAnchor(in *Init, blocked bool) ast.Node {
	if blocked && in.Block != nil {
		return in.Block.Test
	}
	if in.File.AST != nil && in.File.AST.Module != nil && len(in.File.AST.Module.Body) > 0 {
		return in.File.AST.Module.Body[0]
	}
	return nil
}

func reportInitModule(pass *Pass, rule *rules.Rule, op *Op, c *initChain, i int, outside bool, names *Names) {
	stmt := "from . import " + c.parts[i]
	bl := c.blockedAt(i)
	vars := map[string]string{"import": stmt, "where": whereLabel(bl, names), "module": c.parts[i], "action": "add"}
	in := c.inits[i]
	if in == nil {
		// The package has no __init__.py: anchor on the dispatch decorator.
		f, n := dispatchAnchor(op)
		vars["init"] = c.dirs[i] + "/__init__.py"
		reportAt(pass, rule, op.Name, f, n, vars, []Related{{File: vars["init"], Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: "missing package __init__.py"}}, nil)
		return
	}
	vars["init"] = in.File.Path
	if outside {
		vars["action"] = "move"
	}
	var fixes []SuggestedFix
	if !outside {
		fixes = insertImportFix(in, bl, stmt, sortedModuleSlot(in, bl, c.parts[i]))
	}
	reportAt(pass, rule, op.Name, in.File, initAnchor(in, bl), vars, nil, fixes)
}

// plainModuleImports returns the `from . import x` statements of an init
// that count (in the block when blocked), in source order, one per statement.
func plainModuleImports(in *Init, blocked bool) []*InitImport {
	var out []*InitImport
	var last *ast.ImportFrom
	for _, x := range in.ModuleImports {
		if x.Stmt.Module != nil || (blocked && !x.InBlock) {
			continue
		}
		if x.Stmt == last {
			continue
		}
		last = x.Stmt
		out = append(out, x)
	}
	return out
}

// sortedModuleSlot returns the statement after which `from . import name`
// belongs in alphabetical order (nil: before the first one).
func sortedModuleSlot(in *Init, blocked bool, name string) ast.Stmt {
	imps := plainModuleImports(in, blocked)
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

func lastFuncImport(in *Init, blocked bool) ast.Stmt {
	var last ast.Stmt
	for _, x := range in.FuncImports {
		if !blocked || x.InBlock {
			last = x.Stmt
		}
	}
	if last == nil {
		imps := plainModuleImports(in, blocked)
		if len(imps) > 0 {
			last = imps[len(imps)-1].Stmt
		}
	}
	return last
}

// insertImportFix inserts a statement on its own line after `after` (or
// before the first module import, or at the start of the block).
func insertImportFix(in *Init, blocked bool, stmt string, after ast.Stmt) []SuggestedFix {
	indent := ""
	var line int
	switch {
	case after != nil:
		line = after.End().Line + 1
		indent = strings.Repeat(" ", after.Pos().Col)
	default:
		imps := plainModuleImports(in, blocked)
		switch {
		case len(imps) > 0:
			line = imps[0].Stmt.Pos().Line
			indent = strings.Repeat(" ", imps[0].Stmt.Pos().Col)
		case blocked && in.Block != nil && len(in.BlockBody) > 0:
			line = in.BlockBody[0].Pos().Line
			indent = strings.Repeat(" ", in.BlockBody[0].Pos().Col)
		default:
			return nil
		}
	}
	pos := ast.Pos{Line: line, Col: 0}
	return []SuggestedFix{{Message: "add " + stmt, Edits: []TextEdit{{File: in.File.Path, Start: pos, End: pos, NewText: indent + stmt + "\n"}}}}
}

// funcImportFix inserts `from .<module> import <name>` among the init's
// `from .x import y` statements in isort's place (by module, then name,
// case-insensitively), else after its last module import.
func funcImportFix(in *Init, blocked bool, module, name string) []SuggestedFix {
	stmt := "from ." + module + " import " + name
	key := func(mod, name string) string { return strings.ToLower(mod) + "\x00" + strings.ToLower(name) }
	want := key(module, name)
	var froms []*ast.ImportFrom
	seen := map[*ast.ImportFrom]bool{}
	for _, list := range [][]*InitImport{in.ModuleImports, in.FuncImports} {
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
	return []SuggestedFix{{Message: "add " + stmt, Edits: []TextEdit{{File: in.File.Path, Start: pos, End: pos, NewText: indent + stmt + "\n"}}}}
}

// addToAllFix adds "name" to the __all__ list literal: at its end, on a
// line of its own when the list has one element a line.
func addToAllFix(in *Init, name string) []SuggestedFix {
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
		if line := srcLine(srcLines(in.File.Src), open.Line); open.Col >= len(line) || line[open.Col] != '[' && line[open.Col] != '(' {
			return nil
		}
		at := ast.Pos{Line: open.Line, Col: open.Col + 1}
		return []SuggestedFix{{Message: "add \"" + name + "\" to __all__", Edits: []TextEdit{{File: in.File.Path, Start: at, End: at, NewText: entry}}}}
	}
	last := elts[len(elts)-1]
	lines := srcLines(in.File.Src)
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
			return []SuggestedFix{{Message: "add \"" + name + "\" to __all__", Edits: []TextEdit{{File: in.File.Path, Start: at, End: at, NewText: indent + "\"" + name + "\",\n"}}}}
		}
	}
	return []SuggestedFix{{Message: "add \"" + name + "\" to __all__", Edits: []TextEdit{{File: in.File.Path, Start: last.End(), End: last.End(), NewText: ", \"" + name + "\""}}}}
}

// sortedSlot returns, when the string elements are sorted (ignoring case),
// the first one that name goes before; nil when it goes last or the list
// is not sorted.
func sortedSlot(elts []ast.Expr, name string) ast.Expr {
	var at ast.Expr
	prev := ""
	for i, e := range elts {
		v, ok := StringValue(e)
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

// checkInitOrder reports the first out-of-order `from . import` statement of
// each __init__ of the selected scopes.
func checkInitOrder(pass *Pass, rule *rules.Rule, p *cutileInitParams, tab *OpTable, names *Names) {
	moduleOp := map[string]string{} // init dir + "/" + module part -> op
	for _, op := range tab.Ops {
		for _, im := range cutileImpls(op, names) {
			root := strings.TrimSuffix(ExpandSuite(op.Scope.CuTile, op.Suite), "/")
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
		imps := plainModuleImports(in, blocked)
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
		var fix []SuggestedFix
		for i, cur := range imps {
			if !involved[i] {
				continue
			}
			name := lower[i]
			var after, before *InitImport
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
func sortImportsFix(in *Init, imps []*InitImport) []SuggestedFix {
	lines := strings.Split(string(in.File.Src), "\n")
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
	return []SuggestedFix{{Message: "sort the module imports", Edits: []TextEdit{{
		File: in.File.Path, Start: ast.Pos{Line: first}, End: ast.Pos{Line: last + 1}, NewText: b.String(),
	}}}}
}

func (p *cutileInitParams) Validate() error {
	return oneOf("check", p.Check, "module", "order", "function", "all")
}

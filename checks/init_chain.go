package checks

import (
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// The init-* kinds (S3.1-S3.4) check that each op's cuTile module is
// registered in its package __init__.py. For an op whose cuTile module is
// <root>/<a>/<b>/<m>.py, the chain of packages is <root>, <root>/<a>,
// <root>/<a>/<b>; each package's __init__.py must import the next part
// ("from . import a", "from .a import ...", "from .a.b import m" all import
// it), except that the root's block must have "from . import m" for a
// module m of the root itself (S3.1 names that line). In the scopes listed in "block_scopes" those imports must sit inside
// the if is_backend_available("cutile"): block; elsewhere (suites) at the
// top level. "scopes" limits the ops checked to layout scopes (empty: all).

// InitParams are the params of the init-* kinds.
type InitParams struct {
	Scopes      []string `toml:"scopes"`
	BlockScopes []string `toml:"block_scopes"`
}

// initChain is the packages between a cuTile root and a module.
type initChain struct {
	dirs    []string        // package directories, root first
	parts   []string        // module path parts: parts[i] is imported by dirs[i]
	inits   []*optable.Init // the __init__ of each dir, nil when missing
	index   []*initIndex    // the index of each init, nil when missing
	blocked bool            // imports must be inside the backend block
}

// initIndex looks up the entries of one __init__.py by name, so that
// checking an op costs the same however many ops its package exports (a
// scan of every entry per op made the init-* kinds quadratic in the ops of
// one package).
type initIndex struct {
	// byPrefix maps every dotted prefix of an import's module path ("a",
	// "a.b" for "a.b.c") to the imports (module and function) that have it.
	byPrefix map[string][]*optable.InitImport
	// funcs maps an imported function name to its function imports.
	funcs map[string][]*optable.InitImport
	// all holds the entries of __all__.
	all map[string]bool
}

func newInitIndex(in *optable.Init) *initIndex {
	x := &initIndex{byPrefix: map[string][]*optable.InitImport{}, funcs: map[string][]*optable.InitImport{}, all: map[string]bool{}}
	for _, list := range [][]*optable.InitImport{in.ModuleImports, in.FuncImports} {
		for _, imp := range list {
			for i := 0; i <= len(imp.Module); i++ {
				if i == len(imp.Module) || imp.Module[i] == '.' {
					x.byPrefix[imp.Module[:i]] = append(x.byPrefix[imp.Module[:i]], imp)
				}
			}
		}
	}
	for _, imp := range in.FuncImports {
		x.funcs[imp.Name] = append(x.funcs[imp.Name], imp)
	}
	for _, k := range in.All {
		s, _ := k.Value.(string) // "" for another constant, as findAllScan reads it
		x.all[s] = true
	}
	return x
}

// blockedAt reports whether the imports of init i must sit in the backend
// block: only the cuTile root's, since a sub-package is imported from
// inside the root's block and is guarded by it.
func (c *initChain) blockedAt(i int) bool { return c.blocked && i == 0 }

func (c *initChain) modRel(i int) string { return strings.Join(c.parts[i:], ".") }

// indexedInit is an init with its index.
type indexedInit struct {
	init  *optable.Init
	index *initIndex
}

// initsByPath indexes a table's inits by the path of their __init__.py,
// each with its initIndex.
func initsByPath(tab *optable.OpTable) map[string]indexedInit {
	byPath := map[string]indexedInit{}
	for _, in := range tab.Inits {
		byPath[in.File.Path] = indexedInit{in, newInitIndex(in)}
	}
	return byPath
}

// buildChain returns the chain of an op's cuTile module; byPath is
// initsByPath of the table, built once for all ops.
func buildChain(byPath map[string]indexedInit, impl *optable.Impl, op *optable.Op, blockScopes []string) *initChain {
	root := strings.TrimSuffix(layout.ExpandSuite(op.Scope.CuTile, op.Suite), "/")
	parts := strings.Split(impl.Module, ".")
	c := &initChain{parts: parts, blocked: len(blockScopes) > 0 && inScopes(blockScopes, op.Scope)}
	dir := root
	for i := range parts {
		c.dirs = append(c.dirs, dir)
		in := byPath[dir+"/__init__.py"]
		c.inits = append(c.inits, in.init)
		c.index = append(c.index, in.index)
		dir += "/" + parts[i]
	}
	return c
}

// loadsPart reports whether parts[i] is imported: by init i (any import
// form whose module path starts with it), or by an ancestor init j < i
// importing a module path that reaches it (`from .experimental import mhc`
// or `from .experimental.mhc import f` in the root load experimental.mhc).
// outside says that an import exists only outside the required block.
func (c *initChain) loadsPart(i int) (ok, outside bool) {
	if i == 0 && len(c.parts) == 1 && c.blockedAt(0) {
		return c.plainImportAtRoot()
	}
	for j := i; j >= 0; j-- {
		if c.inits[j] == nil {
			continue
		}
		for _, x := range c.index[j].byPrefix[strings.Join(c.parts[j:i+1], ".")] {
			if !c.blockedAt(j) || x.InBlock {
				return true, false
			}
			outside = true
		}
	}
	return false, outside
}

// plainImportAtRoot reports whether the cuTile root's block imports the
// op's module (a module of the root itself) with `from . import <module>`,
// the line S3.1 names: in
// the root's block the workflow asks for both lines, the module import and
// the function import (S3.3), so `from .<part> import <func>` alone, which
// loads the module too, does not count there. outside says that the line
// exists only outside the block.
func (c *initChain) plainImportAtRoot() (ok, outside bool) {
	in := c.inits[0]
	if in == nil {
		return false, false
	}
	for _, x := range in.ModuleImports {
		if x.Stmt.Module == nil && x.Module == c.parts[0] {
			if x.InBlock {
				return true, false
			}
			outside = true
		}
	}
	return false, outside
}

// eachChain calls fn with the cuTile implementations and the init chain
// of every op of the selected scopes whose Step 3 is not skipped; with
// wanted, only of the ops the pass wants.
func eachChain(pass *Pass, tab *optable.OpTable, p *InitParams, wanted bool, fn func(op *optable.Op, impls []*optable.Impl, c *initChain)) {
	names := layout.LayoutNames(pass.Repo.Layout)
	byPath := initsByPath(tab)
	for _, op := range tab.Ops {
		if op.Scope == nil || !inScopes(p.Scopes, op.Scope) || op.Skipped(3) != nil || wanted && !pass.Wants(op.Name) {
			continue
		}
		if impls := cutileImpls(op, names); len(impls) > 0 {
			fn(op, impls, buildChain(byPath, impls[0], op, p.BlockScopes))
		}
	}
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

func implFuncNames(op *optable.Op, impls []*optable.Impl) map[string]bool {
	out := map[string]bool{op.Func: true}
	for _, im := range impls {
		if im.Def != nil {
			out[im.Def.Name] = true
		}
	}
	return out
}

// suggestFunc is the name to import: the registered function's, else the op's.
func suggestFunc(op *optable.Op, impls []*optable.Impl) string {
	for _, im := range impls {
		if im.Def != nil {
			return im.Def.Name
		}
	}
	return op.Func
}

// withWhere sets vars' "where", where an import belongs (the rule's text
// "in-block", the cuTile backend's block, or "top-level"), and the
// "backend" it names; it returns vars.
func withWhere(rule *rules.Rule, op string, blocked bool, names *layout.Names, vars map[string]string) map[string]string {
	vars["backend"] = names.CuTileBackend
	text := "top-level"
	if blocked {
		text = "in-block"
	}
	vars["where"] = analysis.RenderText(rule, text, op, vars)
	return vars
}

// initAnchor is where a finding about an __init__ points: its backend block's
// `if` test, else its first statement.
func initAnchor(in *optable.Init, blocked bool) ast.Node {
	if blocked && in.Block != nil {
		return in.Block.Test
	}
	if in.File.AST != nil && in.File.AST.Module != nil && len(in.File.AST.Module.Body) > 0 {
		return in.File.AST.Module.Body[0]
	}
	return nil
}

// PlainModuleImports returns the `from . import x` statements of an init
// that count (in the block when blocked), in source order, one per statement.
func PlainModuleImports(in *optable.Init, blocked bool) []*optable.InitImport {
	var out []*optable.InitImport
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

// insertImportEdits insert a statement on its own line after `after` (or
// before the first module import, or at the start of the block).
func insertImportEdits(in *optable.Init, blocked bool, stmt string, after ast.Stmt) []analysis.TextEdit {
	indent := ""
	var line int
	switch {
	case after != nil:
		line = after.End().Line + 1
		indent = strings.Repeat(" ", after.Pos().Col)
	default:
		imps := PlainModuleImports(in, blocked)
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
	return []analysis.TextEdit{{File: in.File.Path, Start: pos, End: pos, NewText: indent + stmt + "\n"}}
}

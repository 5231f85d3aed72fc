package checks

import (
	"sort"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// implModule is one cuTile module and the ops it registers.
type implModule struct {
	file  *source.File
	impls []*optable.Impl // the cuTile impls of dispatched, non-skipped ops, in source order
}

// cutileModules groups the cuTile impls of the dispatched ops (whose Step 2
// is not skipped) by module.
func cutileModules(tab *optable.OpTable, names *layout.Names) []*implModule {
	byFile := map[string]*implModule{}
	var out []*implModule
	for _, op := range tab.Ops {
		if op.Skipped(2) != nil {
			continue
		}
		for _, im := range cutileImpls(op, names) {
			m := byFile[im.File.Path]
			if m == nil {
				m = &implModule{file: im.File}
				byFile[im.File.Path] = m
				out = append(out, m)
			}
			m.impls = append(m.impls, im)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].file.Path < out[j].file.Path })
	for _, m := range out {
		sort.SliceStable(m.impls, func(i, j int) bool { return m.impls[i].Pos.Before(m.impls[j].Pos) })
	}
	return out
}

// kernelDefs returns the functions of a file decorated with a kernel
// decorator (bare or called).
func kernelDefs(f *source.File, im *astutil.Imports, kernel []string) []*ast.FunctionDef {
	var out []*ast.FunctionDef
	for _, n := range f.Nodes() {
		if fd, ok := n.(*ast.FunctionDef); ok {
			if _, _, ok := im.Decorator(fd.DecoratorList, kernel); ok {
				out = append(out, fd)
			}
		}
	}
	return out
}

// wantedModules returns the cuTile modules (cutileModules) that register
// an op the pass wants: a module's findings are those of its ops.
func wantedModules(pass *Pass, tab *optable.OpTable) []*implModule {
	var mods []*implModule
	for _, m := range cutileModules(tab, layout.LayoutNames(pass.Repo.Layout)) {
		for _, im := range m.impls {
			if pass.Wants(im.Op) {
				mods = append(mods, m)
				break
			}
		}
	}
	return mods
}

// tileModules returns the wanted modules that import tileModule (all of
// them when it is ""): a module that does not is not a cuTile module at
// all, which the impl-imports rule reports.
func tileModules(pass *Pass, tab *optable.OpTable, tileModule string) []*implModule {
	var out []*implModule
	for _, m := range wantedModules(pass, tab) {
		if tileModule == "" || m.file.Imports().Imported(tileModule) {
			out = append(out, m)
		}
	}
	return out
}

// implCallee is the node a finding about a registration's module points at:
// the register_impl callee, else (a module that registers nothing yet) its
// entry point.
func implCallee(im *optable.Impl) ast.Node {
	if im.Call != nil {
		return im.Call.Func
	}
	return im.Node()
}

package optable

// The public side of the ops: the API modules tests and benchmarks import,
// and the wrappers in them that call an op through dispatch.

import (
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// APIModules returns the public modules through which the ops of a scope
// are reached by tests and benchmarks.
func APIModules(sc *layout.Scope, suite string) []string {
	if len(sc.API) > 0 {
		out := make([]string, len(sc.API))
		for i, a := range sc.API {
			out[i] = layout.ExpandSuite(a, suite)
		}
		return out
	}
	seen := map[string]bool{}
	var out []string
	for _, d := range sc.Dispatch {
		if strings.Contains(d, "*") {
			continue
		}
		p := layout.ExpandSuite(d, suite)
		for _, m := range []string{astutil.ModulePath(p), astutil.PackagePath(p)} {
			if m != "" && !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// opWrappers returns, per op, the qualified names of the public wrappers
// that call it: module-level functions and classes of the scope's
// interface modules (the Python files directly in an API package, such as
// src/tilegym/ops/attn_interface.py) whose code calls the op through
// dispatch, directly or through other such wrappers (fused_moe ->
// _call_fused_experts_impl -> moe_align_block_size). A test of
// `tilegym.ops.fmha_interface` tests `fmha`. Each wrapper is named in its
// module and in each API package (re-exports). Used by the op table's test
// and benchmark association. A wrapper of several ops is left out (a
// composite does not credit its parts).
func (b *opTableBuilder) opWrappers() map[*Op][]string {
	type def struct {
		file *source.File
		name string
		node ast.Stmt
	}
	byPkg := map[string][]def{}
	for _, f := range b.files() {
		pkg := astutil.PackagePath(f.Path)
		if pkg == "" || path.Base(f.Path) == "__init__.py" {
			continue
		}
		for _, s := range f.AST.Module.Body {
			switch d := s.(type) {
			case *ast.FunctionDef:
				byPkg[pkg] = append(byPkg[pkg], def{f, d.Name, s})
			case *ast.ClassDef:
				byPkg[pkg] = append(byPkg[pkg], def{f, d.Name, s})
			}
		}
	}
	// What the definitions of each package call, to skip at once the ops
	// that no definition calls (most of them).
	type pkgCalls struct {
		q    map[string]bool                  // resolved callees
		bare map[*source.File]map[string]bool // bare-name callees, by file
	}
	calls := map[string]*pkgCalls{}
	callsOf := func(pkg string) *pkgCalls {
		if pc := calls[pkg]; pc != nil {
			return pc
		}
		pc := &pkgCalls{q: map[string]bool{}, bare: map[*source.File]map[string]bool{}}
		for _, d := range byPkg[pkg] {
			for _, c := range source.Callees(d.file, d.node) {
				pc.q[c.Q] = true
				if c.Bare {
					if pc.bare[d.file] == nil {
						pc.bare[d.file] = map[string]bool{}
					}
					pc.bare[d.file][c.Name] = true
				}
			}
		}
		calls[pkg] = pc
		return pc
	}
	out := map[*Op][]string{}
	for _, op := range b.table.Ops {
		if op.Scope == nil {
			continue
		}
		apis := APIModules(op.Scope, op.Suite)
		ndefs := 0
		for _, m := range apis {
			ndefs += len(byPkg[m])
		}
		if ndefs == 0 {
			continue
		}
		called := false
		for _, m := range apis {
			pc := callsOf(m)
			for _, a := range apis {
				if pc.q[a+"."+op.Func] {
					called = true
				}
			}
			if op.Stub != nil && pc.bare[op.Stub.File][op.Func] {
				called = true
			}
		}
		if !called {
			continue // no wrapper: nothing calls the op
		}
		var defs []def
		for _, m := range apis {
			defs = append(defs, byPkg[m]...)
		}
		// names: qualified names that reach the op; local: per file, bare
		// names of wrappers defined there (and the stub itself).
		names := map[string]bool{}
		for _, m := range apis {
			names[m+"."+op.Func] = true
		}
		local := map[*source.File]map[string]bool{}
		if op.Stub != nil {
			local[op.Stub.File] = map[string]bool{op.Func: true}
		}
		isWrapper := map[ast.Stmt]bool{}
		for changed := true; changed; {
			changed = false
			for _, d := range defs {
				if isWrapper[d.node] || (op.Stub != nil && d.file == op.Stub.File && d.name == op.Func) {
					continue
				}
				for _, c := range source.Callees(d.file, d.node) {
					if names[c.Q] || c.Bare && local[d.file][c.Name] {
						isWrapper[d.node] = true
						break
					}
				}
				if !isWrapper[d.node] {
					continue
				}
				changed = true
				if local[d.file] == nil {
					local[d.file] = map[string]bool{}
				}
				local[d.file][d.name] = true
				qs := []string{astutil.ModulePath(d.file.Path) + "." + d.name}
				for _, m := range apis {
					qs = append(qs, m+"."+d.name)
				}
				for _, q := range qs {
					names[q] = true
				}
				out[op] = append(out[op], qs...)
			}
		}
	}
	// A wrapper of several ops (a fused MLP class, a MoE pipeline) is a
	// composite: using it does not test any one of them, so it credits
	// none (a test of the op itself must exist, S4.1).
	count := map[string]int{}
	for _, ws := range out {
		for _, w := range ws {
			count[w]++
		}
	}
	for op, ws := range out {
		keep := ws[:0]
		for _, w := range ws {
			if count[w] == 1 {
				keep = append(keep, w)
			}
		}
		if len(keep) == 0 {
			delete(out, op)
		} else {
			out[op] = keep
		}
	}
	return out
}

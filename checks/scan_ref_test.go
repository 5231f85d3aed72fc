package checks

import (
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// The reference implementations the fast paths of this package are compared
// with (export_test.go): plain scans, kept beside the tests that use them so
// production code has one algorithm per job.

// misnamedBenchFuncScan is misnamedBenchFunc reading the file's functions
// and expanding the names of every other op served, per op: the reference
// for misnamedBenchFunc.
func misnamedBenchFuncScan(f *source.File, op *optable.Op, module string, p *benchFunctionNameParams, served []*optable.Op, names *layout.Names) *ast.FunctionDef {
	im := f.Imports()
	want := nameCandidates(p.Names, op, module)
	others := map[string]bool{}
	for _, o := range served {
		if o == op {
			continue
		}
		for n := range nameCandidates(p.Names, o, opModule(o, names)) {
			others[n] = true
		}
	}
	var cand *ast.FunctionDef
	for _, fd := range astutil.TopLevelFuncs(f.AST) {
		if _, _, ok := im.Decorator(fd.DecoratorList, p.Decorator); !ok {
			continue
		}
		if nameOrVariant(want, fd.Name) {
			return nil
		}
		if nameOrVariant(others, fd.Name) {
			continue
		}
		if cand == nil || fd.Pos().Before(cand.Pos()) {
			cand = fd
		}
	}
	return cand
}

// nameOrVariant reports whether name is one of names or a variant of one
// (bench_layernorm_fwd of bench_layernorm).
func nameOrVariant(names map[string]bool, name string) bool {
	if names[name] {
		return true
	}
	for n := range names {
		if strings.HasPrefix(name, n+"_") {
			return true
		}
	}
	return false
}

// backendModuleUsesScan is backendModuleUses walking the whole file: the
// reference for backendModuleUses.
func (x *pyIndex) backendModuleUsesScan(op *optable.Op, modules []string) []namedNode {
	if len(modules) == 0 {
		return nil
	}
	var out []namedNode
	imported := map[string]bool{}
	for _, n := range x.File.Nodes() {
		switch s := n.(type) {
		case *ast.ImportFrom:
			base := astutil.ImportFromModule(astutil.PackagePath(x.File.Path), s)
			for _, a := range s.Names {
				if a == nil || a.Name != op.Func {
					continue
				}
				full := astutil.JoinDotted(base, a.Name)
				if _, bad := dottedUnder(full, modules); bad {
					local := a.Name
					if a.Asname != nil {
						local = *a.Asname
					}
					imported[local] = true
					out = append(out, namedNode{s, full})
				}
			}
		case *ast.Call:
			d := astutil.DottedName(s.Func)
			head, _, _ := strings.Cut(d, ".")
			if d == "" || imported[head] {
				continue
			}
			if q, _ := x.Imports.Resolve(s.Func); q != "" && astutil.DottedTail(q) == op.Func {
				if _, bad := dottedUnder(q, modules); bad {
					out = append(out, namedNode{s.Func, q})
				}
			}
		}
	}
	return out
}

// publicCallsScan is publicCalls walking the module body.
func (x *pyIndex) publicCallsScan(op *optable.Op) []*ast.Call {
	names := opPublicNames(op)
	var out []*ast.Call
	for _, s := range x.Body() {
		out = append(out, x.CallsTo(s, names)...)
	}
	return out
}

// namedAfterOtherScan is namedAfterOther expanding the names of every op
// f serves: the reference for namedAfter and namedAfterOther.
func namedAfterOtherScan(f *source.File, ops []*optable.Op, op *optable.Op, tmpls []string, names *layout.Names) bool {
	base := strings.TrimSuffix(path.Base(f.Path), ".py")
	for _, o := range ops {
		if o == op {
			continue
		}
		if nameCandidates(tmpls, o, opModule(o, names))[base] {
			return true
		}
	}
	return false
}

// findAllScan is findAll scanning every entry of __all__: the reference
// for findAll.
func (c *initChain) findAllScan(funcs map[string]bool) bool {
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

// importsOf returns the module and function imports of an init (only
// those in the block when blocked).
func (c *initChain) importsOf(in *optable.Init, blocked bool) []*optable.InitImport {
	var out []*optable.InitImport
	for _, list := range [][]*optable.InitImport{in.ModuleImports, in.FuncImports} {
		for _, x := range list {
			if !blocked || x.InBlock {
				out = append(out, x)
			}
		}
	}
	return out
}

// loadsPartScan is loadsPart scanning every import of the inits instead
// of looking them up: the reference for loadsPart.
func (c *initChain) loadsPartScan(i int) (ok, outside bool) {
	if i == 0 && len(c.parts) == 1 && c.blockedAt(0) {
		return c.plainImportAtRoot()
	}
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

func (c *initChain) loaded() bool {
	for i := range c.parts {
		if ok, _ := c.loadsPart(i); !ok {
			return false
		}
	}
	return true
}

// findFuncScan is findFunc scanning every function import: the reference
// for findFunc.
func (c *initChain) findFuncScan(funcs map[string]bool) bool {
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

// longestOrderedScan is longestOrdered comparing every pair: the
// reference for longestOrdered.
func longestOrderedScan(xs []string) []bool {
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

// exportingInitScan is exportingInit scanning every init and its imports:
// the reference for exportingInit.
func exportingInitScan(tab *optable.OpTable, fp string) (string, bool) {
	outer := ""
	for _, in := range tab.Inits {
		dir := path.Dir(in.File.Path)
		if !layout.UnderDir(dir, fp) {
			continue
		}
		if outer == "" || len(in.File.Path) < len(outer) {
			outer = in.File.Path
		}
		mod := optable.ModuleUnder(dir, fp)
		for _, ii := range append(append([]*optable.InitImport(nil), in.ModuleImports...), in.FuncImports...) {
			if ii.Module == mod {
				return in.File.Path, true
			}
		}
	}
	return outer, false
}

// classMethodScan is classMethod scanning the class body: the reference
// for classMethod.
func classMethodScan(c *ast.ClassDef, name string) *ast.FunctionDef {
	var out *ast.FunctionDef
	astutil.EachTopLevel(c.Body, func(s ast.Stmt) {
		if fd, ok := s.(*ast.FunctionDef); ok && fd.Name == name {
			out = fd
		}
	})
	return out
}

package checker

// Shared machinery of the Steps 4-6 check kinds (tests, benchmarks, verify):
// which files a step checks for which op, per-file Python indexes, call
// matching with import aliases, helper-following and glob matching of
// dotted and slash names.

import (
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// stepFile is one test or benchmark file with the ops it serves.
type stepFile struct {
	File *File
	Ops  []*Op // the ops associated with the file, not skipping the step
	// Primary is the op file-level findings belong to: the op whose
	// function name the file is named after, else the first op.
	Primary *Op
	Index   *pyIndex
}

// stepFiles returns the parsed files of a step (4: tests, 5: benchmarks)
// that rule applies to, each once, with the ops that use them. Ops that
// skip the step in writing are left out; a file no remaining op uses is
// not checked, nor one none of whose ops the pass wants (the findings of
// a file are those of its ops).
func stepFiles(pass *Pass, tab *OpTable, step int, rule *rules.Rule) []*stepFile {
	if tab == nil {
		return nil
	}
	byPath := map[string]*stepFile{}
	var order []*stepFile
	for _, op := range tab.Ops {
		if op == nil || op.Skipped(step) != nil {
			continue
		}
		files := op.Tests
		if step == 5 {
			files = op.Benchmarks
		}
		for _, f := range files {
			if f == nil || f.AST == nil || f.AST.Module == nil || !ruleFileMatch(rule, f.Path) {
				continue
			}
			sf := byPath[f.Path]
			if sf == nil {
				sf = &stepFile{File: f}
				byPath[f.Path] = sf
				order = append(order, sf)
			}
			sf.Ops = append(sf.Ops, op)
		}
	}
	wanted := order[:0]
	for _, sf := range order {
		for _, op := range sf.Ops {
			if pass.Wants(op.Name) {
				wanted = append(wanted, sf)
				break
			}
		}
	}
	order = wanted
	for _, sf := range order {
		stem := strings.TrimSuffix(path.Base(sf.File.Path), ".py")
		for _, op := range sf.Ops {
			if strings.HasSuffix(stem, "_"+op.Func) || stem == op.Func {
				if sf.Primary == nil || len(op.Func) > len(sf.Primary.Func) {
					sf.Primary = op
				}
			}
		}
		if sf.Primary == nil {
			sf.Primary = sf.Ops[0]
		}
		sf.Index = newPyIndex(sf.File)
	}
	return order
}

// ruleFileMatch reports whether a rule's `files` patterns (none = all)
// match a slash path.
func ruleFileMatch(rule *rules.Rule, p string) bool {
	if rule == nil || len(rule.Files) == 0 {
		return true
	}
	_, ok := MatchAny(rule.Files, p)
	return ok
}

func globSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if globSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// dottedUnder reports whether a qualified dotted name is one of the
// patterns or inside one of them ("tilegym.ops.cutile.softmax" is under
// "tilegym.ops.cutile"); "*" matches one dotted segment.
func dottedUnder(name string, patterns []string) (string, bool) {
	var segs []string
	for _, p := range patterns {
		if !strings.ContainsAny(p, `*?[\`) {
			// A literal pattern: its segments are the name's first ones.
			if name == p || strings.HasPrefix(name, p) && len(name) > len(p) && name[len(p)] == '.' {
				return p, true
			}
			continue
		}
		if segs == nil {
			segs = strings.Split(name, ".")
		}
		ps := strings.Split(p, ".")
		if len(ps) > len(segs) {
			continue
		}
		if globSegs(ps, segs[:len(ps)]) {
			return p, true
		}
	}
	return "", false
}

// pyIndex is what the kinds look up in one file.
type pyIndex struct {
	File    *File
	Imports *Imports
	Funcs   map[string]*ast.FunctionDef // module-level functions
	Classes []*ast.ClassDef             // module-level classes, in order
}

// newPyIndex returns the index of a file, built once per file and shared by
// the kinds.
func newPyIndex(f *File) *pyIndex { return f.pyIndex() }

func buildPyIndex(f *File) *pyIndex {
	x := &pyIndex{File: f, Imports: f.Imports(), Funcs: TopLevelFuncs(f.AST)}
	if f.AST != nil && f.AST.Module != nil {
		eachTopLevel(f.AST.Module.Body, func(s ast.Stmt) {
			if c, ok := s.(*ast.ClassDef); ok && c != nil {
				x.Classes = append(x.Classes, c)
			}
		})
	}
	return x
}

// body returns the module body, or nil.
func (x *pyIndex) body() []ast.Stmt {
	if x.File.AST == nil || x.File.AST.Module == nil {
		return nil
	}
	return x.File.AST.Module.Body
}

// isName reports whether e names one of names: a qualified name after
// import resolution (see Imports.Is), or, for names written with a
// "self." prefix, that attribute of self.
func (x *pyIndex) isName(e ast.Expr, names []string) bool {
	if x.Imports.Is(e, names) {
		return true
	}
	self := false
	for _, n := range names {
		if strings.HasPrefix(n, "self.") {
			self = true
		}
	}
	if !self {
		return false
	}
	d := DottedName(e)
	if d == "" {
		return false
	}
	for _, n := range names {
		if strings.HasPrefix(n, "self.") && d == n {
			return true
		}
	}
	return false
}

// callsTo returns the calls inside n (nested functions and lambdas
// included) whose callee names one of names, in source order.
func (x *pyIndex) callsTo(n ast.Node, names []string) []*ast.Call {
	var out []*ast.Call
	if n == nil || len(names) == 0 {
		return nil
	}
	for _, c := range x.File.callsIn(n) {
		if x.isName(c.Func, names) {
			out = append(out, c)
		}
	}
	return out
}

// funcScope is a function together with where helper calls in it resolve:
// its class (for self.<m> calls) and the module.
type funcScope struct {
	Def   *ast.FunctionDef
	Class *ast.ClassDef // nil for a module-level function
}

// helpers returns the functions fn calls one level down: methods of its
// class called as self.<m>(...) or cls.<m>(...), and module-level
// functions called by name, each once, in order of first call.
func (x *pyIndex) helpers(fs funcScope) []funcScope {
	var out []funcScope
	seen := map[*ast.FunctionDef]bool{fs.Def: true}
	for _, c := range x.File.callsIn(fs.Def) {
		var def *ast.FunctionDef
		var cls *ast.ClassDef
		switch fn := c.Func.(type) {
		case *ast.Name:
			def = x.Funcs[fn.Id]
		case *ast.Attribute:
			if v, ok := fn.Value.(*ast.Name); ok && (v.Id == "self" || v.Id == "cls") && fs.Class != nil {
				def = classMethod(fs.Class, fn.Attr)
				cls = fs.Class
			}
		}
		if def != nil && !seen[def] {
			seen[def] = true
			out = append(out, funcScope{Def: def, Class: cls})
		}
	}
	return out
}

// firstCallVia returns the first call (in source order of fs) to one of
// names made in fs or in a helper one level down; for a call inside a
// helper it returns the call of the helper in fs, so that positions stay
// comparable in fs.
func (x *pyIndex) firstCallVia(fs funcScope, names []string) *ast.Call {
	direct := x.callsTo(fs.Def, names)
	helperHas := map[*ast.FunctionDef]bool{}
	for _, h := range x.helpers(fs) {
		if len(x.callsTo(h.Def, names)) > 0 {
			helperHas[h.Def] = true
		}
	}
	var best *ast.Call
	consider := func(c *ast.Call) {
		if best == nil || c.Pos().Before(best.Pos()) {
			best = c
		}
	}
	if len(direct) > 0 {
		consider(direct[0])
	}
	if len(helperHas) > 0 {
		for _, c := range x.File.callsIn(fs.Def) {
			if def := x.calledDef(fs, c); def != nil && helperHas[def] {
				consider(c)
				break
			}
		}
	}
	return best
}

// calledDef returns the function a call in fs calls, when it is a helper
// (see helpers).
func (x *pyIndex) calledDef(fs funcScope, c *ast.Call) *ast.FunctionDef {
	switch fn := c.Func.(type) {
	case *ast.Name:
		return x.Funcs[fn.Id]
	case *ast.Attribute:
		if v, ok := fn.Value.(*ast.Name); ok && (v.Id == "self" || v.Id == "cls") && fs.Class != nil {
			return classMethod(fs.Class, fn.Attr)
		}
	}
	return nil
}

func classMethod(c *ast.ClassDef, name string) *ast.FunctionDef {
	var out *ast.FunctionDef
	eachTopLevel(c.Body, func(s ast.Stmt) {
		if fd, ok := s.(*ast.FunctionDef); ok && fd.Name == name {
			out = fd
		}
	})
	return out
}

// matchingMethods returns the functions of the file whose names match one
// of the globs: methods of module-level classes and module-level
// functions.
func (x *pyIndex) matchingMethods(globs []string) []funcScope {
	var out []funcScope
	for _, c := range x.Classes {
		eachTopLevel(c.Body, func(s ast.Stmt) {
			if fd, ok := s.(*ast.FunctionDef); ok && nameMatch(fd.Name, globs) {
				out = append(out, funcScope{Def: fd, Class: c})
			}
		})
	}
	for _, s := range x.body() {
		if fd, ok := s.(*ast.FunctionDef); ok && nameMatch(fd.Name, globs) {
			out = append(out, funcScope{Def: fd})
		}
	}
	return out
}

// nameMatch matches a name against path.Match globs.
func nameMatch(name string, globs []string) bool {
	for _, g := range globs {
		if ok, err := path.Match(g, name); err == nil && ok {
			return true
		}
	}
	return false
}

// opPublicNames returns the qualified names under which an op is reached
// through the public API of its scope ("tilegym.ops.softmax",
// "tilegym.ops.ops.softmax", "tilegym.suites.liger.ops.jsd").
func opPublicNames(op *Op) []string {
	if op.Scope == nil {
		return nil
	}
	var out []string
	for _, m := range apiModules(op.Scope, op.Suite) {
		out = append(out, m+"."+op.Func)
	}
	return out
}

// reaches reports whether the file itself names or uses the op: it is
// named after the op's function (test_<func>.py, bench_<func>.py), it
// mentions the op through the public API (aliases resolved), or it
// registers an implementation of the op. Files the op table associates
// only by other means (a wrapper, a grouping module's name) serve the op
// without being about it, and the per-op rules that ask the file to do
// something for the op (register its reference) do not apply to them.
func (x *pyIndex) reaches(op *Op, register []string) bool {
	stem := strings.TrimSuffix(path.Base(x.File.Path), ".py")
	if strings.HasSuffix(stem, "_"+op.Func) && !strings.Contains(strings.TrimSuffix(stem, "_"+op.Func), "_") {
		return true
	}
	names := opPublicNames(op)
	found := false
	InspectFile(x.File.AST, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Attribute, *ast.Name:
			if x.Imports.Is(n.(ast.Expr), names) {
				found = true
			}
			return !found
		case *ast.ImportFrom:
			base := ImportFromModule(PackagePath(x.File.Path), n)
			for _, a := range n.Names {
				if a != nil && contains(names, joinDotted(base, a.Name)) {
					found = true
				}
			}
		case *ast.Call:
			if x.isName(n.Func, register) {
				if s, ok := StringValue(CallArg(n, 0, "name")); ok && s == op.Name {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// preferredPublicName is the shortest public name of an op
// ("tilegym.ops.softmax" rather than "tilegym.ops.ops.softmax"), for
// messages.
func preferredPublicName(op *Op) string {
	best := ""
	for _, n := range opPublicNames(op) {
		if best == "" || len(n) < len(best) {
			best = n
		}
	}
	return best
}

// anchorStmt returns a node to anchor a file-level absence on: the first
// statement that is not a docstring or an import, else the first
// statement, else nil (line 1).
func (x *pyIndex) anchorStmt() ast.Node {
	body := x.body()
	for i, s := range body {
		switch s.(type) {
		case *ast.Import, *ast.ImportFrom:
			continue
		case *ast.ExprStmt:
			if i == 0 && Docstring(body) != nil {
				continue
			}
		}
		return s
	}
	if len(body) > 0 {
		return body[0]
	}
	return nil
}

// defNode returns a node spanning a function's `def` line only, so that a
// finding on a function points at its header, not its whole body.
func defNode(fd *ast.FunctionDef) ast.Node {
	if fd == nil {
		return nil
	}
	a := &ast.Attrs{Lineno: fd.Lineno, ColOffset: fd.ColOffset, EndLineno: fd.Lineno, EndColOffset: fd.ColOffset + len("def ") + len(fd.Name)}
	return &ast.Pass{Attrs: *a}
}

// classNode is defNode for a class.
func classNode(c *ast.ClassDef) ast.Node {
	a := &ast.Attrs{Lineno: c.Lineno, ColOffset: c.ColOffset, EndLineno: c.Lineno, EndColOffset: c.ColOffset + len("class ") + len(c.Name)}
	return &ast.Pass{Attrs: *a}
}

// fill replaces {op}, {func} and {suite} of a template for an op.
func fill(tmpl string, op *Op) string {
	return replaceAll(tmpl, "{op}", op.Name, "{func}", op.Func, "{suite}", op.Suite)
}

// callee is what a call's callee is: its qualified name with imports
// resolved, and, for a bare name, the name.
type callee struct {
	q    string
	name string
	bare bool
}

// callees returns the callees of the calls in a node of a file, in order
// (computed once per node; the list is shared).
func callees(f *File, n ast.Node) []callee {
	m := &f.memo
	m.callsMu.Lock()
	cs, ok := m.callees[n]
	m.callsMu.Unlock()
	if ok {
		return cs
	}
	im := f.Imports()
	calls := f.callsIn(n)
	cs = make([]callee, len(calls))
	for i, c := range calls {
		cs[i].q, _ = im.Resolve(c.Func)
		if nm, bare := c.Func.(*ast.Name); bare {
			cs[i].bare = true
			if nm != nil {
				cs[i].name = nm.Id
			}
		}
	}
	m.callsMu.Lock()
	if m.callees == nil {
		m.callees = map[ast.Node][]callee{}
	}
	m.callees[n] = cs
	m.callsMu.Unlock()
	return cs
}

// opWrappers returns, per op, the qualified names of the public wrappers
// that call it: module-level functions and classes of the scope's
// interface modules (the Python files directly in an API package, such as
// src/tilegym/ops/attn_interface.py) whose code calls the op through
// dispatch, directly or through other such wrappers (fused_moe ->
// _call_fused_experts_impl -> moe_align_block_size). A test of
// `tilegym.ops.fmha_interface` tests `fmha`. Each wrapper is named in its
// module and in each API package (re-exports). Used by the op table's test
// and benchmark association.
func (b *opTableBuilder) opWrappers() map[*Op][]string {
	type def struct {
		file *File
		name string
		node ast.Stmt
	}
	byPkg := map[string][]def{}
	for _, f := range b.files() {
		pkg := PackagePath(f.Path)
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
		q    map[string]bool           // resolved callees
		bare map[*File]map[string]bool // bare-name callees, by file
	}
	calls := map[string]*pkgCalls{}
	callsOf := func(pkg string) *pkgCalls {
		if pc := calls[pkg]; pc != nil {
			return pc
		}
		pc := &pkgCalls{q: map[string]bool{}, bare: map[*File]map[string]bool{}}
		for _, d := range byPkg[pkg] {
			for _, c := range callees(d.file, d.node) {
				pc.q[c.q] = true
				if c.bare {
					if pc.bare[d.file] == nil {
						pc.bare[d.file] = map[string]bool{}
					}
					pc.bare[d.file][c.name] = true
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
		apis := apiModules(op.Scope, op.Suite)
		var defs []def
		for _, m := range apis {
			defs = append(defs, byPkg[m]...)
		}
		if len(defs) == 0 {
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
		// names: qualified names that reach the op; local: per file, bare
		// names of wrappers defined there (and the stub itself).
		names := map[string]bool{}
		for _, m := range apis {
			names[m+"."+op.Func] = true
		}
		local := map[*File]map[string]bool{}
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
				for _, c := range callees(d.file, d.node) {
					if names[c.q] || c.bare && local[d.file][c.name] {
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
				qs := []string{ModulePath(d.file.Path) + "." + d.name}
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
	return out
}

package checker

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// ImplModuleAnalyzer implements kind "impl-module" (S2.1-S2.3, S2.6, S2.7).
var ImplModuleAnalyzer = &Analyzer{
	Name:         "impl-module",
	Placeholders: []string{"op", "file", "backends", "constant", "expected", "func", "kernel", "launch", "missing", "param", "problem", "use"},
	Doc: `Checks the cuTile implementation module of each op.

The rule's params select the property (check = ...):
  "exists"    the op has a register_impl(..., backend="cutile") site in a
              module under its scope's cuTile package (S2.1); one finding on
              the @dispatch decorator naming the expected module; a written
              skip of Step 2 silences it
  "imports"   the module imports each of "modules" (any alias) and takes
              register_impl from one of "register_impl" (default: the
              layout's register-impl names) (S2.2)
  "kernel"    the module defines a function decorated with one of "kernel"
              (S2.3)
  "launch"    the registered function launches a kernel, directly or
              through functions, classes and methods of the same module that
              it references (S2.3): a call of one of "launch" passing the
              kernel where the entry says ("cuda.tile.launch:2",
              "cuda.tile_experimental.autotune_launch:kernel"), a reference
              to one passed on (functools.partial), or, in a function
              decorated with one of "launchers"
              ("decorator:parameter:kernel"), a call of the launcher
              parameter the decorator hands it, passing the kernel
  "constant"  in every kernel, the parameters used in the compile-time
              argument positions listed in "const_args" ("arange:0",
              "load:shape", ...; names relative to "tile_module") are
              annotated with one of "constant" (or a module-level alias of
              it, e.g. ConstInt = ct.Constant[int]) (S2.6)
  "out"       when the registered function has the parameter "param", it
              assigns it under "if <param> is None:" and returns it (S2.7)
Module-level checks report once per module, for the first op it registers.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(implModuleParams) },
	Run:      runImplModule,
}

func init() { Register(ImplModuleAnalyzer) }

type implModuleParams struct {
	Check        string   `toml:"check"`
	Expected     string   `toml:"expected"` // template of the expected module: "{cutile}/{func}.py"
	Modules      []string `toml:"modules"`
	RegisterImpl []string `toml:"register_impl"`
	Kernel       []string `toml:"kernel"`
	Launch       []string `toml:"launch"`    // "qualified.name:kernel-position-or-keyword"
	Launchers    []string `toml:"launchers"` // "decorator:parameter:kernel-position-or-keyword"
	TileModule   string   `toml:"tile_module"`
	Constant     []string `toml:"constant"`
	ConstArgs    []string `toml:"const_args"`
	Param        string   `toml:"param"`
}

// implModule is one cuTile module and the ops it registers.
type implModule struct {
	file  *File
	impls []*Impl // the cuTile impls of dispatched, non-skipped ops, in source order
}

// cutileModules groups the cuTile impls of the dispatched ops (whose Step 2
// is not skipped) by module.
func cutileModules(tab *OpTable, names *Names) []*implModule {
	byFile := map[string]*implModule{}
	var out []*implModule
	for _, op := range tab.Ops {
		if stepSkipped(op, 2) {
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
		sort.SliceStable(m.impls, func(i, j int) bool { return m.impls[i].Call.Pos().Before(m.impls[j].Call.Pos()) })
	}
	return out
}

func runImplModule(pass *Pass) (any, error) {
	tab := opTableOf(pass)
	if tab == nil {
		return nil, nil
	}
	names := LayoutNames(pass.Repo.Layout)
	// A module's findings are those of the ops it registers.
	var mods []*implModule
	for _, m := range cutileModules(tab, names) {
		for _, im := range m.impls {
			if pass.Wants(im.Op) {
				mods = append(mods, m)
				break
			}
		}
	}
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*implModuleParams)
		if p == nil {
			continue
		}
		switch p.Check {
		case "exists":
			for _, op := range tab.Ops {
				if !pass.Wants(op.Name) || stepSkipped(op, 2) || len(cutileImpls(op, names)) > 0 {
					continue
				}
				f, n := dispatchAnchor(op)
				exp := expectedModule(pass.Repo, op, p.Expected)
				var other []string
				for _, im := range op.Impls {
					if im.Backend == names.CuTileBackend {
						other = append(other, im.Backend+" in "+im.File.Path)
					} else {
						other = append(other, im.Backend)
					}
				}
				vars := map[string]string{"expected": exp, "func": op.Func, "backends": strings.Join(uniq(other), ", ")}
				if len(other) == 0 {
					vars["backends"] = "none"
				}
				related := []Related{{File: exp, Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: "expected cuTile module"}}
				// A module of the package that does not parse may register the
				// op: name it, so that the driver blames the parse error (TG001)
				// instead of reporting a missing implementation.
				for _, u := range unparsedUnder(pass.Repo, op) {
					if u != exp {
						related = append(related, Related{File: u, Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: "does not parse; it may register the op"})
					}
				}
				reportAt(pass, rule, op.Name, f, n, vars, related, nil)
			}
		case "imports":
			for _, m := range mods {
				im := m.file.Imports()
				first := m.impls[0]
				var missing []string
				for _, mod := range p.Modules {
					if !im.Imported(mod) {
						missing = append(missing, "import "+mod)
					}
				}
				// register_impl: the rule's names, else the layout's (every
				// spelling the op table recognizes as register_impl).
				accepted := p.RegisterImpl
				if len(accepted) == 0 {
					accepted = names.RegisterImpl
				}
				if len(accepted) > 0 {
					ok := false
					for _, impl := range m.impls {
						if im.Is(impl.Call.Func, accepted) {
							ok = true
						}
					}
					if !ok {
						missing = append(missing, "take register_impl from "+strings.Join(trimLast(accepted), " or "))
					}
				}
				if len(missing) > 0 {
					reportAt(pass, rule, first.Op, m.file, first.Call.Func, map[string]string{"missing": strings.Join(missing, " and ")}, nil, nil)
				}
			}
		case "kernel":
			for _, m := range mods {
				im := m.file.Imports()
				if p.TileModule != "" && !im.Imported(p.TileModule) {
					continue // not a cuTile module at all: the "imports" rule reports it
				}
				if len(kernelDefs(m.file, im, p.Kernel)) == 0 && !importsKernelModule(pass.Repo, m.file, im, p.Kernel) {
					first := m.impls[0]
					reportAt(pass, rule, first.Op, m.file, first.Call.Func, map[string]string{"kernel": firstOr(p.Kernel, "")}, nil, nil)
				}
			}
		case "launch":
			launches := parseLaunchSpecs(p.Launch)
			launchers := parseLauncherSpecs(p.Launchers)
			for _, m := range mods {
				im := m.file.Imports()
				if p.TileModule != "" && !im.Imported(p.TileModule) {
					continue // not a cuTile module at all: the "imports" rule reports it
				}
				idx := newModuleIndex(m.file)
				isLaunch := launchPredicate(m.file, im, launches, launchers)
				for _, impl := range m.impls {
					if impl.Def == nil {
						continue
					}
					if !idx.reaches(impl.Def, isLaunch) {
						reportAt(pass, rule, impl.Op, m.file, defHeader(impl.Def), map[string]string{"func": impl.Def.Name, "launch": launchNames(launches, p.TileModule)}, nil, nil)
					}
				}
			}
		case "constant":
			args := parseConstArgs(p.ConstArgs)
			for _, m := range mods {
				checkConstantParams(pass, rule, p, args, m)
			}
		case "out":
			for _, m := range mods {
				for _, impl := range m.impls {
					if impl.Def == nil {
						continue
					}
					if prob, n := outProblem(impl.Def, p.Param); prob != "" {
						reportAt(pass, rule, impl.Op, m.file, n, map[string]string{"problem": prob, "param": p.Param, "func": impl.Def.Name}, nil, nil)
					}
				}
			}
		}
	}
	return nil, nil
}

// unparsedUnder returns the files under the op's cuTile package that did
// not parse (the op may be registered in one of them).
func unparsedUnder(repo *Repo, op *Op) []string {
	if op.Scope == nil {
		return nil
	}
	root := ExpandSuite(op.Scope.CuTile, op.Suite)
	var out []string
	for _, p := range repo.Paths {
		if f := repo.Files[p]; f != nil && f.AST == nil && UnderDir(root, p) {
			out = append(out, p)
		}
	}
	return out
}

func uniq(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// trimLast returns the modules of qualified names ("tilegym.backend" for
// "tilegym.backend.register_impl").
func trimLast(names []string) []string {
	var out []string
	for _, n := range names {
		if i := strings.LastIndexByte(n, '.'); i >= 0 {
			out = append(out, n[:i])
		} else {
			out = append(out, n)
		}
	}
	return uniq(out)
}

// expectedModule renders the path of the expected cuTile module of an op:
// {cutile} is the scope's cuTile root, {func} the op's function name and
// {suite} its suite.
func expectedModule(repo *Repo, op *Op, tmpl string) string {
	if tmpl == "" {
		tmpl = "{cutile}/{func}.py"
	}
	root := ""
	if op.Scope != nil {
		root = strings.TrimSuffix(ExpandSuite(op.Scope.CuTile, op.Suite), "/")
	}
	return replaceAll(tmpl, "{cutile}", root, "{func}", op.Func, "{suite}", op.Suite)
}

// kernelDefs returns the functions of a file decorated with a kernel
// decorator (bare or called).
func kernelDefs(f *File, im *Imports, kernel []string) []*ast.FunctionDef {
	var out []*ast.FunctionDef
	for _, n := range f.nodes() {
		if fd, ok := n.(*ast.FunctionDef); ok {
			if _, _, ok := im.Decorator(fd.DecoratorList, kernel); ok {
				out = append(out, fd)
			}
		}
	}
	return out
}

// importsKernelModule reports whether a file imports names from another
// module of the snapshot that defines a kernel (kernels shared between
// cuTile modules, e.g. `from .jsd import _jsd_kernel`).
func importsKernelModule(repo *Repo, f *File, im *Imports, kernel []string) bool {
	mods := map[string]bool{}
	for _, q := range im.Local {
		mods[q] = true
		if i := strings.LastIndexByte(q, '.'); i >= 0 {
			mods[q[:i]] = true
		}
	}
	for _, p := range repo.Paths {
		other := repo.Files[p]
		if other == nil || other == f || other.AST == nil || !mods[ModulePath(p)] {
			continue
		}
		if len(kernelDefs(other, other.Imports(), kernel)) > 0 {
			return true
		}
	}
	return false
}

// moduleIndex indexes the functions, classes and methods of a module for
// following references within it.
type moduleIndex struct {
	funcs   map[string][]ast.Node // name -> module-level functions, classes, methods with that name
	visited map[ast.Node]bool
}

func newModuleIndex(f *File) *moduleIndex {
	idx := &moduleIndex{funcs: map[string][]ast.Node{}}
	for _, n := range f.nodes() {
		switch n := n.(type) {
		case *ast.FunctionDef:
			idx.funcs[n.Name] = append(idx.funcs[n.Name], n)
		case *ast.AsyncFunctionDef:
			idx.funcs[n.Name] = append(idx.funcs[n.Name], n)
		case *ast.ClassDef:
			idx.funcs[n.Name] = append(idx.funcs[n.Name], n)
		}
	}
	// Module-level assignments: attention_decode = _AttentionDecode.apply.
	if f.AST != nil && f.AST.Module != nil {
		eachTopLevel(f.AST.Module.Body, func(s ast.Stmt) {
			if a, ok := s.(*ast.Assign); ok {
				for _, t := range a.Targets {
					if nm, ok := t.(*ast.Name); ok {
						idx.funcs[nm.Id] = append(idx.funcs[nm.Id], a.Value)
					}
				}
			}
		})
	}
	return idx
}

// reaches reports whether a node satisfying pred occurs in n or in any
// function, class or method of the module that n references by name
// (called, passed or returned), transitively.
func (idx *moduleIndex) reaches(n ast.Node, pred func(ast.Node) bool) bool {
	idx.visited = map[ast.Node]bool{}
	return idx.walk(n, pred)
}

func (idx *moduleIndex) walk(n ast.Node, pred func(ast.Node) bool) bool {
	if idx.visited[n] {
		return false
	}
	idx.visited[n] = true
	found := false
	var refs []string
	ast.Inspect(n, func(x ast.Node) bool {
		if found {
			return false
		}
		if pred(x) {
			found = true
			return false
		}
		switch x := x.(type) {
		case *ast.Name:
			refs = append(refs, x.Id)
		case *ast.Attribute:
			refs = append(refs, x.Attr)
		}
		return true
	})
	if found {
		return true
	}
	for _, r := range refs {
		for _, target := range idx.funcs[r] {
			if idx.walk(target, pred) {
				return true
			}
		}
	}
	return false
}

// constArg is one compile-time argument position: a function of the tile
// module and a positional index and/or keyword.
type constArg struct {
	fn  string
	pos int // -1 for none, allPositional for every positional argument
	kw  string
}

// allPositional is the position "*" of a const_args entry: every
// positional argument ("arange:*" covers ct.arange(0, BLOCK)).
const allPositional = -2

func parseConstArgs(list []string) []constArg {
	var out []constArg
	for _, s := range list {
		fn, spec, ok := strings.Cut(s, ":")
		if !ok {
			continue
		}
		for _, part := range strings.Split(spec, ",") {
			part = strings.TrimSpace(part)
			ca := constArg{fn: fn, pos: -1}
			if n, err := atoiStrict(part); err == nil {
				ca.pos = n
			} else if part == "*" {
				ca.pos = allPositional
			} else {
				ca.kw = part
			}
			out = append(out, ca)
		}
	}
	return out
}

func atoiStrict(s string) (int, error) {
	if s == "" {
		return 0, errNotNumber
	}
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, errNotNumber
		}
		n = n*10 + int(r-'0')
	}
	return n, nil
}

type notNumber struct{}

func (notNumber) Error() string { return "not a number" }

var errNotNumber error = notNumber{}

// constantAliases returns the names bound at module level to a constant
// annotation (ConstInt = ct.Constant[int]), including those imported from
// another module of the snapshot that binds them so.
func constantAliases(repo *Repo, f *File, im *Imports, constant []string, depth int) map[string]bool {
	out := map[string]bool{}
	if f == nil || f.AST == nil || f.AST.Module == nil {
		return out
	}
	eachTopLevel(f.AST.Module.Body, func(s ast.Stmt) {
		var target ast.Expr
		var value ast.Expr
		switch s := s.(type) {
		case *ast.Assign:
			if len(s.Targets) == 1 {
				target, value = s.Targets[0], s.Value
			}
		case *ast.AnnAssign:
			target, value = s.Target, s.Value
		}
		nm, ok := target.(*ast.Name)
		if !ok || value == nil {
			return
		}
		if isConstantAnnotation(im, value, constant, nil) {
			out[nm.Id] = true
		}
	})
	if depth > 0 {
		for local, q := range im.Local {
			i := strings.LastIndexByte(q, '.')
			if i < 0 || out[local] {
				continue
			}
			mod, name := q[:i], q[i+1:]
			other := repo.File("src/" + strings.ReplaceAll(mod, ".", "/") + ".py")
			if other == nil {
				other = repo.File(strings.ReplaceAll(mod, ".", "/") + ".py")
			}
			if other == nil || other.AST == nil {
				continue
			}
			if constantAliases(repo, other, other.Imports(), constant, depth-1)[name] {
				out[local] = true
			}
		}
	}
	return out
}

// isConstantAnnotation reports whether an annotation is Constant[...] of
// the tile module, or an alias of it.
func isConstantAnnotation(im *Imports, e ast.Expr, constant []string, aliases map[string]bool) bool {
	switch e := e.(type) {
	case *ast.Subscript:
		return im.Is(e.Value, constant)
	case *ast.Name:
		return aliases[e.Id] || im.Is(e, constant)
	case *ast.Attribute:
		return im.Is(e, constant)
	case *ast.Constant:
		// A string annotation: "ct.Constant[int]".
		if s, ok := e.Value.(string); ok {
			head, _, _ := strings.Cut(s, "[")
			if aliases[head] {
				return true
			}
			q, _ := im.Resolve(nameExpr(head))
			for _, c := range constant {
				if q == c {
					return true
				}
			}
		}
	}
	return false
}

// nameExpr builds a Name/Attribute chain for a dotted name.
func nameExpr(dotted string) ast.Expr {
	parts := strings.Split(dotted, ".")
	var e ast.Expr = &ast.Name{Id: parts[0]}
	for _, p := range parts[1:] {
		e = &ast.Attribute{Value: e, Attr: p}
	}
	return e
}

func checkConstantParams(pass *Pass, rule *rules.Rule, p *implModuleParams, args []constArg, m *implModule) {
	im := m.file.Imports()
	aliases := constantAliases(pass.Repo, m.file, im, p.Constant, 1)
	reported := map[*ast.Arg]bool{}
	targets := make([]string, len(args))
	for i, ca := range args {
		targets[i] = joinDotted(p.TileModule, ca.fn)
	}
	for _, kd := range kernelDefs(m.file, im, p.Kernel) {
		params := map[string]*ast.Arg{}
		for _, prm := range Params(kd.Args) {
			if prm.Kind != VarPositional && prm.Kind != VarKeyword {
				params[prm.Name] = prm.Arg
			}
		}
		// The calls of the kernel in source order, with their callees.
		calls, cs := m.file.callsIn(kd), callees(m.file, kd)
		for ci, c := range calls {
			q := cs[ci].q
			for ai, ca := range args {
				if q != targets[ai] {
					continue
				}
				var cargs []ast.Expr
				switch {
				case ca.pos == allPositional:
					for _, a := range c.Args {
						if _, star := a.(*ast.Starred); !star {
							cargs = append(cargs, a)
						}
					}
				case ca.pos >= 0:
					cargs = append(cargs, CallArg(c, ca.pos, ""))
				case ca.kw != "":
					cargs = append(cargs, CallArg(c, -1, ca.kw))
				}
				for _, arg := range cargs {
					if arg == nil {
						continue
					}
					ast.Inspect(arg, func(x ast.Node) bool {
						nm, ok := x.(*ast.Name)
						if !ok {
							if _, ok := x.(*ast.Attribute); ok {
								return false // x.shape: an attribute of a value, not a parameter
							}
							return true
						}
						a := params[nm.Id]
						if a == nil || reported[a] {
							return true
						}
						if a.Annotation != nil && isConstantAnnotation(im, a.Annotation, p.Constant, aliases) {
							return true
						}
						reported[a] = true
						reportAt(pass, rule, m.impls[0].Op, m.file, a, map[string]string{
							"param": nm.Id, "kernel": kd.Name, "use": dottedTail(ca.fn), "constant": firstOr(p.Constant, ""),
						}, []Related{{File: m.file.Path, Pos: nm.Pos(), End: nm.End(), Message: "used here as a compile-time value"}}, constantFix(m.file, im, a, p.Constant))
						return true
					})
				}
			}
		}
	}
}

// outProblem checks S2.7 for a registered function with an out parameter.
func outProblem(fd *ast.FunctionDef, param string) (string, ast.Node) {
	var outArg *ast.Arg
	for _, prm := range Params(fd.Args) {
		if prm.Name == param && prm.Kind != VarKeyword && prm.Kind != VarPositional {
			outArg = prm.Arg
		}
	}
	if outArg == nil {
		return "", nil
	}
	// The None branch: the body of `if out is None:`, the else of `if out is
	// not None:`; an assignment there allocates (to out or to another name,
	// e.g. `output = torch.empty(...)`, which then is the result).
	allocates, returns := false, false
	results := map[string]bool{param: true}
	assigned := func(body []ast.Stmt) {
		for _, s := range body {
			ast.Inspect(s, func(x ast.Node) bool {
				if a, ok := x.(*ast.Assign); ok {
					allocates = true
					for _, t := range a.Targets {
						if nm, ok := t.(*ast.Name); ok {
							results[nm.Id] = true
						}
					}
				}
				return true
			})
		}
	}
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.If:
			if isNoneTest(n.Test, param) {
				assigned(n.Body)
			} else if isNotNoneTest(n.Test, param) {
				assigned(n.Orelse)
			}
		case *ast.Assign:
			// out = out if out is not None else torch.empty_like(x)
			if ie, ok := n.Value.(*ast.IfExp); ok && (isNoneTest(ie.Test, param) || isNotNoneTest(ie.Test, param)) {
				allocates = true
				for _, t := range n.Targets {
					if nm, ok := t.(*ast.Name); ok {
						results[nm.Id] = true
					}
				}
			}
		case *ast.FunctionDef:
			return n == fd // nested functions have their own returns
		}
		return true
	})
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Return:
			if n.Value != nil {
				ast.Inspect(n.Value, func(x ast.Node) bool {
					if nm, ok := x.(*ast.Name); ok && results[nm.Id] {
						returns = true
					}
					return true
				})
			}
		case *ast.FunctionDef:
			return n == fd
		}
		return true
	})
	switch {
	case !allocates && !returns:
		return "neither allocates it when it is None nor returns it", outArg
	case !allocates:
		return "does not allocate it when it is None", outArg
	case !returns:
		return "does not return it", outArg
	}
	return "", nil
}

func isNoneTest(e ast.Expr, name string) bool {
	c, ok := e.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || len(c.Comparators) != 1 {
		return false
	}
	nm, ok := c.Left.(*ast.Name)
	return ok && nm.Id == name && (c.Ops[0] == ast.Is || c.Ops[0] == ast.Eq) && isNoneExpr(c.Comparators[0])
}

func isNotNoneTest(e ast.Expr, name string) bool {
	c, ok := e.(*ast.Compare)
	if !ok || len(c.Ops) != 1 || len(c.Comparators) != 1 {
		return false
	}
	nm, ok := c.Left.(*ast.Name)
	return ok && nm.Id == name && (c.Ops[0] == ast.IsNot || c.Ops[0] == ast.NotEq) && isNoneExpr(c.Comparators[0])
}

func (p *implModuleParams) Validate() error {
	if err := oneOf("check", p.Check, "exists", "imports", "kernel", "launch", "constant", "out"); err != nil {
		return err
	}
	switch {
	case p.Check == "imports" && len(p.Modules) == 0:
		return fmt.Errorf(`check = "imports" needs modules`)
	case (p.Check == "kernel" || p.Check == "constant") && len(p.Kernel) == 0:
		return fmt.Errorf(`check = %q needs kernel`, p.Check)
	case p.Check == "launch" && len(p.Launch) == 0:
		return fmt.Errorf(`check = "launch" needs launch`)
	case p.Check == "launch":
		for _, l := range p.Launchers {
			if parts := strings.Split(l, ":"); len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
				return fmt.Errorf("launchers entry %q: want \"decorator:parameter:kernel-position-or-keyword\"", l)
			}
		}
		for _, l := range p.Launch {
			if name, _, _ := strings.Cut(l, ":"); name == "" {
				return fmt.Errorf("launch entry %q: want \"qualified.name[:kernel-position-or-keyword]\"", l)
			}
		}
	case p.Check == "constant" && (len(p.Constant) == 0 || p.TileModule == ""):
		return fmt.Errorf(`check = "constant" needs constant and tile_module`)
	case p.Check == "out" && p.Param == "":
		return fmt.Errorf(`check = "out" needs param`)
	}
	for _, a := range p.ConstArgs {
		fn, spec, ok := strings.Cut(a, ":")
		if !ok || fn == "" || spec == "" {
			return fmt.Errorf("const_args entry %q: want \"function:position-or-keyword[,...]\"", a)
		}
	}
	return nil
}

// launchSpec is one launch function and where its call passes the kernel.
type launchSpec struct {
	name string // qualified name: cuda.tile.launch
	pos  int    // positional index of the kernel, -1 for none
	kw   string // keyword of the kernel, "" for none
}

// has reports whether a call passes the kernel where the spec says; a spec
// naming no place accepts any call.
func (l launchSpec) has(c *ast.Call) bool {
	if l.pos < 0 && l.kw == "" {
		return true
	}
	return CallArg(c, l.pos, l.kw) != nil
}

// parseKernelPlace reads where a call passes the kernel: "2" (a position),
// "kernel" (a keyword) or "2,kernel" (either).
func parseKernelPlace(s string) (int, string) {
	pos, kw := -1, ""
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if n, err := atoiStrict(part); err == nil {
			pos = n
		} else if part != "" {
			kw = part
		}
	}
	return pos, kw
}

func parseLaunchSpecs(list []string) []launchSpec {
	var out []launchSpec
	for _, e := range list {
		name, place, _ := strings.Cut(e, ":")
		pos, kw := parseKernelPlace(place)
		out = append(out, launchSpec{name: name, pos: pos, kw: kw})
	}
	return out
}

// launcherSpec is a decorator that hands the decorated function a launcher
// as one of its parameters (TileGym's @autotune passes `autotuner`, called
// as autotuner(stream, grid_fn=..., kernel=k, args_fn=...)).
type launcherSpec struct {
	decorator string
	param     string
	launchSpec
}

func parseLauncherSpecs(list []string) []launcherSpec {
	var out []launcherSpec
	for _, e := range list {
		parts := strings.SplitN(e, ":", 3)
		if len(parts) != 3 {
			continue
		}
		pos, kw := parseKernelPlace(parts[2])
		out = append(out, launcherSpec{decorator: parts[0], param: parts[1], launchSpec: launchSpec{pos: pos, kw: kw}})
	}
	return out
}

// launchNames renders the launch functions for messages, functions of the
// tile module as ct.<name>: "ct.launch or autotune_launch".
func launchNames(specs []launchSpec, tileModule string) string {
	var names []string
	for _, l := range specs {
		if rest, ok := strings.CutPrefix(l.name, tileModule+"."); ok && tileModule != "" && !strings.Contains(rest, ".") {
			names = append(names, "ct."+rest)
		} else {
			names = append(names, lastDotted(l.name))
		}
	}
	return strings.Join(names, " or ")
}

// launchPredicate returns the test of "this node launches a kernel" for a
// module: a call of a launch function passing the kernel, a launch function
// referenced without being called (passed on, functools.partial(ct.launch,
// stream)), or a call of a launcher parameter inside a function decorated
// with a launcher decorator.
func launchPredicate(f *File, im *Imports, launches []launchSpec, launchers []launcherSpec) func(ast.Node) bool {
	names := make([]string, len(launches))
	for i, l := range launches {
		names[i] = l.name
	}
	// Calls of a launcher parameter, found up front per decorated function.
	viaLauncher := map[*ast.Call]bool{}
	for _, l := range launchers {
		for _, fd := range kernelDefs(f, im, []string{l.decorator}) {
			ok := false
			for _, prm := range Params(fd.Args) {
				if prm.Name == l.param {
					ok = true
				}
			}
			if !ok {
				continue
			}
			for _, c := range f.callsIn(fd) {
				if nm, isName := c.Func.(*ast.Name); isName && nm.Id == l.param && l.has(c) {
					viaLauncher[c] = true
				}
			}
		}
	}
	callee := map[ast.Node]bool{}
	return func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Call:
			if viaLauncher[n] {
				return true
			}
			callee[n.Func] = true
			for _, l := range launches {
				if im.Is(n.Func, []string{l.name}) {
					return l.has(n)
				}
			}
		case *ast.Attribute:
			return !callee[n] && im.Is(n, names)
		case *ast.Name:
			return !callee[n] && im.Is(n, names)
		}
		return false
	}
}

package checks

import (
	"fmt"
	"strings"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// ImplLaunchAnalyzer implements kind "impl-launch".
var ImplLaunchAnalyzer = opKind(&Analyzer{
	Doc: `Reports a registered cuTile function that launches no kernel.

The registered function launches a kernel, directly or through functions,
classes and methods of the same module that it references: a call of one of
"launch" passing the kernel where the entry says ("cuda.tile.launch:2",
"cuda.tile_experimental.autotune_launch:kernel"), a reference to one passed
on (functools.partial), or, in a function decorated with one of "launchers"
("decorator:parameter:kernel"), a call of the launcher parameter the
decorator hands it, passing the kernel. Modules that do not import
"tile_module" are left to the impl-imports rule.`,
	Name:         "impl-launch",
	Placeholders: []string{"op", "file", "func", "launch"},
}, runImplLaunch)

type ImplLaunchParams struct {
	Launch     []string `toml:"launch"`    // "qualified.name:kernel-position-or-keyword"
	Launchers  []string `toml:"launchers"` // "decorator:parameter:kernel-position-or-keyword"
	TileModule string   `toml:"tile_module"`
}

func (p *ImplLaunchParams) Validate() error {
	if err := needEntries("launch", p.Launch); err != nil {
		return err
	}
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
	return nil
}

func runImplLaunch(pass *Pass, tab *optable.OpTable, rule *rules.Rule, p *ImplLaunchParams) {
	launches := parseLaunchSpecs(p.Launch)
	launchers := parseLauncherSpecs(p.Launchers)
	for _, m := range tileModules(pass, tab, p.TileModule) {
		idx := newModuleIndex(m.file)
		isLaunch := launchPredicate(m.file, m.file.Imports(), launches, launchers)
		for _, impl := range m.impls {
			if impl.Def != nil && !idx.reaches(impl.Def, isLaunch) {
				reportAt(pass, rule, impl.Op, m.file, defNode(impl.Def), map[string]string{"func": impl.Def.Name, "launch": launchNames(launches, p.TileModule)}, nil, nil)
			}
		}
	}
}

// moduleIndex indexes the functions, classes and methods of a module for
// following references within it.
type moduleIndex struct {
	funcs   map[string][]ast.Node // name -> module-level functions, classes, methods with that name
	visited map[ast.Node]bool
}

func newModuleIndex(f *source.File) *moduleIndex {
	idx := &moduleIndex{funcs: map[string][]ast.Node{}}
	for _, n := range f.Nodes() {
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
		astutil.EachTopLevel(f.AST.Module.Body, func(s ast.Stmt) {
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
	var refs []string // only the names the module defines: most are not
	ast.Inspect(n, func(x ast.Node) bool {
		if found {
			return false
		}
		if pred(x) {
			found = true
			return false
		}
		var r string
		switch x := x.(type) {
		case *ast.Name:
			r = x.Id
		case *ast.Attribute:
			r = x.Attr
		default:
			return true
		}
		if _, ok := idx.funcs[r]; ok {
			refs = append(refs, r)
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
	return astutil.CallArg(c, l.pos, l.kw) != nil
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
			names = append(names, astutil.DottedTail(l.name))
		}
	}
	return strings.Join(names, " or ")
}

// launchPredicate returns the test of "this node launches a kernel" for a
// module: a call of a launch function passing the kernel, a launch function
// referenced without being called (passed on, functools.partial(ct.launch,
// stream)), or a call of a launcher parameter inside a function decorated
// with a launcher decorator.
func launchPredicate(f *source.File, im *astutil.Imports, launches []launchSpec, launchers []launcherSpec) func(ast.Node) bool {
	names := make([]string, len(launches))
	for i, l := range launches {
		names[i] = l.name
	}
	// Calls of a launcher parameter, found up front per decorated function.
	viaLauncher := map[*ast.Call]bool{}
	for _, l := range launchers {
		for _, fd := range kernelDefs(f, im, []string{l.decorator}) {
			ok := false
			for _, prm := range astutil.Params(fd.Args) {
				if prm.Name == l.param {
					ok = true
				}
			}
			if !ok {
				continue
			}
			for _, c := range f.CallsIn(fd) {
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

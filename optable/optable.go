// Package optable is the repository model every check reads: a snapshot
// with its layout (Repo) and the op table built from it (OpTable: per op,
// its dispatch stub, implementations, cuTile __init__ exports, tests,
// benchmarks and written skips), with the analyzer that builds it.
package optable

import (
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/source"
)

// OpTable is the shared index every workflow check reads: per op, its
// dispatch stub, registered implementations, cuTile __init__ exports, tests
// and benchmarks. It is the result of the OpTableAnalyzer.
type OpTable struct {
	Ops    []*Op          // sorted by Name
	ByName map[string]*Op // by dispatch name
	// Impls is every register_impl site found, including those whose name
	// is not a dispatched op (orphans, see S2.5).
	Impls []*Impl
	// Inits is every cuTile package __init__.py in scope.
	Inits []*Init

	Wrappers map[*Op][]string // the public wrappers of each op (opWrappers)
	// about holds, for a test or benchmark file serving several ops, the
	// ops it is about (aboutOps) when they are not all of them.
	about map[string]map[*Op]bool
}

// IsAbout reports whether a test or benchmark file is about op, rather than
// calling it only as a baseline or a helper: naming and reference rules
// apply to the ops a file is about, and findings on the file are charged to
// one of them.
func (t *OpTable) IsAbout(f *source.File, op *Op) bool {
	if t == nil || f == nil {
		return true
	}
	set, ok := t.about[f.Path]
	return !ok || set[op]
}

// Op is one operator: one @dispatch("<name>") stub and everything that
// belongs to it.
type Op struct {
	Name  string        // the dispatch name: "softmax", "liger.jsd", "flashinfer.gemm.masked_bmm"
	Func  string        // the stub's function name, the last dotted part of Name
	Scope *layout.Scope // the layout scope the dispatch file belongs to (core, a suite)
	Suite string        // the suite name bound by the scope ("" for the core scope)

	Stub  *Stub   // the first @dispatch stub for Name
	Stubs []*Stub // all of them (more than one violates S1.1)

	Impls      []*Impl        // register_impl sites for Name, every backend, sorted by file and line
	Misnamed   []*Impl        // cuTile registrations in its scope under an undispatched name nearest to Name (a typo, TG206)
	Tests      []*source.File // test files that exercise the op
	Benchmarks []*source.File // benchmark files that time the op
	Skips      []Skip         // explicit, written decisions to skip a step (W1)
}

// ImplsFor returns the op's implementations for a backend.
func (o *Op) ImplsFor(backend string) []*Impl {
	var out []*Impl
	for _, im := range o.Impls {
		if im.Backend == backend {
			out = append(out, im)
		}
	}
	return out
}

// Skipped returns the written skip that covers a step, or nil: the skip of
// that step, or for Step 3 the skip of Step 2 (an op with no cuTile module
// has nothing to register).
func (o *Op) Skipped(step int) *Skip {
	for i := range o.Skips {
		if o.Skips[i].Step == step {
			return &o.Skips[i]
		}
	}
	if step == 3 {
		return o.Skipped(2)
	}
	return nil
}

// SelectedBy reports whether one of names (as --op takes them) selects the
// op: its dispatch name, or, for an op of no suite, its function name.
func (o *Op) SelectedBy(names map[string]bool) bool {
	return names[o.Name] || o.Suite == "" && names[o.Func]
}

// Select returns the ops that names select (Op.SelectedBy), sorted by name.
func (t *OpTable) Select(names map[string]bool) []*Op {
	var out []*Op
	for _, op := range t.Ops {
		if op.SelectedBy(names) {
			out = append(out, op)
		}
	}
	return out
}

// Lookup returns the ops one name selects (Op.SelectedBy).
func (t *OpTable) Lookup(name string) []*Op {
	return t.Select(map[string]bool{name: true})
}

// Stub is a dispatch entry point: a function decorated with @dispatch("<op>").
type Stub struct {
	File      *source.File
	Def       *ast.FunctionDef
	Decorator *ast.Call // the dispatch(...) call
	NameArg   *ast.Constant
}

// Impl is a register_impl("<op>", backend="<b>") site: a decorator on a
// function, or a call register_impl("<op>", "<b>")(fn).
type Impl struct {
	Op      string // the name given to register_impl
	Backend string
	File    *source.File
	Call    *ast.Call        // the register_impl(...) call
	Def     *ast.FunctionDef // the registered function, when it is defined in File; else nil
	Module  string           // dotted module path of File relative to its cuTile package root ("softmax", "activation.gelu"); "" outside one
	// Pos and End are Call's span (for an Unregistered one, the first
	// kernel's), kept where the syntax nodes are not (the op table of a
	// check in batches, see package checker).
	Pos, End ast.Pos
	// Unregistered marks the module of an op being added that registers
	// nothing yet (addUnregisteredOps): Call is nil, Def is the module's
	// entry point (the function named after the op, else its first public
	// function, else nil). It is in its op's Impls, never in OpTable.Impls.
	Unregistered bool
}

// Node returns the node a finding about the registration points at: the
// op-name argument of register_impl, else the call, else (Unregistered)
// the entry point's definition; nil when there is none of them.
func (im *Impl) Node() ast.Node {
	if im.Call != nil {
		if a := astutil.CallArg(im.Call, 0, "name"); a != nil {
			return a
		}
		return im.Call
	}
	if im.Def != nil {
		return im.Def
	}
	return nil
}

// Init is a cuTile package's __init__.py and what it exports.
type Init struct {
	File  *source.File
	Scope *layout.Scope
	Suite string
	// Block is the `if is_backend_available("cutile"):` statement, or nil.
	Block *ast.If
	// BlockBody is the guarded part of Block: its body, or its else branch
	// when the test is negated (`if not is_backend_available("cutile"):`).
	BlockBody []ast.Stmt
	// ModuleImports are the `from . import <module>` statements (in Block, or at top level).
	ModuleImports []*InitImport
	// FuncImports are the `from .<module> import <name>` statements.
	FuncImports []*InitImport
	// All is the `__all__` list entries with their nodes; nil if there is no __all__.
	All     []*ast.Constant
	AllNode ast.Node
	InBlock map[ast.Node]bool // statements that are inside Block
}

// InitImport is one imported name of an __init__ import statement.
type InitImport struct {
	Stmt    *ast.ImportFrom
	Alias   *ast.Alias
	Module  string // "softmax" for `from . import softmax` and `from .softmax import f`; "experimental.mhc" for `from .experimental.mhc import f`
	Name    string // the imported name
	InBlock bool   // inside the is_backend_available("cutile") block
}

// Skip is a written decision to skip a step for an op, e.g. the comment
// `# tilegym-lint: skip-step=5 reason="no benchmark harness for this op yet"`.
type Skip struct {
	Step   int
	Reason string
	File   string
	Pos    ast.Pos
	// Text is the directive comment as written; "" for a configuration skip.
	Text string
	// Unclosed says that the written reason opens a quote it does not
	// close (reason="no harness): a directive cut short or mistyped.
	Unclosed bool
}

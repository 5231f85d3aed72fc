package source

// Per-file facts that several analyzers need, computed once per File and
// shared: the analyzers run concurrently over the same snapshot, so each
// fact is guarded (sync.Once, or a mutex for the per-node call lists).
// Every fact is a pure function of the file's path and syntax tree, and is
// never modified once computed.

import (
	"strings"
	"sync"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
)

type fileMemo struct {
	importsOnce sync.Once
	imports     *astutil.Imports

	callsMu sync.Mutex
	calls   map[ast.Node][]*ast.Call
	callees map[ast.Node][]callee

	nodesOnce sync.Once
	nodes     []ast.Node
	spans     map[*ast.FunctionDef][2]int // a function's subtree in nodes
	attrs     []*ast.Attribute            // the attributes in no attribute

	nodeCalleesOnce sync.Once
	nodeCallees     []string

	commentsOnce sync.Once
	comments     map[int]bool

	facts sync.Map // *Fact[T] -> *factCell
}

// A Fact is a value derived from a file that a layer above this one
// defines; it is computed once per file, on first use, and shared. Its
// build function must depend on the file's path, source and tree only.
type Fact[T any] struct{ build func(*File) T }

// NewFact returns a fact computed by build.
func NewFact[T any](build func(*File) T) *Fact[T] { return &Fact[T]{build} }

type factCell struct {
	once sync.Once
	v    any
}

// Of returns the fact of f, computing it on first use.
func (k *Fact[T]) Of(f *File) T {
	c, ok := f.memo.facts.Load(k)
	if !ok {
		c, _ = f.memo.facts.LoadOrStore(k, &factCell{})
	}
	cell := c.(*factCell)
	cell.once.Do(func() { cell.v = k.build(f) })
	return cell.v.(T)
}

// CommentLines returns the lines that hold only a comment, computed once.
// The map is shared: callers must not modify it.
func (f *File) CommentLines() map[int]bool {
	f.memo.commentsOnce.Do(func() { f.memo.comments = buildCommentLines(f) })
	return f.memo.comments
}

// Imports returns the imports of the file (NewImports), computed once.
func (f *File) Imports() *astutil.Imports {
	f.memo.importsOnce.Do(func() { f.memo.imports = astutil.NewImports(f.Path, f.AST) })
	return f.memo.imports
}

// CallsIn returns Calls(n) for a node of the file, computed once per node.
// The list is shared: callers must not modify it.
func (f *File) CallsIn(n ast.Node) []*ast.Call {
	m := &f.memo
	m.callsMu.Lock()
	cs, ok := m.calls[n]
	m.callsMu.Unlock()
	if ok {
		return cs
	}
	if fd, ok := n.(*ast.FunctionDef); ok {
		if list, ok := f.CallsOfDef(fd); ok {
			cs = list
		} else {
			cs = astutil.Calls(n)
		}
	} else {
		cs = astutil.Calls(n)
	}
	m.callsMu.Lock()
	if m.calls == nil {
		m.calls = map[ast.Node][]*ast.Call{}
	}
	m.calls[n] = cs
	m.callsMu.Unlock()
	return cs
}

// Nodes returns every function, class, call and import statement of the
// file, in the order InspectFile visits them (computed once; the list is
// shared). Walks that look only at these nodes and never prune iterate
// it instead of the whole tree.
func (f *File) Nodes() []ast.Node {
	f.memo.nodesOnce.Do(func() {
		var out []ast.Node
		var attrs []*ast.Attribute
		spans := map[*ast.FunctionDef][2]int{}
		// A function's subtree (and an attribute's) is walked by a nested
		// Inspect, so that where it ends is known; the order of the nodes
		// is Inspect's.
		var entering ast.Node
		inAttr := 0
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			if n == entering {
				return true // the nested Inspect's visit of n itself
			}
			switch x := n.(type) {
			case *ast.FunctionDef:
				out = append(out, n)
				start := len(out)
				entering = x
				ast.Inspect(x, visit)
				spans[x] = [2]int{start, len(out)}
				return false
			case *ast.Attribute:
				if inAttr == 0 {
					attrs = append(attrs, x)
				}
				inAttr++
				entering = x
				ast.Inspect(x, visit)
				inAttr--
				return false
			case *ast.AsyncFunctionDef, *ast.ClassDef, *ast.Call, *ast.Import, *ast.ImportFrom:
				out = append(out, n)
			}
			return true
		}
		astutil.InspectFile(f.AST, visit)
		f.memo.nodes = out
		f.memo.spans = spans
		f.memo.attrs = attrs
	})
	return f.memo.nodes
}

// Attributes returns the attribute chains of the file that are not part of
// another (computed with nodes, once; the list is shared).
func (f *File) Attributes() []*ast.Attribute {
	f.Nodes()
	return f.memo.attrs
}

// CallsOfDef returns Calls(fd) from nodes(), when fd is a function of the
// file.
func (f *File) CallsOfDef(fd *ast.FunctionDef) ([]*ast.Call, bool) {
	nodes := f.Nodes()
	span, ok := f.memo.spans[fd]
	if !ok {
		return nil, false
	}
	var out []*ast.Call
	for _, n := range nodes[span[0]:span[1]] {
		if c, ok := n.(*ast.Call); ok {
			out = append(out, c)
		}
	}
	return out, true
}

// NodeCallees returns, for each node of nodes() that is a call, its callee
// resolved (Imports.Resolve of its Func); "" for the other nodes (computed
// once; the list is shared).
func (f *File) NodeCallees() []string {
	f.memo.nodeCalleesOnce.Do(func() {
		nodes := f.Nodes()
		im := f.Imports()
		out := make([]string, len(nodes))
		for i, n := range nodes {
			if c, ok := n.(*ast.Call); ok {
				out[i], _ = im.Resolve(c.Func)
			}
		}
		f.memo.nodeCallees = out
	})
	return f.memo.nodeCallees
}

// callee is what a call's callee is: its qualified name with imports
// resolved, and, for a bare name, the name.
type callee struct {
	Q    string
	Name string
	Bare bool
}

// Callees returns the callees of the calls in a node of a file, in order
// (computed once per node; the list is shared).
func Callees(f *File, n ast.Node) []callee {
	m := &f.memo
	m.callsMu.Lock()
	cs, ok := m.callees[n]
	m.callsMu.Unlock()
	if ok {
		return cs
	}
	im := f.Imports()
	calls := f.CallsIn(n)
	cs = make([]callee, len(calls))
	for i, c := range calls {
		cs[i].Q, _ = im.Resolve(c.Func)
		if nm, bare := c.Func.(*ast.Name); bare {
			cs[i].Bare = true
			if nm != nil {
				cs[i].Name = nm.Id
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

func buildCommentLines(f *File) map[int]bool {
	out := map[int]bool{}
	lines := strings.Split(string(f.Src), "\n")
	for _, c := range f.AST.Comments {
		if c.Pos.Line-1 < len(lines) {
			l := lines[c.Pos.Line-1]
			if c.Pos.Col <= len(l) && strings.TrimSpace(l[:c.Pos.Col]) == "" {
				out[c.Pos.Line] = true
			}
		}
	}
	return out
}

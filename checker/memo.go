package checker

// Per-file facts that several analyzers need, computed once per File and
// shared: the analyzers run concurrently over the same snapshot, so each
// fact is guarded (sync.Once, or a mutex for the per-node call lists).
// Every fact is a pure function of the file's path and syntax tree, and is
// never modified once computed.

import (
	"sync"

	"github.com/tilegym/tilegym-lint/python/ast"
)

type fileMemo struct {
	importsOnce sync.Once
	imports     *Imports

	indexOnce sync.Once
	index     *pyIndex

	callsMu sync.Mutex
	calls   map[ast.Node][]*ast.Call
	callees map[ast.Node][]callee

	nodesOnce sync.Once
	nodes     []ast.Node
	spans     map[*ast.FunctionDef][2]int // a function's subtree in nodes
	attrs     []*ast.Attribute            // the attributes in no attribute

	nodeCalleesOnce sync.Once
	nodeCallees     []string

	usedOnce sync.Once
	used     map[string]bool

	commentsOnce sync.Once
	comments     map[int]bool

	linesOnce sync.Once
	lines     []string
}

// lines returns srcLines(f.Src), computed once: fixes are built per
// finding, and splitting the file for each made a file with many findings
// quadratic. The list is shared: callers must not modify it.
func (f *File) lines() []string {
	f.memo.linesOnce.Do(func() { f.memo.lines = srcLines(f.Src) })
	return f.memo.lines
}

// usedNames returns the qualified names the file imports or mentions
// (see opTableBuilder.usedNames), computed once. The map is shared: callers
// must not modify it.
func (f *File) usedNames() map[string]bool {
	f.memo.usedOnce.Do(func() { f.memo.used = buildUsedNames(f) })
	return f.memo.used
}

// commentLines returns the lines that hold only a comment, computed once.
// The map is shared: callers must not modify it.
func (f *File) commentLines() map[int]bool {
	f.memo.commentsOnce.Do(func() { f.memo.comments = buildCommentLines(f) })
	return f.memo.comments
}

// Imports returns the imports of the file (NewImports), computed once.
func (f *File) Imports() *Imports {
	f.memo.importsOnce.Do(func() { f.memo.imports = NewImports(f.Path, f.AST) })
	return f.memo.imports
}

// pyIndex returns the file's index for the Steps 4-6 kinds, computed once.
func (f *File) pyIndex() *pyIndex {
	f.memo.indexOnce.Do(func() { f.memo.index = buildPyIndex(f) })
	return f.memo.index
}

// callsIn returns Calls(n) for a node of the file, computed once per node.
// The list is shared: callers must not modify it.
func (f *File) callsIn(n ast.Node) []*ast.Call {
	m := &f.memo
	m.callsMu.Lock()
	cs, ok := m.calls[n]
	m.callsMu.Unlock()
	if ok {
		return cs
	}
	if fd, ok := n.(*ast.FunctionDef); ok {
		if list, ok := f.callsOfDef(fd); ok {
			cs = list
		} else {
			cs = Calls(n)
		}
	} else {
		cs = Calls(n)
	}
	m.callsMu.Lock()
	if m.calls == nil {
		m.calls = map[ast.Node][]*ast.Call{}
	}
	m.calls[n] = cs
	m.callsMu.Unlock()
	return cs
}

// nodes returns every function, class, call and import statement of the
// file, in the order InspectFile visits them (computed once; the list is
// shared). Walks that look only at these nodes and never prune iterate
// it instead of the whole tree.
func (f *File) nodes() []ast.Node {
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
		InspectFile(f.AST, visit)
		f.memo.nodes = out
		f.memo.spans = spans
		f.memo.attrs = attrs
	})
	return f.memo.nodes
}

// callsOfDef returns Calls(fd) from nodes(), when fd is a function of the
// file.
func (f *File) callsOfDef(fd *ast.FunctionDef) ([]*ast.Call, bool) {
	nodes := f.nodes()
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

// nodeCallees returns, for each node of nodes() that is a call, its callee
// resolved (Imports.Resolve of its Func); "" for the other nodes (computed
// once; the list is shared).
func (f *File) nodeCalleesQ() []string {
	f.memo.nodeCalleesOnce.Do(func() {
		nodes := f.nodes()
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

// chainHead returns the name at the root of a Name/Attribute chain (the
// part of DottedName before the first dot), or "" when e is no such chain.
func chainHead(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Name:
			if x == nil {
				return ""
			}
			return x.Id
		case *ast.Attribute:
			if x == nil {
				return ""
			}
			e = x.Value
		default:
			return ""
		}
	}
}

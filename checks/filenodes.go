package checks

// One flat walk of a parsed file, shared by every kind that walks it.

import (
	"reflect"
	"sync"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/source"
)

// A fileNodes is a parsed file's nodes in walk's order, each with its
// depth (its path's length less one): built once per file and shared by
// the pattern, relation and config kinds and every walk of theirs, which
// then go through a slice instead of a tree.
type fileNodes struct {
	nodes []ast.Node
	depth []int32
}

var fileNodesFact = source.NewFact(buildFileNodes)

// buildFileNodes walks a parsed file once.
func buildFileNodes(f *source.File) *fileNodes {
	fn := &fileNodes{}
	if f.AST == nil || f.AST.Module == nil {
		return fn
	}
	// About one node for every 8 bytes of source.
	fn.nodes = make([]ast.Node, 0, len(f.Src)/8)
	fn.depth = make([]int32, 0, len(f.Src)/8)
	for _, s := range f.AST.Module.Body {
		ast.InspectDepth(s, func(n ast.Node, depth int) {
			fn.nodes = append(fn.nodes, n)
			fn.depth = append(fn.depth, int32(depth))
		})
	}
	return fn
}

// fileNodesOf returns the nodes of a parsed file, computed once.
func fileNodesOf(f *source.File) *fileNodes { return fileNodesFact.Of(f) }

// walk calls fn for every node with its path from the module, as walk
// does over the file's tree.
func (fn *fileNodes) walk(visit func(path []ast.Node)) {
	path := make([]ast.Node, 0, 32)
	for j, n := range fn.nodes {
		path = append(path[:fn.depth[j]], n)
		visit(path)
	}
}

// nodeKind is the type name of a node ("Call").
func nodeKind(n ast.Node) string { return typeKind(reflect.TypeOf(n)) }

// typeKind is the type name of a node type.
func typeKind(t reflect.Type) string {
	if k, ok := kindNames.Load(t); ok {
		return k.(string)
	}
	name := t.Name()
	if t.Kind() == reflect.Pointer {
		name = t.Elem().Name()
	}
	kindNames.Store(t, name)
	return name
}

// kindNames caches nodeKind by type: it runs on every node for every rule.
var kindNames sync.Map

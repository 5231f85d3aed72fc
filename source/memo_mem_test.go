package source

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// manyDefs is a file of n functions, each with a call chain and two
// attributes, and a few module-level calls.
func manyDefs(n int) *File {
	var b strings.Builder
	b.WriteString("import torch\n\nx = torch.zeros(3)\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\n\ndef f%d(a):\n    return torch.relu(a.b.c) + g(h(a), torch.nn)\n", i)
	}
	f := ParseFile("m.py", []byte(b.String()))
	if f.AST == nil {
		panic(f.Err)
	}
	return f
}

// The per-file lists are kept as long as the tree: they must hold no
// room to spare (a list grown by append has up to half of its room
// unused), at every size.
func TestFactListsExactSize(t *testing.T) {
	for _, n := range []int{0, 1, 3, 17, 100, 1000} {
		f := manyDefs(n)
		if nodes := f.Nodes(); cap(nodes) != len(nodes) {
			t.Errorf("%d defs: Nodes has len %d, cap %d", n, len(nodes), cap(nodes))
		}
		if attrs := f.Attributes(); cap(attrs) != len(attrs) {
			t.Errorf("%d defs: Attributes has len %d, cap %d", n, len(attrs), cap(attrs))
		}
		for _, s := range f.AST.Module.Body {
			fd, ok := s.(*ast.FunctionDef)
			if !ok {
				continue
			}
			calls, ok := f.CallsOfDef(fd)
			if !ok || len(calls) != 3 || cap(calls) != len(calls) {
				t.Fatalf("%d defs: CallsOfDef(%s) = %d calls (cap %d), %v; want 3, exact", n, fd.Name, len(calls), cap(calls), ok)
			}
		}
	}
}

// Nodes recycles its build buffers: the lists of one file must not share
// memory with another's, and the buffers kept must hold no node.
func TestNodesBuffersNotShared(t *testing.T) {
	a, b := manyDefs(50), manyDefs(60)
	na, nb := a.Nodes(), b.Nodes()
	if len(na) == 0 || len(nb) == 0 {
		t.Fatal("no nodes")
	}
	if unsafe.SliceData(na) == unsafe.SliceData(nb) {
		t.Fatal("two files' node lists share memory")
	}
	for _, n := range na {
		if n == nil {
			t.Fatal("a nil node in the first file's list after the second was built")
		}
	}
	for len(nodesBufs) > 0 {
		buf := <-nodesBufs
		for _, n := range buf.nodes[:cap(buf.nodes)] {
			if n != nil {
				t.Fatal("a recycled buffer holds a node")
			}
		}
	}
}

// Text shares the file's bytes.
func TestTextNoCopy(t *testing.T) {
	f := manyDefs(2)
	if s := f.Text(); s != string(f.Src) || unsafe.StringData(s) != unsafe.SliceData(f.Src) {
		t.Fatal("Text is not the source's bytes")
	}
}

package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/source"
)

// Following a function's references keeps only the names the module
// defines: a kernel wrapper mentions hundreds of others (locals, torch
// calls), and listing them all per function walked was garbage made while
// every tree is live.
func TestReachesListsDefinedNamesOnly(t *testing.T) {
	var b strings.Builder
	b.WriteString("def helper():\n    return launch(k)\n\ndef f(x):\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "    y%d = torch.op%d(x, z%d)\n", i, i, i)
	}
	b.WriteString("    return helper()\n")
	f := source.ParseFile("src/tilegym/ops/cutile/m.py", []byte(b.String()))
	if f.AST == nil {
		t.Fatal(f.Err)
	}
	idx := newModuleIndex(f)
	fn := f.AST.Module.Body[1]
	isLaunch := func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok {
			return false
		}
		nm, ok := c.Func.(*ast.Name)
		return ok && nm.Id == "launch"
	}
	if !idx.reaches(fn, isLaunch) {
		t.Fatal("f does not reach the launch through helper")
	}
	never := func(ast.Node) bool { return false }
	if n := testing.AllocsPerRun(20, func() { idx.reaches(fn, never) }); n > 8 {
		t.Errorf("following f's references allocates %.0f times, want at most 8", n)
	}
}

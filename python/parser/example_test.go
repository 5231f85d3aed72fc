package parser_test

import (
	"fmt"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/parser"
)

func ExampleParseFile() {
	src := []byte("def f(x):\n    return x + 1  # add one\n")
	f, err := parser.ParseFile("example.py", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	ast.Inspect(f.Module.Body[0], func(n ast.Node) bool {
		a := n.Attributes()
		fmt.Printf("%T %d:%d-%d:%d\n", n, a.Lineno, a.ColOffset, a.EndLineno, a.EndColOffset)
		return true
	})
	fmt.Println(f.Comments[0].Text)

	_, err = parser.ParseFile("bad.py", []byte("x = (1,\n"))
	fmt.Println(err)
	// Output:
	// *ast.FunctionDef 1:0-2:16
	// *ast.Arg 1:6-1:7
	// *ast.Return 2:4-2:16
	// *ast.BinOp 2:11-2:16
	// *ast.Name 2:11-2:12
	// *ast.Constant 2:15-2:16
	// # add one
	// bad.py:1:5: '(' was never closed
}

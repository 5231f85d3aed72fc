// Package parser parses Python source into the syntax tree of package
// python/ast, matching CPython 3.11's ast.parse node for node and position
// for position.
package parser

import "strconv"

// Error is a syntax error: position (Line 1-based, Col 0-based byte offset)
// and message.
type Error struct {
	Filename string
	Line     int
	Col      int
	Msg      string
}

// Error formats the error as "filename:line:col: msg" with a 1-based column.
func (e *Error) Error() string {
	return e.Filename + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col+1) + ": " + e.Msg
}

// bailout is the panic value used internally to unwind the recursive
// descent on the first syntax error. It never escapes ParseFile.
type bailout struct{ err *Error }

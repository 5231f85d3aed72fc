// Package parser parses Python source into the syntax tree of package
// python/ast, matching CPython 3.11's ast.parse node for node and position
// for position, and rejecting what ast.parse rejects.
//
// The parser is hand written: a byte-level tokenizer (tokenizer.go) turns
// the decoded source (source.go: PEP 263 cookies, BOM, newline
// normalization) into a token slice, and a recursive descent (parser.go for
// statements, expr.go for expressions and targets, pattern.go for match
// statements) builds the tree. Node positions follow pegen's rule: a node
// spans from the first to the last token its grammar rule consumed, so
// parentheses around an operand widen the enclosing node but not the
// operand itself. strings.go decodes literals and reproduces CPython 3.11's
// f-string parser, including its position quirks (literal and field nodes
// carry the span of the whole string concatenation; expressions inside
// fields are re-parsed with shifted positions).
//
// Beyond 3.11 the parser accepts PEP 695 type parameters and type aliases
// and PEP 701 f-strings (same quotes nested in a replacement field) where
// 3.11 would reject the source anyway.
//
// Trees must be treated as read-only where they share values: the *big.Int
// of small int constants (0 to 1023) is one shared value per number, and
// strings are substrings of one copy of the source.
package parser

import "strconv"

// Error is a syntax error: position (Line 1-based, Col 0-based byte offset)
// and message. The position is where CPython 3.11's SyntaxError points
// (lineno, offset-1 in bytes; its offset 0 is Col 0): the tokenizer's error
// only if its parser would have got that far (see tokenizeFile), a generic error
// at the furthest token read, specific errors where its invalid_ rules put
// them. scripts/parser-conformance --mutants measures the agreement.
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
type bailout struct {
	err *Error
	// quiet marks a tokenizer error that CPython reports only when the
	// parser reaches it (see failQuiet).
	quiet bool
}

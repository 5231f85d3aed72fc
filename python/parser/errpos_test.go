package parser

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// TestErrorPositions checks the position of syntax errors against CPython
// 3.11's: line and 0-based column (SyntaxError.offset - 1; an offset of 0
// is column 0). The expected values were printed by ast.parse.
func TestErrorPositions(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
	}{
		{"unclosed paren, later line", "x = (1,\n  2\ny = 3\n", 1, 4},                                                // SyntaxError: '(' was never closed
		{"merge conflict marker", "def f():\n    pass\n<<<<<<< HEAD\nx = 1\n=======\nx = 2\n>>>>>>> b\n", 3, 0},      // SyntaxError: invalid syntax
		{"merge conflict in brackets", "x = [\n    1,\n<<<<<<< HEAD\n    2,\n=======\n    3,\n>>>>>>> b\n]\n", 3, 0}, // SyntaxError: invalid syntax
		{"assign in if", "if x = 1:\n    pass\n", 1, 3},                                                              // SyntaxError: invalid syntax. Maybe you meant '==' or ':=' instead of '='?
		{"assign attribute in while", "while a.b = 1:\n    pass\n", 1, 6},                                            // SyntaxError: cannot assign to attribute here. Maybe you meant '==' instead of '='?
		{"forgot comma", "f(a b)\n", 1, 2},                                                                           // SyntaxError: invalid syntax. Perhaps you forgot a comma?
		{"forgot comma dict", "d = {\n    1: 2\n    3: 4,\n}\n", 2, 7},                                               // SyntaxError: invalid syntax. Perhaps you forgot a comma?
		{"unclosed bracket, error later", "x = [1, 2\ny = 3\n", 1, 4},                                                // SyntaxError: '[' was never closed
		{"if without else", "x = a if b\n", 1, 4},                                                                    // SyntaxError: expected 'else' after 'if' expression
		{"expected indented block", "if x:\npass\n", 2, 0},                                                           // IndentationError: expected an indented block after 'if' statement on line 1
		{"expected indented block at col 0 dedent", "def f():\n    if x:\ny = 1\n", 3, 0},                            // IndentationError: expected an indented block after 'if' statement on line 2
		{"try without except", "try:\n    x\ny = 1\n", 3, 0},                                                         // SyntaxError: expected 'except' or 'finally' block
		{"unindent mismatch", "if x:\n    a\n  b\n", 3, 3},                                                           // IndentationError: unindent does not match any outer indentation level
		{"tab error", "if x:\n\ta\n        b\n", 3, 0},                                                               // TabError: inconsistent use of tabs and spaces in indentation
		{"unexpected indent", "x = 1\n    y = 2\n", 2, 3},                                                            // IndentationError: unexpected indent
		{"unterminated string before parse error", "x = 1 +\ny = 'abc\n", 2, 4},                                      // SyntaxError: unterminated string literal (detected at line 2)
		{"unterminated string in brackets", "x = (\ny = 'abc\n", 2, 4},                                               // SyntaxError: unterminated string literal (detected at line 2)
		{"not without in", "x = a not b\n", 1, 10},                                                                   // SyntaxError: invalid syntax
		{"trailing operator", "x = 1 +\n", 1, 7},                                                                     // SyntaxError: invalid syntax
		{"unmatched paren", "x = )\n", 1, 4},                                                                         // SyntaxError: unmatched ')'
		{"error before unclosed paren", "x = 1\ny = 2 3\nz = (\n", 2, 6},                                             // SyntaxError: invalid syntax
		{"class without colon", "class A\n    pass\n", 1, 7},                                                         // SyntaxError: expected ':'
		{"dollar", "x = $\n", 1, 4},                                                                                  // SyntaxError: invalid syntax
		{"invalid character", "x = 1 \u20ac\n", 1, 6},                                                                // SyntaxError: invalid character '€' (U+20AC)
		{"line continuation", "x = \\ 1\n", 1, 5},                                                                    // SyntaxError: unexpected character after line continuation character
		{"legacy print", "print 'hello'\n", 1, 0},                                                                    // SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?
		{"stray closer after error", "x = 1 2\ny = 3)\n", 2, 5},                                                      // SyntaxError: unmatched ')'
		{"bad dedent after parse error", "x = 1 2\nif a:\n    b\n  c\n", 1, 6},                                       // SyntaxError: invalid syntax
		{"unexpected indent then unterminated string", "x = 1\n    y = 2\nz = 'a\n", 2, 3},                           // IndentationError: unexpected indent
		{"euro after number", "x = 1\u20ac\n", 1, 5},                                                                 // SyntaxError: invalid character '€' (U+20AC)
		{"letter after number", "x = 1\u00e9\n", 1, 5},                                                               // SyntaxError: invalid syntax
		{"invalid decimal literal", "x = 1_\n", 1, 5},                                                                // SyntaxError: invalid decimal literal
		{"leading zeros", "x = 0777\n", 1, 4},                                                                        // SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers
		{"expected colon before comment", "if x # c\n    pass\n", 1, 5},                                              // SyntaxError: expected ':'
		{"try without colon, comment", "try # c\n    pass\nexcept E:\n    pass\n", 1, 4},                             // SyntaxError: expected ':'
		{"dict key without colon", "d = {1: 2, 3 4}\n", 1, 11},                                                       // SyntaxError: ':' expected after dictionary key
		{"dict value missing", "d = {1: , 2: 3}\n", 1, 6},                                                            // SyntaxError: expression expected after dictionary key and ':'
		{"missing default", "def f(a, b=):\n    pass\n", 1, 10},                                                      // SyntaxError: expected default value expression
		{"positional after keyword", "f(a=1,\n  b)\n", 2, 3},                                                         // SyntaxError: positional argument follows keyword argument
		{"if condition then garbage", "if a b c:\n    pass\n", 1, 5},                                                 // SyntaxError: invalid syntax
		{"while without colon", "while x\n    pass\n", 1, 7},                                                         // SyntaxError: expected ':'
		{"conditional in genexp without else", "g = (p  p in q if r)\n", 1, 5},                                       // SyntaxError: invalid syntax. Perhaps you forgot a comma?
		{"bad dedent before except", "try:\n        x = 1\n    except E:\n    pass\n", 3, 13},                        // IndentationError: unindent does not match any outer indentation level
		{"dollar after parse error", "x = 1 2\ny = $\n", 1, 6},                                                       // SyntaxError: invalid syntax
	}
	for _, tt := range tests {
		_, err := ParseFile("t.py", []byte(tt.src))
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: %q: got %v, want a syntax error", tt.name, tt.src, err)
			continue
		}
		if pe.Line != tt.line || pe.Col != tt.col {
			t.Errorf("%s: %q: error at %d:%d (%s), CPython's at %d:%d", tt.name, tt.src, pe.Line, pe.Col, pe.Msg, tt.line, tt.col)
		}
	}
}

// TestFStringFieldLines checks the positions of fields of a multi-line
// f-string (their line count is carried from one field to the next; the
// values are CPython 3.11's).
func TestFStringFieldLines(t *testing.T) {
	f, err := ParseFile("f.py", []byte("x = f\"\"\"a{b}\n{c} {d}\nzz{e}\"\"\"\ny = f'{g}{h}'\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"b": {1, 10}, "c": {2, 1}, "d": {2, 5}, "e": {3, 3}, "g": {4, 7}, "h": {4, 10}}
	got := map[string][2]int{}
	for _, s := range f.Module.Body {
		ast.Inspect(s, func(n ast.Node) bool {
			if nm, ok := n.(*ast.Name); ok && nm.Id != "x" && nm.Id != "y" {
				got[nm.Id] = [2]int{nm.Pos().Line, nm.Pos().Col}
			}
			return true
		})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("field positions %v, want %v", got, want)
	}
}

// TestDeepNestingError checks that 100000 open brackets give CPython's
// tokenizer error at the 201st, not a stack overflow.
func TestDeepNestingError(t *testing.T) {
	for _, src := range []string{
		"x = " + strings.Repeat("(", 100000) + "\n",
		"x = " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n",
	} {
		_, err := ParseFile("d.py", []byte(src))
		var pe *Error
		if !errors.As(err, &pe) || pe.Msg != "too many nested parentheses" || pe.Line != 1 || pe.Col != 204 {
			t.Errorf("%.10q...: got %v, want 1:204 too many nested parentheses", src, err)
		}
	}
}

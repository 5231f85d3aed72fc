package source

import (
	"errors"
	"fmt"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/parser"
)

func LoadFile(src Source, path string) (*File, error) {
	data, err := src.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return ParseFile(path, data), nil
}

// ParseFile parses the content of a file of the snapshot, and computes the
// facts every file needs (its imports) while the workers are busy in
// parallel.
func ParseFile(path string, data []byte) *File {
	f := &File{Path: path, Src: data}
	if len(data) > MaxFileBytes {
		f.Err = &TooLargeError{Path: path}
		return f
	}
	f.AST, f.Err = parse(path, data)
	if f.Err != nil {
		f.AST = nil
	}
	if f.AST != nil {
		f.Imports()
	}
	return f
}

// parse runs the parser, turning a panic (a parser bug) into an error at
// line 1 so that one bad file never stops the run.
func parse(path string, data []byte) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, &parser.Error{Filename: path, Line: 1, Msg: fmt.Sprintf("internal parser error: %v", r)}
		}
	}()
	return parser.ParseFile(path, data)
}

// ParseErrorPos returns the position and message of a parse error.
func ParseErrorPos(err error) (ast.Pos, string) {
	var pe *parser.Error
	if errors.As(err, &pe) {
		line := pe.Line
		if line < 1 {
			line = 1
		}
		return ast.Pos{Line: line, Col: max(pe.Col, 0)}, pe.Msg
	}
	return ast.Pos{Line: 1}, err.Error()
}

// MaxFileBytes is the largest Python file parsed: 4 MiB, over ten times
// TileGym's largest module, and a bound on the parser's memory (a syntax
// tree takes tens of bytes per source byte: one 100 MB file peaked at
// 4.6 GB). A larger file is not parsed; its Err is a *TooLargeError.
const MaxFileBytes = 4 << 20

// TooLargeError is the Err of a file over MaxFileBytes.
type TooLargeError struct{ Path string }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d MiB; tilegym-lint does not parse it", e.Path, MaxFileBytes>>20)
}

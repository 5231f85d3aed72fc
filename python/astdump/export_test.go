package astdump

import (
	"io"
	"math/big"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// Forms of the dump that only the tests use.

// Write writes the canonical JSON of f's module, without a trailing newline.
func Write(w io.Writer, f *ast.File) error {
	b, err := Append(nil, f)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// String returns the canonical JSON of one node; on error the message is
// returned in place of the dump.
func String(node any) string {
	b, err := AppendNode(nil, node)
	if err != nil {
		return "astdump: " + err.Error()
	}
	return string(b)
}

// WriteError writes the canonical line body for a file the parser rejected:
// {"error":{"msg":M,"lineno":L,"offset":C}}. A line or col <= 0 is written
// as null.
func WriteError(w io.Writer, msg string, line, col int) error {
	_, err := w.Write(AppendError(nil, msg, line, col))
	return err
}

// bigInt makes an int constant value.
func bigInt(v int64) *big.Int { return big.NewInt(v) }

package main

import (
	"bytes"
	"io"
	"testing"
)

// A panic anywhere in a run is an internal error: exit 2, one line on
// stderr, no stack trace, and what was written before it still flushed.
func TestPanicIsInternalError(t *testing.T) {
	saved := dispatch
	defer func() { dispatch = saved }()
	dispatch = func(args []string, stdout, stderr io.Writer) int {
		io.WriteString(stdout, "partial")
		var ops []string
		return len(ops[len(args)]) // out of range: panics
	}
	var out, errOut bytes.Buffer
	code := run([]string{"."}, &out, &errOut)
	if code != 2 || errOut.String() != "tilegym-lint: internal error: runtime error: index out of range [1] with length 0\n" || out.String() != "partial" {
		t.Errorf("panic: exit %d, stdout %q, stderr %q; want 2 and one line", code, out.String(), errOut.String())
	}
}

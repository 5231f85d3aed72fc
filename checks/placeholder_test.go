package checks

import (
	"testing"

	"github.com/tilegym/tilegym-lint/python/parser"
)

// TestFindPlaceholders: the raises of NotImplementedError whose one argument
// is a plain string starting with the marker, in nested functions and
// blocks, with the enclosing function; not another message, not an
// f-string.
func TestFindPlaceholders(t *testing.T) {
	src := `
def f():
    raise NotImplementedError("tilegym-lint new: write f")

class C:
    @staticmethod
    def reference(x):
        if x:
            raise NotImplementedError("tilegym-lint new: write reference")
        raise NotImplementedError("something else")

raise NotImplementedError(f"tilegym-lint new: {x}")
`
	f, err := parser.ParseFile("x.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ph := findPlaceholders(f, "NotImplementedError", "tilegym-lint new:")
	if len(ph) != 2 || ph[0].fn != "f" || ph[0].stmt.Pos().Line != 3 || ph[1].fn != "reference" || ph[1].stmt.Pos().Line != 9 {
		t.Fatalf("%+v", ph)
	}
}

package optable

import (
	"fmt"
	"testing"

	"github.com/tilegym/tilegym-lint/source"
)

// The names a file uses are a sorted list, each once (every prefix of a
// resolved chain, the imports' bindings), with no room to spare: the list
// is kept as long as the file.
func TestUsedNamesSortedOnce(t *testing.T) {
	src := "import torch\nimport tilegym.ops as ops\nfrom a.b import c\n\n" +
		"x = torch.nn.functional.relu(ops.softmax(c.d), torch.nn.functional.gelu)\ny = ops.softmax\n"
	f := source.ParseFile("tests/ops/test_x.py", []byte(src))
	if f.AST == nil {
		t.Fatal(f.Err)
	}
	got := UsedNamesFact.Of(f)
	want := []string{"a", "a.b", "a.b.c", "a.b.c.d", "tilegym", "tilegym.ops", "tilegym.ops.softmax",
		"torch", "torch.nn", "torch.nn.functional", "torch.nn.functional.gelu", "torch.nn.functional.relu"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("used names\n%q\nwant\n%q", got, want)
	}
	if cap(got) != len(got) {
		t.Errorf("%d names, room for %d", len(got), cap(got))
	}
}

package checks

import (
	"testing"

	"github.com/tilegym/tilegym-lint/optable"
)

// Filling a file name template per op and file allocates the result only:
// a strings.Replacer built per call was a tenth of a check's allocations.
func TestExpandNameAllocs(t *testing.T) {
	op := &optable.Op{Name: "liger.nn.jsd", Func: "jsd", Suite: "liger"}
	var out string
	allocs := testing.AllocsPerRun(100, func() {
		out = expandName("tests/{suite}/{parent}/test_{func}_{module}.py", op, "jsd_mod")
	})
	if want := "tests/liger/nn/test_jsd_jsd_mod.py"; out != want {
		t.Fatalf("expandName = %q, want %q", out, want)
	}
	if allocs > 2 {
		t.Errorf("expandName allocates %.0f times per call, want at most 2", allocs)
	}
}

package checker

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/fixtureset"
)

// ResolveTarget: a root alone is the whole checkout; files and directories
// below a root name that root and those files; paths of two checkouts are
// refused.
func TestResolveTarget(t *testing.T) {
	dir := fixtureset.Materialize(t, "good")
	whole, err := ResolveTarget([]string{dir})
	if err != nil || whole.Root != dir || whole.Files != nil {
		t.Fatalf("ResolveTarget(root) = %+v, %v; want the root, no files", whole, err)
	}
	files, err := ResolveTarget([]string{
		filepath.Join(dir, "tests/ops/test_softmax.py"),
		filepath.Join(dir, "src/tilegym/ops/cutile"),
	})
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	if files.Root != abs && files.Root != dir {
		t.Errorf("root = %s, want %s", files.Root, abs)
	}
	if !slices.Contains(files.Files, "tests/ops/test_softmax.py") || !slices.Contains(files.Files, "src/tilegym/ops/cutile/softmax.py") ||
		!slices.IsSorted(files.Files) {
		t.Errorf("files = %v, want the file and the directory's files, sorted", files.Files)
	}
	other := t.TempDir()
	if err := os.MkdirAll(filepath.Join(other, "src", "tilegym"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = ResolveTarget([]string{filepath.Join(dir, "tests/ops/test_softmax.py"), filepath.Join(other, "src", "tilegym")})
	if err == nil || !strings.Contains(err.Error(), "different checkouts") {
		t.Errorf("two checkouts: %v", err)
	}
}

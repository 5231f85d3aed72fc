package regfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestRead compares Read with os.ReadFile on regular files: contents of
// every file of the fixtures and of files of several sizes, and the error
// of a missing file.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, n := range []int{0, 1, 511, 512, 513, 4096, 1 << 16, 1<<16 + 1, 3 << 20} {
		p := filepath.Join(dir, fmt.Sprintf("f%d", n))
		if err := os.WriteFile(p, bytes.Repeat([]byte("ab\n"), n)[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	_ = filepath.WalkDir("../../fixtures", func(p string, e os.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	paths = append(paths, filepath.Join(dir, "missing"))
	for _, p := range paths {
		got, gerr := Read(p)
		want, werr := os.ReadFile(p)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("%s: error %v, want %v", p, gerr, werr)
		}
		if werr == nil && (!bytes.Equal(got, want) || got == nil) {
			t.Errorf("%s: %d bytes, want %d", p, len(got), len(want))
		}
	}
}

package realtree

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	t.Setenv(Env, "")
	if d := Dir(); d != "" {
		t.Errorf("unset: Dir() = %q", d)
	}
	empty := t.TempDir()
	t.Setenv(Env, empty)
	if d := Dir(); d != "" {
		t.Errorf("a directory without src/tilegym: Dir() = %q", d)
	}
	if err := os.MkdirAll(filepath.Join(empty, "src", "tilegym"), 0o755); err != nil {
		t.Fatal(err)
	}
	if d := Dir(); d != empty {
		t.Errorf("a checkout: Dir() = %q, want %q", d, empty)
	}
}

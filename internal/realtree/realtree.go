// Package realtree gives tests the one way to reach a real TileGym
// checkout: the directory named by $TILEGYM_LINT_TREE. No test names a
// path of its own; without the variable, the tests that need a real tree
// skip and say how to enable them, and every other assertion holds on the
// bundled fixtures alone.
package realtree

import (
	"os"
	"path/filepath"
	"testing"
)

// Env is the variable naming a TileGym checkout (the root holding
// src/tilegym), e.g. TILEGYM_LINT_TREE=$HOME/src/TileGym go test ./...
const Env = "TILEGYM_LINT_TREE"

// Dir returns $TILEGYM_LINT_TREE when it names a directory holding
// src/tilegym, else "".
func Dir() string {
	dir := os.Getenv(Env)
	if dir == "" {
		return ""
	}
	if fi, err := os.Stat(filepath.Join(dir, "src", "tilegym")); err != nil || !fi.IsDir() {
		return ""
	}
	return dir
}

// Need returns the tree, or skips the test or benchmark with how to
// enable it.
func Need(t testing.TB) string {
	t.Helper()
	dir := Dir()
	if dir == "" {
		if v := os.Getenv(Env); v != "" {
			t.Skipf("%s=%s holds no src/tilegym: set it to a TileGym checkout", Env, v)
		}
		t.Skipf("needs a TileGym checkout: set %s to its root", Env)
	}
	return dir
}

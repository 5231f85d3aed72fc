// Package corpus gives tests the repositories a fast path is compared with
// its reference on: every fixture and, when present, a TileGym tree, each
// loaded as the command line loads a checkout without a configuration.
package corpus

import (
	"testing"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/source"
)

// Dirs returns the directory of every fixture, the extra directories, and
// the TileGym tree (realtree.Dir) when there is one.
func Dirs(t testing.TB, extra ...string) []string {
	t.Helper()
	dirs := append(fixtureset.Dirs(t), extra...)
	if tree := realtree.Dir(); tree != "" {
		dirs = append(dirs, tree)
	}
	return dirs
}

// Load loads the working tree at dir with the built-in catalog's layout.
func Load(t testing.TB, dir string) (*optable.Repo, *layout.Layout) {
	t.Helper()
	setup := config.NewSetup(testrepo.Catalog(t), nil)
	lay := setup.Layout
	repo, err := load.Load(&source.DiskSource{Dir: dir}, setup)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return repo, lay
}

// Agree runs mismatches on every repository of Dirs(t, extra...): it
// returns the differences between a fast path and its reference, and how
// many questions it compared. Each difference is an error. The fixtures
// and extra directories alone must compare at least min questions, so the
// fast path is exercised on every machine; the TileGym tree, when there is
// one, must compare some more.
func Agree(t testing.TB, what string, min int, mismatches func(*optable.Repo, *layout.Layout) (diffs []string, compared int), extra ...string) {
	t.Helper()
	if testing.Short() {
		t.Skip("compares a fast path with its reference on the whole corpus; skipped with -short")
	}
	bundled := 0
	tree := realtree.Dir()
	for _, dir := range Dirs(t, extra...) {
		repo, lay := Load(t, dir)
		diffs, n := mismatches(repo, lay)
		for _, d := range diffs {
			t.Errorf("%s: %s", dir, d)
		}
		switch {
		case dir != tree:
			bundled += n
		case n == 0:
			t.Errorf("compared no %s on the TileGym tree %s", what, dir)
		}
	}
	t.Logf("compared %d %s on the bundled fixtures", bundled, what)
	if bundled < min {
		t.Errorf("compared %d %s on the bundled fixtures, want at least %d", bundled, what, min)
	}
}

package optable

import (
	"slices"
	"testing"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/source"
)

// TestCuTileRootsFoundOncePerRepo: the cuTile package roots, which match
// every path of the repository, are found once for all the op tables built
// from it (a check in batches builds several per batch), and again for
// other paths.
func TestCuTileRootsFoundOncePerRepo(t *testing.T) {
	sc := &layout.Scope{Name: "suites", CuTile: "src/tilegym/suites/{suite}/cutile/"}
	repo := &Repo{Snapshot: source.Snapshot{Files: map[string]*source.File{}}, Layout: &layout.Layout{Scopes: []*layout.Scope{sc}}}
	repo.Paths = []string{"src/tilegym/suites/liger/cutile/a.py"}
	BuildOpTable(repo)
	first := repo.roots
	if first == nil || len(first.roots) != 1 || first.roots["src/tilegym/suites/liger/cutile"].Suite != "liger" {
		t.Fatalf("roots after the first table: %+v", first)
	}
	BuildOpTable(repo)
	if repo.roots != first {
		t.Error("the second table of the same repository found the roots again")
	}
	repo.Paths = append(slices.Clone(repo.Paths), "src/tilegym/suites/unsloth/cutile/b.py")
	BuildOpTable(repo)
	if repo.roots == first || len(repo.roots.roots) != 2 {
		t.Errorf("roots after the paths changed: %+v", repo.roots)
	}
}

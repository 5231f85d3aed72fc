package checks

import (
	"testing"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/source"
)

// TestConfigCount counts the search spaces of exhaustive_search calls: a
// generator's literal loops multiply, branches take the larger, a loop over
// anything else counts once, an imported generator is followed.
func TestConfigCount(t *testing.T) {
	files := map[string]string{
		"src/pkg/gen.py": `
def shared_configs():
    for occ in [1, 2, 4, 8]:
        yield occ
`,
		"src/pkg/mod.py": `
from cuda.tile.tune import exhaustive_search
from pkg.gen import shared_configs

def gemm_configs(cap):
    if cap == 10:
        for bm, bn in [(128, 128), (128, 256), (256, 128), (256, 256)]:
            for bk in [64]:
                for num_ctas in [1, 2, 4]:
                    for occupancy in [1, 2, 4]:
                        yield (bm, bn, bk, num_ctas, occupancy)
    else:
        for occupancy in range(1, 5):
            yield occupancy

def appended(n):
    configs = []
    for a in [1, 2]:
        for b in some_list(n):
            configs.append((a, b))
    configs.append((0, 0))
    return configs

def comp():
    return [(a, b) for a in [1, 2, 3] for b in range(2, 12, 2)]

def tune(x, n):
    exhaustive_search(list(gemm_configs(10)), s, g, k, a, h)
    cfgs = appended(n)
    exhaustive_search(cfgs, s, g, k, a, h)
    exhaustive_search(comp(), s, g, k, a, h)
    exhaustive_search(list(shared_configs()), s, g, k, a, h)
    exhaustive_search([1, 2], s, g, k, a, h)
`,
	}
	repo := &optable.Repo{Snapshot: source.Snapshot{Files: map[string]*source.File{}}}
	for p, src := range files {
		repo.Files[p] = source.ParseFile(p, []byte(src))
	}
	c := &spaceCounter{repo: repo}
	f := repo.Files["src/pkg/mod.py"]
	var got []string
	var counts []int64
	fileNodesOf(f).walk(func(path []ast.Node) {
		call, ok := path[len(path)-1].(*ast.Call)
		if !ok || !f.Imports().Is(call.Func, []string{"cuda.tile.tune.exhaustive_search"}) {
			return
		}
		s := c.space(f, path[0], call.Args[0], 0)
		if s == nil {
			t.Fatalf("no space at line %d", call.Pos().Line)
		}
		got = append(got, s.name)
		counts = append(counts, s.count)
	})
	want := []string{"gemm_configs", "appended", "comp", "shared_configs", "[1, 2]"}
	wantCounts := []int64{36, 3, 15, 4, 2}
	if len(got) != len(want) {
		t.Fatalf("spaces %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] || counts[i] != wantCounts[i] {
			t.Errorf("space %d: %s with %d configs, want %s with %d", i, got[i], counts[i], want[i], wantCounts[i])
		}
	}
}

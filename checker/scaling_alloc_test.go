package checker

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/source"
)

// suitesTree copies fixtures/good with its demo suite cloned n times
// (d0.scale, d1.scale, ...): the files and the suites grow together.
func suitesTree(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	testrepo.CopyDir(t, "../fixtures/good", dir)
	var demo []string
	err := filepath.WalkDir("../fixtures/good", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(p, "/demo/") {
			demo = append(demo, p)
		}
		return err
	})
	if err != nil || len(demo) == 0 {
		t.Fatalf("the demo suite of fixtures/good: %v", err)
	}
	for i := 0; i < n; i++ {
		name := "d" + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + strings.Repeat("z", i/26)
		for _, p := range demo {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel := strings.Replace(strings.TrimPrefix(p, "../fixtures/good/"), "/demo/", "/"+name+"/", 1)
			testrepo.WriteFile(t, dir, rel, strings.ReplaceAll(string(b), "demo", name))
		}
	}
	return dir
}

// A whole check allocates about the same per suite as the suites grow:
// matching every test file against every suite's globs (dispatch-callers,
// with a pattern expanded per pair), or indexing every cuTile __init__.py
// once per op (the init chains), made it quadratic. No time is measured.
func TestCheckAllocLinearInSuites(t *testing.T) {
	if testing.Short() {
		t.Skip("builds trees of a few hundred suites")
	}
	cat := testrepo.Catalog(t)
	perSuite := func(n int) float64 {
		dir := suitesTree(t, n)
		setup := config.NewSetup(cat, nil)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := CheckSource(&source.DiskSource{Dir: dir}, setup, Options{})
		runtime.ReadMemStats(&after)
		if err != nil || len(res.Errors) > 0 {
			t.Fatalf("check of %d suites: %v %v", n, err, res.Errors)
		}
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
	}
	small, large := perSuite(100), perSuite(400)
	// Linear: 0.98 times as much. Each quadratic pattern fixed so far
	// exceeded 1.05: the init chains 1.10, the cuTile roots 1.33,
	// dispatch-callers 1.88.
	if large > 1.05*small {
		t.Errorf("a check allocates %.0f bytes per suite with 400 suites, %.0f with 100: more than 1.05 times as much", large, small)
	}
	t.Logf("%.0f bytes per suite with 100 suites, %.0f with 400", small, large)
}

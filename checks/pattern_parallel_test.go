package checks

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestFindInParallel: the matches come back in the order of the files
// whatever worker found them, every file is looked at once, and a worker's
// panic reaches the caller (where the driver recovers it) instead of
// killing the process.
func TestFindInParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var order []string
	for i := range 200 {
		order = append(order, fmt.Sprintf("f%03d.py", i))
	}
	seen := make(chan string, len(order))
	got := findInParallel(order, func(_ *patternIndex, path string) [][]PatternMatch {
		seen <- path
		return [][]PatternMatch{{{Vars: map[string]string{"file": path}}}}
	}, nil)
	close(seen)
	n := 0
	for range seen {
		n++
	}
	if n != len(order) {
		t.Errorf("find ran %d times for %d files", n, len(order))
	}
	for j, path := range order {
		if len(got[j]) != 1 || len(got[j][0]) != 1 || got[j][0][0].Vars["file"] != path {
			t.Fatalf("result %d is %v, want the match of %s", j, got[j], path)
		}
	}

	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "f150.py") {
			t.Errorf("recovered %v, want the worker's panic", r)
		}
	}()
	findInParallel(order, func(_ *patternIndex, path string) [][]PatternMatch {
		if path == "f150.py" {
			panic("cannot match " + path)
		}
		return nil
	}, nil)
	t.Error("a worker's panic was swallowed")
}

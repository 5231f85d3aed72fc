package source_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tilegym/tilegym-lint/source"
)

// TestForEachWorker: every index is done once, by goroutines that each got
// their function once (and keep their own state: results land where the
// index says whatever goroutine did it), on several processors and on one.
func TestForEachWorker(t *testing.T) {
	for _, procs := range []int{4, 1} {
		t.Run(fmt.Sprint(procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			done := make([]int, 200)
			who := make([]string, len(done))
			var workers atomic.Int32
			source.ForEachWorker(len(done), func() func(int) {
				me := fmt.Sprintf("worker %d", workers.Add(1))
				return func(i int) {
					done[i]++
					who[i] = me
				}
			})
			if w := workers.Load(); w < 1 || int(w) > procs {
				t.Errorf("%d workers for GOMAXPROCS %d", w, procs)
			}
			for i, n := range done {
				if n != 1 || !strings.HasPrefix(who[i], "worker ") {
					t.Fatalf("index %d done %d times (by %q)", i, n, who[i])
				}
			}
		})
	}
}

// TestForEachPanic: a panic in a worker reaches the caller (where the
// driver recovers it) instead of ending the process.
func TestForEachPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "index 150") {
			t.Errorf("recovered %v, want the worker's panic", r)
		}
	}()
	source.ForEach(200, func(i int) {
		if i == 150 {
			panic(fmt.Sprintf("cannot do index %d", i))
		}
	})
	t.Error("a worker's panic was swallowed")
}

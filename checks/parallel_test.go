package checks

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// TestInParallel: every index is done once, by workers that each got
// their function once (and keep their own state: results land where the
// index says whatever worker did it), and a worker's panic reaches the
// caller (where the driver recovers it) instead of killing the process.
func TestInParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	done := make([]int, 200)
	who := make([]string, len(done))
	var workers atomic.Int32
	inParallel(len(done), func() func(int) {
		me := fmt.Sprintf("worker %d", workers.Add(1))
		return func(i int) {
			done[i]++
			who[i] = me
		}
	})
	if w := workers.Load(); w < 1 || w > 4 {
		t.Errorf("%d workers for GOMAXPROCS 4", w)
	}
	for i, n := range done {
		if n != 1 || !strings.HasPrefix(who[i], "worker ") {
			t.Fatalf("index %d done %d times (by %q)", i, n, who[i])
		}
	}

	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "index 150") {
			t.Errorf("recovered %v, want the worker's panic", r)
		}
	}()
	inParallel(len(done), func() func(int) {
		return func(i int) {
			if i == 150 {
				panic(fmt.Sprintf("cannot do index %d", i))
			}
		}
	})
	t.Error("a worker's panic was swallowed")
}

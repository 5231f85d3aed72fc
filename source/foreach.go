package source

// Work spread over the processors: reading and parsing files, the op
// table's per-file facts, the pattern and relation kinds' files and rules.

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// ForEach calls fn(0), ..., fn(n-1) on GOMAXPROCS goroutines, which take
// the next index from a shared counter, and returns when all are done. A
// panic in fn is raised again in the caller (where the driver recovers
// it) instead of ending the process.
func ForEach(n int, fn func(i int)) {
	ForEachWorker(n, func() func(int) { return fn })
}

// ForEachWorker is ForEach with a function per goroutine, from worker,
// called once by each: state a goroutine keeps from one index to the next
// (a pattern index, built as its keys are met).
func ForEachWorker(n int, worker func() (fn func(i int))) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		if n > 0 {
			fn := worker()
			for i := range n {
				fn(i)
			}
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	panics := make([]any, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[w] = recover() }()
			fn := worker()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}

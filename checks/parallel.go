package checks

// Work spread over the processors: the pattern kind's files, the relation
// kind's rules and the files it matches ahead.

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// inParallel calls do(i) for each i < n on a worker per processor, each
// taking the next i, and returns when all are done. Each worker gets its
// do from worker, called once per worker, so that a worker may keep state
// from one i to the next (a pattern index, built as its keys are met). A
// panic in a worker is raised again here, where the driver recovers it.
func inParallel(n int, worker func() (do func(i int))) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	panics := make([]any, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[w] = recover() }()
			do := worker()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				do(i)
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

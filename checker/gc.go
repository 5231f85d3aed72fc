package checker

// The garbage collector's tuning for a run of the command (TuneGC): a check
// keeps most of what it allocates live until its report is written.

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/source"
)

// gcFreeHeap is the memory (heap and runtime) up to which TuneGC keeps the
// collector off: above what a whole check of upstream TileGym with every
// family allocates (47 MB, 59 MB from the system, 3.4 MB of source; at 64
// MiB it collected once, for a tenth of its CPU) and about what a check at
// once of BatchFrom bytes of source does.
const gcFreeHeap = 128 << 20

// gcPercent is the proportional collector's setting once the heap has
// reached gcFreeHeap, when the size of the checked source is unknown: Go's
// default, a peak heap about twice the live one.
const gcPercent = 100

// heapPerSourceByte is the memory a check may use per byte of the Python
// source it reads before the collector runs: what stays live to the report
// (the syntax trees, which share the source, and the facts drawn from
// them: about 8 bytes per source byte on TileGym x1 to x30) and room for
// the garbage of the checks.
const heapPerSourceByte = 12

// gcSourceBytes, when set (by SizeSource, once a check knows its root and
// layout), returns the size of the Python source the check reads.
var gcSourceBytes atomic.Pointer[func() int64]

// batchGCPercent is the proportional collector's setting for a checkout of
// BatchFrom bytes or more: a whole check runs in batches there,
// change mode too, and a check of some ops parses only what they need, so
// the heap does not grow with the source as heapPerSourceByte expects (at
// TileGym x100, peak RSS 3.7 bytes per source byte instead of 4.4 at 100,
// for a twentieth more CPU).
const batchGCPercent = 50

// TuneGC keeps the garbage collector off while the heap is small, unless
// GOGC or GOMEMLIMIT says otherwise: a check of a whole TileGym checkout
// allocates some 50 MB, most of it live until the report is written, and
// collecting a small, growing heap over and over cost a fifth of the run.
// The first collection, forced when the heap reaches gcFreeHeap (a large
// checkout, a huge file), sizes the memory limit to the source
// (heapPerSourceByte per byte; see nextMemoryLimit), so that most of the
// run, where the heap grows with the trees kept, collects nothing. Without
// a source size it turns the proportional collector back on instead.
func TuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcFreeHeap)
	onNextGC(func() {
		// The proportional collector while the source is measured.
		debug.SetGCPercent(gcPercent)
		debug.SetMemoryLimit(math.MaxInt64)
		var size int64
		if f := gcSourceBytes.Load(); f != nil {
			size = (*f)()
		}
		if size >= BatchFrom {
			debug.SetGCPercent(batchGCPercent)
			return
		}
		base := heapPerSourceByte * size
		if base <= gcFreeHeap {
			return
		}
		debug.SetGCPercent(-1)
		var adjust func()
		adjust = func() {
			debug.SetMemoryLimit(nextMemoryLimit(base, liveHeap()))
			onNextGC(adjust)
		}
		adjust()
	})
}

// nextMemoryLimit is the memory limit after a collection that left live
// bytes live: the source's share (base), or half as much again as is live
// when that is more, so that a heap denser than expected costs collections
// as with GOGC=50 rather than a collector thrashing at a limit it cannot
// get under.
func nextMemoryLimit(base, live int64) int64 {
	return max(base, live+live/2)
}

// liveHeap returns the heap the last collection marked live.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// SizeSource tells TuneGC the size of the source a check of the working
// tree at root with set-up s reads (sourceBytes), measured when the
// collector first runs: a small check never measures it.
func SizeSource(root string, s *config.Setup) {
	size := func() int64 { return sourceBytes(root, s) }
	gcSourceBytes.Store(&size)
}

// sourceBytes returns the size of the Python files a check of the working
// tree at root reads (those the set-up's layout puts in scope), as far as
// they can be listed.
func sourceBytes(root string, s *config.Setup) int64 {
	repo, err := load.ListRepo(&source.DiskSource{Dir: root}, s)
	if err != nil {
		return 0
	}
	var n int64
	for _, p := range repo.Paths {
		if fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// onNextGC calls fn soon after the next garbage collection: the finalizer
// of an object nothing references runs once a collection has found it
// unreachable.
func onNextGC(fn func()) {
	sentinel := new(gcSentinel)
	runtime.SetFinalizer(sentinel, func(*gcSentinel) { fn() })
}

// gcSentinel is large enough not to share a tiny-allocator block, whose
// finalizers may never run.
type gcSentinel struct{ _ [32]byte }

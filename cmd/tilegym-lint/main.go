// Command tilegym-lint checks that every op of a TileGym checkout follows the
// six-step workflow for adding a cuTile kernel.
package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/report"
	"github.com/tilegym/tilegym-lint/source"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != "parse" {
		// Not for `parse --stats`, which measures the parser as it is.
		tuneGC()
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// gcFreeHeap is the heap size up to which tuneGC keeps the collector off.
const gcFreeHeap = 64 << 20

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

// gcSourceBytes, when set (by a check, once it knows its root and layout),
// returns the size of the Python source the check reads.
var gcSourceBytes atomic.Pointer[func() int64]

// batchGCPercent is the proportional collector's setting for a checkout of
// checker.BatchFrom bytes or more: a whole check runs in batches there,
// change mode too, and a check of some ops parses only what they need, so
// the heap does not grow with the source as heapPerSourceByte expects (at
// TileGym x100, peak RSS 3.7 bytes per source byte instead of 4.4 at 100,
// for a twentieth more CPU).
const batchGCPercent = 50

// tuneGC keeps the garbage collector off while the heap is small, unless
// GOGC or GOMEMLIMIT says otherwise: a check of a whole TileGym checkout
// allocates some 50 MB, most of it live until the report is written, and
// collecting a small, growing heap over and over cost a fifth of the run.
// The first collection, forced when the heap reaches gcFreeHeap (a large
// checkout, a huge file), sizes the memory limit to the source
// (heapPerSourceByte per byte; see nextMemoryLimit), so that most of the
// run, where the heap grows with the trees kept, collects nothing. Without
// a source size it turns the proportional collector back on instead.
func tuneGC() {
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
		if size >= checker.BatchFrom {
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

// sourceBytes returns the size of the Python files a check of the working
// tree at root reads (those the layout puts in scope), as far as they can
// be listed.
func sourceBytes(root string, lay *layout.Layout) int64 {
	paths, err := load.ListInScope(&source.DiskSource{Dir: root}, lay)
	if err != nil {
		return 0
	}
	var n int64
	for _, p := range paths {
		if !lay.InScope(p) {
			continue
		}
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

// run dispatches to a subcommand and returns the exit status:
// 0 no error-severity finding, 1 at least one, 2 usage, configuration or I/O error.
// All it writes goes through a report.LogWriter: no line of it, whatever
// the checked repository holds, is a workflow command to a CI runner but
// the annotations --annotate and --format github write. A panic is an
// internal error, exit 2, without a stack trace.
func run(args []string, stdout, stderr io.Writer) (code int) {
	out, errOut := report.NewLogWriter(stdout), report.NewLogWriter(stderr)
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(errOut, "tilegym-lint: internal error: %v\n", r)
			code = 2
		}
		if err := out.Flush(); err != nil {
			fmt.Fprintf(errOut, "tilegym-lint: writing the output: %v\n", err)
			code = 2
		}
		errOut.Flush()
	}()
	return dispatch(args, out, errOut)
}

// dispatch runs the subcommand args name (a variable: a test makes it panic).
var dispatch = dispatchCommand

func dispatchCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "parse":
			return runParse(args[1:], stdout, stderr)
		case "rules":
			return runRules(args[1:], stdout, stderr)
		case "new":
			return runNew(args[1:], stdout, stderr)
		case "completion":
			return runCompletion(args[1:], stdout, stderr)
		}
	}
	return runCheck(args, stdout, stderr)
}

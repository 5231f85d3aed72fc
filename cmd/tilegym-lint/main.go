// Command tilegym-lint checks that every op of a TileGym checkout follows the
// six-step workflow for adding a cuTile kernel.
package main

import (
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
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
// reached gcFreeHeap: Go's default, a peak heap about twice the live one.
const gcPercent = 100

// tuneGC keeps the garbage collector off while the heap is small, unless
// GOGC or GOMEMLIMIT says otherwise: a check of a whole TileGym checkout
// allocates some 50 MB, most of it live until the report is written, and
// collecting a small, growing heap over and over cost a fifth of the run.
// The first collection, forced when the heap reaches gcFreeHeap (a large
// checkout, a huge file), turns the proportional collector back on and
// lifts the limit, so that memory stays proportional to what is live: a
// limit kept for the whole run made the collector thrash above it, and
// nothing was freed below it.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcFreeHeap)
	onFirstGC(func() {
		debug.SetGCPercent(gcPercent)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}

// onFirstGC calls fn soon after the first garbage collection: the
// finalizer of an object nothing references runs once a collection has
// found it unreachable.
func onFirstGC(fn func()) {
	sentinel := new(gcSentinel)
	runtime.SetFinalizer(sentinel, func(*gcSentinel) { fn() })
}

// gcSentinel is large enough not to share a tiny-allocator block, whose
// finalizers may never run.
type gcSentinel struct{ _ [32]byte }

// run dispatches to a subcommand and returns the exit status:
// 0 no error-severity finding, 1 at least one, 2 usage, configuration or I/O error.
func run(args []string, stdout, stderr io.Writer) int {
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

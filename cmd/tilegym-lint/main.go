// Command tilegym-lint checks that every op of a TileGym checkout follows the
// six-step workflow for adding a cuTile kernel.
package main

import (
	"io"
	"os"
	"runtime/debug"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != "parse" {
		// Not for `parse --stats`, which measures the parser as it is.
		tuneGC()
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// gcMemoryLimit is the heap size at which the collector starts working when
// tuneGC has turned the proportional collector off.
const gcMemoryLimit = 1 << 30

// tuneGC turns the proportional garbage collector off for this short-lived
// process, unless GOGC or GOMEMLIMIT says otherwise: a check of a whole
// TileGym checkout allocates some 50 MB, most of it live until the report
// is written, and collecting a small, growing heap over and over cost a
// fifth of the run. Past gcMemoryLimit (a very large checkout) the
// collector runs again.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcMemoryLimit)
}

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

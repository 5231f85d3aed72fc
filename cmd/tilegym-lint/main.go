// Command tilegym-lint checks that every op of a TileGym checkout follows the
// six-step workflow for adding a cuTile kernel.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/report"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != "parse" {
		// Not for `parse --stats`, which measures the parser as it is.
		checker.TuneGC()
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

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

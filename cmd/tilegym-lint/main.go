// Command tilegym-lint checks that every op of a TileGym checkout follows the
// six-step workflow for adding a cuTile kernel.
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
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
		}
	}
	return runCheck(args, stdout, stderr)
}

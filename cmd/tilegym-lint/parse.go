package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/tilegym/tilegym-lint/python/conformance"
)

const parseUsage = `usage:
  tilegym-lint parse --dump FILE        print the canonical JSON dump of FILE's syntax tree
                                        (exit 0 parsed, 1 rejected, 2 I/O error)
  tilegym-lint parse --dump-all DIR     for every .py under DIR (sorted, recursive, no symlinks):
                                        "<path relative to DIR>\t<canonical json>"
  tilegym-lint parse --stats PATH...    parse every .py under the paths and print
                                        "files=N bytes=B seconds=S errors=E"
The canonical form is described in package python/astdump and tools/pyastdump.py.
`

// runParse implements `tilegym-lint parse`, the parser's debugging and
// conformance entry point.
func runParse(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("tilegym-lint parse", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = func() { fmt.Fprint(stderr, parseUsage) }
	dump := fset.Bool("dump", false, "print the canonical dump of one FILE")
	dumpAll := fset.Bool("dump-all", false, "dump every .py file under DIR, one per line")
	stats := fset.Bool("stats", false, "parse every .py under the PATHs and print timing")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	rest := fset.Args()
	modes := 0
	for _, on := range []bool{*dump, *dumpAll, *stats} {
		if on {
			modes++
		}
	}
	switch {
	case modes != 1:
		fmt.Fprint(stderr, "tilegym-lint parse: need exactly one of --dump, --dump-all, --stats\n"+parseUsage)
		return 2
	case *dump && len(rest) == 1:
		return parseDumpOne(rest[0], stdout, stderr)
	case *dumpAll && len(rest) == 1:
		return parseDumpAll(rest[0], stdout, stderr)
	case *stats && len(rest) >= 1:
		return parseStats(rest, stdout, stderr)
	}
	fmt.Fprint(stderr, "tilegym-lint parse: wrong number of arguments\n"+parseUsage)
	return 2
}

func parseDumpOne(path string, stdout, stderr io.Writer) int {
	ok, err := conformance.DumpFile(path, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "tilegym-lint parse: %v\n", err)
		return 2
	}
	if !ok {
		return 1
	}
	return 0
}

func parseDumpAll(root string, stdout, stderr io.Writer) int {
	if err := conformance.DumpAll(root, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "tilegym-lint parse: %v\n", err)
		return 2
	}
	return 0
}

func parseStats(paths []string, stdout, stderr io.Writer) int {
	s, failed := conformance.Time(paths, stderr)
	fmt.Fprintln(stdout, s)
	if failed {
		return 2
	}
	return 0
}

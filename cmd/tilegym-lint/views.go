package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tilegym/tilegym-lint/report"
	"github.com/tilegym/tilegym-lint/rules"
)

// viewFlags are the flags that choose what the check reports and how its
// exit status is decided, beyond the format.
type viewFlags struct {
	statistics bool
	selected   stringList
	ignored    stringList
	exitZero   bool
}

// addViewFlags registers the view flags on the check command's flag set.
func addViewFlags(fs *flag.FlagSet, v *viewFlags) {
	fs.BoolVar(&v.statistics, "statistics", false, "count the findings per rule instead of listing them")
	fs.Var(&v.selected, "select", "report only these rules (ids or prefixes: TG1,TG301)")
	fs.Var(&v.ignored, "ignore", "do not report these rules (ids or prefixes)")
	fs.BoolVar(&v.exitZero, "exit-zero", false, "exit 0 even when errors are found")
}

// checkViewFlags rejects flags that contradict each other or have no
// meaning: an empty --config, --full with --quiet, a negative
// --verify-timeout, a view the format has none of.
func checkViewFlags(fs *flag.FlagSet, f *checkFlags) error {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if set["config"] && f.config == "" {
		return errors.New(`--config "": name a configuration file, or leave --config out to find one`)
	}
	if f.full && f.quiet {
		return errors.New("--full and --quiet conflict: --full shows every step of every op, --quiet only the errors")
	}
	if f.timeout < 0 {
		return fmt.Errorf("--verify-timeout %v: want a positive duration (e.g. 30m)", f.timeout)
	}
	if set["verify-timeout"] && f.timeout == 0 {
		return errors.New("--verify-timeout 0: want a positive duration (e.g. 30m)")
	}
	known := false
	for _, name := range report.Formats {
		known = known || f.format == name
	}
	if !known {
		return fmt.Errorf("--format %q: want %s%s", f.format, strings.Join(report.Formats, ", "), rules.DidYouMean(f.format, report.Formats))
	}
	if f.view.statistics && f.format != "text" {
		return fmt.Errorf("--statistics is a text view; it does not combine with --format %s", f.format)
	}
	if f.view.statistics && (f.full || f.quiet) {
		return errors.New("--statistics counts the findings per rule; it does not combine with --full or --quiet")
	}
	if f.format == "checklist" && (f.full || f.quiet) {
		return errors.New("--format checklist shows every step of every op; it does not combine with --full or --quiet")
	}
	if (f.full || f.quiet) && f.format != "text" {
		// json, sarif and github always carry every finding: the flag
		// would say nothing (as README says, an error).
		which := "--full"
		if f.quiet {
			which = "--quiet"
		}
		return fmt.Errorf("%s is a text view; --format %s always writes every finding", which, f.format)
	}
	return nil
}

// useColor: colour only on a terminal (a character device such as
// /dev/null is not one), never with NO_COLOR or TERM=dumb.
func useColor(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := outputFile(w)
	return ok && isTerminal(f.Fd())
}

// outputFile is the file w writes to, looking through the writers that
// wrap it (every command writes through a report.LogWriter).
func outputFile(w io.Writer) (*os.File, bool) {
	for {
		switch v := w.(type) {
		case *os.File:
			return v, true
		case interface{ Unwrap() io.Writer }:
			w = v.Unwrap()
		default:
			return nil, false
		}
	}
}

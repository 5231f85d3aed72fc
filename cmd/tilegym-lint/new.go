package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/scaffold"
)

const newUsage = `usage: tilegym-lint new [--suite S] [--root DIR] [--dry-run] OP

Scaffolds Steps 1-5 of the workflow for a new op OP (a Python identifier):
the dispatch stub in the dispatch file (src/tilegym/ops/ops.py, or
src/tilegym/suites/S/ops.py for the suite op "S.OP"), the cuTile module with a
kernel skeleton, its entries in the cuTile __init__.py, a test and a
benchmark. What a person must still write (the kernel, the PyTorch
references) raises NotImplementedError("tilegym-lint new: ..."). Nothing is
overwritten: an existing op or file is an error.

Flags:
  --suite S    scaffold the suite op S.OP
  --root DIR   the repository root (default .)
  --dry-run    print the new files and the diffs of the edited ones; write nothing
`

// newFlagSet declares the flags of `tilegym-lint new` into opt.
func newFlagSet(opt *scaffold.Options, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("tilegym-lint new", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, newUsage) }
	fs.StringVar(&opt.Suite, "suite", "", "scaffold a suite op")
	fs.StringVar(&opt.Root, "root", ".", "the repository root")
	fs.BoolVar(&opt.DryRun, "dry-run", false, "print, write nothing")
	return fs
}

// runNew implements `tilegym-lint new`.
func runNew(args []string, stdout, stderr io.Writer) int {
	var opt scaffold.Options
	fs := newFlagSet(&opt, stderr)
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(rest) != 1 {
		fmt.Fprint(stderr, newUsage)
		return 2
	}
	opt.Op = rest[0]
	cat, err := checks.OpenCatalog("")
	if err == nil {
		// The checkout's configuration decides its layout, as for a check.
		opt.Setup, err = config.Open(cat, opt.Root, "", config.Selection{})
	}
	var res *scaffold.Result
	if err == nil {
		res, err = scaffold.New(opt)
	}
	if err != nil {
		fmt.Fprintf(stderr, "tilegym-lint new: %v\n", err)
		return 2
	}
	res.Write(stdout, opt.DryRun)
	return 0
}

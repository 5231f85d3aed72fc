package main

import (
	"errors"
)

const baselineUsage = `  --baseline FILE report the findings FILE records as baselined: they do
                  not fail the run (default: the configuration's baseline)
  --write-baseline FILE  record every finding of a whole check in FILE
`

// validateBaseline rejects --write-baseline where it would record part of
// the findings, or where it means nothing.
func validateBaseline(f *checkFlags) error {
	if f.writeBaseline == "" {
		return nil
	}
	switch {
	case f.baseline != "":
		return errors.New("--write-baseline records every finding; it does not combine with --baseline")
	case f.diff != "" || f.staged || f.preCommit:
		return errors.New("--write-baseline records a whole check's findings; it does not combine with --diff, --staged or --pre-commit")
	case len(f.ops) > 0:
		return errors.New("--write-baseline records a whole check's findings; it does not combine with --op")
	case f.fixes.fix || f.verify:
		return errors.New("--write-baseline does not combine with --fix or --verify")
	}
	return nil
}

package main

import (
	"errors"
	"flag"
	"io"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/fix"
)

// fixFlags are the flags of --fix.
type fixFlags struct {
	fix    bool // apply the suggested fixes of fixable rules
	dryRun bool // with fix: print the diff, write nothing
}

// fixUsage is the flags' part of the usage text.
const fixUsage = `  --fix           apply the suggested fixes of the fixable rules (tilegym-lint
                  rules shows which), check again until nothing is left to
                  apply, then report what remains
  --dry-run       with --fix: print the unified diff --fix would make and
                  write nothing (exit 1 when there is something to fix)
`

func addFixFlags(fs *flag.FlagSet, f *fixFlags) {
	fs.BoolVar(&f.fix, "fix", false, "apply the suggested fixes of the fixable rules")
	fs.BoolVar(&f.dryRun, "dry-run", false, "with --fix: print the diff, write nothing")
}

// validateFix reports flags --fix cannot be combined with.
func validateFix(f *checkFlags) error {
	x := f.fixes
	if x.dryRun && !x.fix {
		return errors.New("--dry-run is for --fix (tilegym-lint --fix --dry-run previews the fixes)")
	}
	if !x.fix {
		return nil
	}
	switch {
	case f.diff != "" || f.staged || f.preCommit:
		return errors.New("--fix edits the working tree; it does not combine with --diff, --staged or --pre-commit (narrow it with --op or file paths)")
	case f.verify:
		return errors.New("--fix does not combine with --verify; fix first, then verify")
	}
	return nil
}

// runFix applies (or previews) the fixes before the check reports. It
// returns done (and the exit status) when nothing is left to do: a
// preview.
func runFix(f *checkFlags, root string, s *config.Setup, opts checker.Options, stdout, stderr io.Writer) (code int, done bool, err error) {
	if f.fixes.dryRun {
		o, err := fix.Preview(root, s, opts, stdout)
		if err != nil {
			return 0, true, err
		}
		o.WriteSummary(stdout, true)
		if o.Total() > 0 {
			return 1, true, nil
		}
		return 0, true, nil
	}
	o, err := fix.Run(root, s, opts)
	if err != nil {
		return 0, false, err
	}
	o.WriteSummary(noteWriter(f, stdout, stderr), false)
	return 0, false, nil
}

package main

import (
	"errors"
	"flag"
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

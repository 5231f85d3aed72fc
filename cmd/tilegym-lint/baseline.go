package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tilegym/tilegym-lint/baseline"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source/regfile"
)

const baselineUsage = `  --baseline FILE report the findings FILE records as baselined: they do
                  not fail the run (default: the configuration's baseline)
  --write-baseline FILE  record every finding of a whole check in FILE
`

// baselineHint is what a failing whole check under --annotate (the
// Action's fallback) says when no baseline is configured.
const baselineHint = "this whole check counts every finding the repository has; to fail only on new ones, record today's: " +
	"run tilegym-lint --write-baseline .tilegym-lint-baseline, commit the file with baseline = \".tilegym-lint-baseline\" " +
	"under [tool.tilegym-lint] in pyproject.toml (README: Adopting tilegym-lint in an existing repository)"

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

// writeBaseline writes the findings of a whole check to the file
// --write-baseline names and says so.
func writeBaseline(f *checkFlags, res *checker.Result, root string, w io.Writer) error {
	if len(res.Errors) > 0 {
		return fmt.Errorf("not writing %s: the check did not complete", f.writeBaseline)
	}
	if err := writeFile(f.writeBaseline, false, func(bw io.Writer) error { return baseline.Write(bw, res) }); err != nil {
		return err
	}
	ops := map[string]bool{}
	for _, d := range res.Diagnostics {
		ops[d.Op] = true
	}
	delete(ops, "")
	_, err := fmt.Fprintf(w, "tilegym-lint: wrote %d %s of %d ops to %s; commit it, and set baseline = %q under [tool.tilegym-lint] so that every run uses it\n",
		len(res.Diagnostics), plural(len(res.Diagnostics), "finding", "findings"), len(ops), f.writeBaseline, relToRoot(root, f.writeBaseline))
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// baselinePath is the baseline a check uses: --baseline, else the
// configuration's; "" for none.
func baselinePath(f *checkFlags, cfg *config.Config) (path, from string) {
	if f.baseline != "" {
		return f.baseline, "--baseline"
	}
	if p := cfg.BaselinePath(); p != "" {
		return p, cfg.File
	}
	return "", ""
}

// applyBaseline reads the baseline and marks the findings it records; a
// whole check, or a check of some ops, also reports its entries that no
// finding matches (TG009).
func applyBaseline(f *checkFlags, res *checker.Result, root string, cat *rules.Catalog, cfg *config.Config, changeMode, whole bool) error {
	path, from := baselinePath(f, cfg)
	if path == "" {
		return nil
	}
	data, err := regfile.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("baseline %s (from %s) does not exist; write it with tilegym-lint --write-baseline %s", path, from, path)
	}
	if err != nil {
		return fmt.Errorf("baseline: %w", err)
	}
	b, err := baseline.Read(data, path)
	if err != nil {
		return err
	}
	sc := baseline.Scope{Whole: whole, Ops: map[string]bool{}, Disabled: map[string]bool{}, File: relToRoot(root, path)}
	for _, o := range res.Ops {
		sc.Ops[o.Name] = true
	}
	if cfg != nil {
		for _, id := range cfg.Disable {
			sc.Disabled[id] = true
		}
	}
	if r := cat.Rule(baselineRule); r != nil && !sc.Disabled[r.ID] && !changeMode {
		sc.Rule, sc.Severity = r, r.Severity
		if s, ok := cfg.GetSeverity(r.ID); ok {
			sc.Severity = s
		}
	}
	b.Apply(res, sc)
	return nil
}

// baselineRule is the rule of a baseline entry no finding matches.
const baselineRule = "TG009"

// relToRoot is a path as a finding names it: slash separated, relative to
// the checked root when it is below it.
func relToRoot(root, p string) string {
	ar, err1 := filepath.Abs(root)
	ap, err2 := filepath.Abs(p)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(ar, ap); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}

package baseline

// The baseline file of a check: which one (Path), applied (ApplyFile) or
// written (WriteFile).

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/source/regfile"
)

// StaleRule is the rule of a baseline entry no finding matches.
const StaleRule = "TG009"

// AdoptHint is what a failing whole check under --annotate (the Action's
// fallback) says when no baseline is configured.
const AdoptHint = "this whole check counts every finding the repository has; to fail only on new ones, record today's: " +
	"run tilegym-lint --write-baseline .tilegym-lint-baseline, commit the file with baseline = \".tilegym-lint-baseline\" " +
	"under [tool.tilegym-lint] in pyproject.toml (README: Adopting tilegym-lint in an existing repository)"

// Path is the baseline a check uses: flag (--baseline), else the
// configuration's; "" for none. from says where it was named.
func Path(flag string, cfg *config.Config) (path, from string) {
	if flag != "" {
		return flag, "--baseline"
	}
	if p := cfg.BaselinePath(); p != "" {
		return p, cfg.File
	}
	return "", ""
}

// Use applies the baseline the check uses, if any (Path: flag, else the
// configuration's) to res (ApplyFile).
func Use(res *checker.Result, flag, root string, s *config.Setup, changeMode, whole bool) error {
	path, from := Path(flag, s.Config)
	if path == "" {
		return nil
	}
	return ApplyFile(res, path, from, root, s, changeMode, whole)
}

// ApplyFile reads the baseline at path (named by from) and marks the
// findings of res it records; a whole check, or a check of some ops, also
// reports its entries that no finding matches (StaleRule), but not in
// change mode. root is the checked root.
func ApplyFile(res *checker.Result, path, from, root string, s *config.Setup, changeMode, whole bool) error {
	data, err := regfile.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("baseline %s (from %s) does not exist; write it with tilegym-lint --write-baseline %s", path, from, path)
	}
	if err != nil {
		return fmt.Errorf("baseline: %w", err)
	}
	b, err := Read(data, path)
	if err != nil {
		return err
	}
	cfg := s.Config
	sc := Scope{Whole: whole, Ops: map[string]bool{}, Disabled: map[string]bool{}, File: relToRoot(root, path)}
	for _, o := range res.Ops {
		sc.Ops[o.Name] = true
	}
	if cfg != nil {
		for _, id := range cfg.Disable {
			sc.Disabled[id] = true
		}
	}
	if r := s.Catalog.Rule(StaleRule); r != nil && !sc.Disabled[r.ID] && !changeMode {
		sc.Rule, sc.Severity = r, r.Severity
		if sev, ok := cfg.GetSeverity(r.ID); ok {
			sc.Severity = sev
		}
	}
	b.Apply(res, sc)
	return nil
}

// WriteFile writes the findings of a whole check of target t to the file
// path and says so on w. A check of some files is refused: it would record
// part of the findings.
func WriteFile(path string, res *checker.Result, t *checker.Target, w io.Writer) error {
	if t.Files != nil {
		return errors.New("--write-baseline records a whole check's findings; give it the checkout's root, not files")
	}
	root := t.Root
	if len(res.Errors) > 0 {
		return fmt.Errorf("not writing %s: the check did not complete", path)
	}
	if err := regfile.Write(path, false, func(bw io.Writer) error { return Write(bw, res) }); err != nil {
		return err
	}
	ops := map[string]bool{}
	for _, d := range res.Diagnostics {
		ops[d.Op] = true
	}
	delete(ops, "")
	findings := "findings"
	if len(res.Diagnostics) == 1 {
		findings = "finding"
	}
	_, err := fmt.Fprintf(w, "tilegym-lint: wrote %d %s of %d ops to %s; commit it, and set baseline = %q under [tool.tilegym-lint] so that every run uses it\n",
		len(res.Diagnostics), findings, len(ops), path, relToRoot(root, path))
	return err
}

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

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/fix"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
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

// maxFixPasses bounds the check-and-apply passes of --fix: fixes that
// insert at the same place (two names added to one __all__) are applied
// one a pass.
const maxFixPasses = 50

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

// fixPass is what one pass of --fix computed: the findings whose fixes it
// gave to fix.Apply, in the same order.
type fixPass struct {
	diags []analysis.Diagnostic
}

// collectFixes checks the working tree under dir and returns the fixes of
// the findings of fixable rules, with those findings. Each edit carries the
// Sum of its file as the check read it (fix.Edit.Base): a file changed
// before fix.Apply reads it is not edited at stale positions.
func collectFixes(dir string, layout *layout.Layout, cat *rules.Catalog, cfg *config.Config, opts checker.Options) ([]fix.Fix, fixPass, error) {
	reads := &fix.Reads{}
	res, err := checker.CheckSource(readsSource{&source.DiskSource{Dir: dir}, reads}, layout, cat, cfg, opts)
	if err != nil {
		return nil, fixPass{}, err
	}
	if len(res.Errors) > 0 {
		return nil, fixPass{}, fmt.Errorf("--fix: the check failed: %v", res.Errors[0])
	}
	fixChecked(dir)
	var fixes []fix.Fix
	var pass fixPass
	for _, d := range res.Diagnostics {
		if !d.Rule.Fixable || len(d.Fixes) == 0 {
			continue
		}
		// A finding's first fix is the one --fix applies; the others are
		// alternatives for an editor.
		fixes = append(fixes, toFix(d.Fixes[0], reads))
		pass.diags = append(pass.diags, d)
	}
	return fixes, pass, nil
}

// fixChecked is called with the checked directory after each check of
// --fix, before its fixes are applied (tests change a file there).
var fixChecked = func(string) {}

// readsSource is a working tree whose reads are recorded. It embeds the
// DiskSource so that it lists directories as cheaply (source.DirLister).
type readsSource struct {
	*source.DiskSource
	reads *fix.Reads
}

func (s readsSource) ReadFile(path string) ([]byte, error) {
	data, err := s.DiskSource.ReadFile(path)
	if err == nil {
		s.reads.Record(path, data)
	}
	return data, err
}

func toFix(s analysis.SuggestedFix, reads *fix.Reads) fix.Fix {
	f := fix.Fix{Message: s.Message}
	for _, e := range s.Edits {
		f.Edits = append(f.Edits, fix.Edit{File: e.File, Start: e.Start, End: e.End, NewText: e.NewText, Base: reads.Base(e.File)})
	}
	return f
}

// fixOutcome sums up the passes of --fix.
type fixOutcome struct {
	fixed   map[string]int  // rule -> findings fixed
	files   map[string]bool // files changed
	refused []string        // "FILE:LINE: RULE: reason", sorted
	stable  bool            // the last pass found nothing more to apply
	passes  int
}

func summarize(results []fix.Result, passes []fixPass, stable bool) fixOutcome {
	o := fixOutcome{fixed: map[string]int{}, files: map[string]bool{}, stable: stable, passes: len(results)}
	refused := map[string]bool{}
	for i, r := range results {
		if i >= len(passes) {
			break
		}
		ds := passes[i].diags
		for _, s := range r.Applied {
			o.fixed[ds[s.Index].Rule.ID]++
		}
		for _, s := range r.Refused {
			d := ds[s.Index]
			refused[fmt.Sprintf("%s:%d: %s: %s", d.File, d.Pos.Line, d.Rule.ID, s.Reason)] = true
		}
		for _, fc := range r.Files {
			o.files[fc.File] = true
		}
	}
	for k := range refused {
		o.refused = append(o.refused, k)
	}
	sort.Strings(o.refused)
	return o
}

func (o fixOutcome) total() int {
	n := 0
	for _, c := range o.fixed {
		n += c
	}
	return n
}

// byRule renders "TG104 3, TG303 1".
func (o fixOutcome) byRule() string {
	ids := make([]string, 0, len(o.fixed))
	for id := range o.fixed {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("%s %d", id, o.fixed[id])
	}
	return strings.Join(parts, ", ")
}

func (o fixOutcome) fileList() []string {
	out := make([]string, 0, len(o.files))
	for f := range o.files {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// runFix applies (or previews) the fixes before the check reports. It
// returns done (and the exit status) when nothing is left to do: a
// preview.
func runFix(f *checkFlags, root string, layout *layout.Layout, cat *rules.Catalog, cfg *config.Config, opts checker.Options, stdout, stderr io.Writer) (code int, done bool, err error) {
	if f.fixes.dryRun {
		return previewFix(root, layout, cat, cfg, opts, stdout)
	}
	var passes []fixPass
	compute := func() ([]fix.Fix, error) {
		fixes, p, err := collectFixes(root, layout, cat, cfg, opts)
		passes = append(passes, p)
		return fixes, err
	}
	results, stable, err := fix.ApplyUntilStable(root, compute, fix.Options{}, maxFixPasses)
	if err != nil {
		return 0, false, err
	}
	o := summarize(results, passes, stable)
	w := stdout
	if f.format != "text" {
		w = stderr // keep the machine-readable output alone on stdout
	}
	writeFixSummary(w, o, false)
	return 0, false, nil
}

func writeFixSummary(w io.Writer, o fixOutcome, preview bool) {
	verb := "fixed"
	if preview {
		verb = "would fix"
	}
	if o.total() == 0 {
		fmt.Fprintf(w, "tilegym-lint --fix: nothing to fix\n")
	} else {
		files := o.fileList()
		fmt.Fprintf(w, "tilegym-lint --fix: %s %d findings (%s) in %d files: %s\n", verb, o.total(), o.byRule(), len(files), strings.Join(files, ", "))
	}
	for _, r := range o.refused {
		fmt.Fprintf(w, "tilegym-lint --fix: not applied: %s\n", r)
	}
	if !o.stable {
		fmt.Fprintf(w, "tilegym-lint --fix: stopped after %d passes with fixes left; run it again\n", o.passes)
	}
}

// previewCopied is called with each file previewFix copies, and
// previewReady with the copy once made, before the fixes (tests).
var (
	previewCopied = func(string) {}
	previewReady  = func(string) {}
)

// previewFix runs --fix on a copy of the files the check reads and prints
// the unified diff between the tree and the copy: every pass, as --fix
// would make them, without writing to the tree.
func previewFix(root string, layout *layout.Layout, cat *rules.Catalog, cfg *config.Config, opts checker.Options, stdout io.Writer) (int, bool, error) {
	tmp, err := os.MkdirTemp("", "tilegym-lint-fix-*")
	if err != nil {
		return 0, true, err
	}
	defer removeOnSignal(tmp)()
	src := &source.DiskSource{Dir: root}
	// The files the check reads: the Python files in the layout's scope,
	// not the tree's other files (data, binaries, vendored code, any size).
	repo, err := load.ListRepo(src, layout, cfg)
	if err != nil {
		return 0, true, err
	}
	if err := copyForPreview(src, repo.Paths, tmp); err != nil {
		return 0, true, err
	}
	previewReady(tmp)
	var passes []fixPass
	compute := func() ([]fix.Fix, error) {
		fixes, p, err := collectFixes(tmp, layout, cat, cfg, opts)
		passes = append(passes, p)
		return fixes, err
	}
	results, stable, err := fix.ApplyUntilStable(tmp, compute, fix.Options{}, maxFixPasses)
	if err != nil {
		return 0, true, err
	}
	o := summarize(results, passes, stable)
	for _, name := range o.fileList() {
		before, err := src.ReadFile(name)
		if err != nil {
			return 0, true, err
		}
		after, err := os.ReadFile(filepath.Join(tmp, filepath.FromSlash(name)))
		if err != nil {
			return 0, true, err
		}
		fmt.Fprint(stdout, fix.UnifiedDiff(name, before, after))
	}
	writeFixSummary(stdout, o, true)
	if o.total() > 0 {
		return 1, true, nil
	}
	return 0, true, nil
}

// copyForPreview copies the files of src at paths into the directory tmp,
// with their permissions. It creates directories below tmp one at a time,
// never tmp itself: once removeOnSignal has removed tmp, no write of the
// copy can bring any of it back.
func copyForPreview(src *source.DiskSource, paths []string, tmp string) error {
	made := map[string]bool{}
	for _, p := range paths {
		previewCopied(p)
		data, err := src.ReadFile(p)
		if err != nil {
			return err
		}
		dir := path.Dir(p)
		if err := mkdirBelow(tmp, dir, made); err != nil {
			return err
		}
		fi, err := os.Stat(filepath.Join(src.Dir, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, filepath.FromSlash(p)), data, fi.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

// mkdirBelow creates the directory dir (a slash path, "." for top itself)
// below top, one level at a time; top must exist.
func mkdirBelow(top, dir string, made map[string]bool) error {
	if dir == "." || made[dir] {
		return nil
	}
	if err := mkdirBelow(top, path.Dir(dir), made); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(top, filepath.FromSlash(dir)), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	made[dir] = true
	return nil
}

// removeOnSignal makes an interrupt (SIGINT, Ctrl-C) or a SIGTERM remove
// the directory dir and end the process (exit 130 or 143, as a shell
// reports a process the signal ended) until the returned function is
// called, which removes dir.
func removeOnSignal(dir string) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			removeTree(dir)
			code := 128 + int(syscall.SIGINT)
			if s == syscall.SIGTERM {
				code = 128 + int(syscall.SIGTERM)
			}
			os.Exit(code)
		case <-done:
		}
	}()
	return func() {
		removeTree(dir) // while a signal still removes it too
		signal.Stop(sigs)
		close(done)
	}
}

// removeTree removes dir and what it holds. The preview may still be
// writing into it (another goroutine, when a signal came): a file created
// meanwhile makes the removal of its directory fail, so it is tried again;
// once dir itself is gone, nothing can be created below it.
func removeTree(dir string) {
	for range 100 {
		if os.RemoveAll(dir) == nil {
			return
		}
	}
}

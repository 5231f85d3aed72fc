package fix

// The --fix processor: check, apply the fixes of the fixable findings,
// check again, until nothing is left to apply.

import (
	"errors"
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
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/source"
)

// maxPasses bounds the check-and-apply passes of Run: fixes that insert at
// the same place (two names added to one __all__) are applied one a pass.
const maxPasses = 50

// pass is what one pass computed: the findings whose fixes it gave to
// Apply, in the same order.
type pass struct {
	diags []analysis.Diagnostic
}

// collect checks the working tree under dir and returns the fixes of the
// findings of fixable rules, with those findings, and the content (Sum)
// of each file as the check read it: a file changed before Apply reads it
// is not edited at stale positions (Options.Base).
func collect(dir string, s *config.Setup, opts checker.Options) ([]analysis.SuggestedFix, pass, *Reads, error) {
	reads := &Reads{}
	res, err := checker.CheckSource(readsSource{&source.DiskSource{Dir: dir}, reads}, s, opts)
	if err != nil {
		return nil, pass{}, nil, err
	}
	if len(res.Errors) > 0 {
		return nil, pass{}, nil, fmt.Errorf("--fix: the check failed: %v", res.Errors[0])
	}
	checked(dir)
	var fixes []analysis.SuggestedFix
	var p pass
	for _, d := range res.Diagnostics {
		if !d.Rule.Fixable || len(d.Fixes) == 0 {
			continue
		}
		// A finding's first fix is the one --fix applies; the others are
		// alternatives for an editor.
		fixes = append(fixes, d.Fixes[0])
		p.diags = append(p.diags, d)
	}
	return fixes, p, reads, nil
}

// checked is called with the checked directory after each check of Run,
// before its fixes are applied (tests change a file there).
var checked = func(string) {}

// readsSource is a working tree whose reads are recorded. It embeds the
// DiskSource so that it lists directories as cheaply (source.DirLister).
type readsSource struct {
	*source.DiskSource
	reads *Reads
}

func (s readsSource) ReadFile(path string) ([]byte, error) {
	data, err := s.DiskSource.ReadFile(path)
	if err == nil {
		s.reads.Record(path, data)
	}
	return data, err
}

// Outcome sums up the passes of Run or Preview.
type Outcome struct {
	fixed   map[string]int  // rule -> findings fixed
	files   map[string]bool // files changed
	refused []string        // "FILE:LINE: RULE: reason", sorted
	stable  bool            // the last pass found nothing more to apply
	passes  int
}

func summarize(results []Result, passes []pass, stable bool) Outcome {
	o := Outcome{fixed: map[string]int{}, files: map[string]bool{}, stable: stable, passes: len(results)}
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

// Total is the number of findings fixed.
func (o Outcome) Total() int {
	n := 0
	for _, c := range o.fixed {
		n += c
	}
	return n
}

// byRule renders "TG104 3, TG303 1".
func (o Outcome) byRule() string {
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

func (o Outcome) fileList() []string {
	out := make([]string, 0, len(o.files))
	for f := range o.files {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Run checks the working tree at root (the ops and files opts names),
// applies the first fix of each finding of a fixable rule, and checks and
// applies again until nothing is left (at most maxPasses passes).
func Run(root string, s *config.Setup, opts checker.Options) (Outcome, error) {
	var passes []pass
	var reads *Reads // the last check's
	compute := func() ([]analysis.SuggestedFix, error) {
		fixes, p, r, err := collect(root, s, opts)
		passes, reads = append(passes, p), r
		return fixes, err
	}
	base := func(file string) string { return reads.Base(file) }
	results, stable, err := ApplyUntilStable(root, compute, Options{Base: base}, maxPasses)
	if err != nil {
		return Outcome{}, err
	}
	return summarize(results, passes, stable), nil
}

// Process is --fix as the check command runs it, before the check
// reports: with dryRun, Preview writes the diff and then the summary to
// out, and the run ends there (done), with status 1 when there is
// something to fix; else Run applies the fixes, the summary goes to notes,
// and the check goes on to report what remains.
func Process(root string, s *config.Setup, opts checker.Options, dryRun bool, out, notes io.Writer) (code int, done bool, err error) {
	if dryRun {
		o, err := Preview(root, s, opts, out)
		if err != nil {
			return 0, true, err
		}
		o.WriteSummary(out, true)
		if o.Total() > 0 {
			return 1, true, nil
		}
		return 0, true, nil
	}
	o, err := Run(root, s, opts)
	if err != nil {
		return 0, false, err
	}
	o.WriteSummary(notes, false)
	return 0, false, nil
}

// count renders "1 finding", "2 findings".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// WriteSummary says what Run fixed (or Preview would fix), what it refused
// and whether it stopped with fixes left.
func (o Outcome) WriteSummary(w io.Writer, preview bool) {
	verb := "fixed"
	if preview {
		verb = "would fix"
	}
	if o.Total() == 0 {
		fmt.Fprintf(w, "tilegym-lint --fix: nothing to fix\n")
	} else {
		files := o.fileList()
		fmt.Fprintf(w, "tilegym-lint --fix: %s %s (%s) in %s: %s\n", verb, count(o.Total(), "finding"), o.byRule(), count(len(files), "file"), strings.Join(files, ", "))
	}
	for _, r := range o.refused {
		fmt.Fprintf(w, "tilegym-lint --fix: not applied: %s\n", r)
	}
	if !o.stable {
		fmt.Fprintf(w, "tilegym-lint --fix: stopped after %d passes with fixes left; run it again\n", o.passes)
	}
}

// previewCopied is called with each file Preview copies, and previewReady
// with the copy once made, before the fixes (tests).
var (
	previewCopied = func(string) {}
	previewReady  = func(string) {}
)

// Preview is Run on a copy of the Python files the check reads: it writes
// to w the unified diff between the tree and the copy (every pass, as Run
// would make them) and writes nothing to the tree. Interrupted (SIGINT,
// SIGTERM), it removes the copy and ends the process.
func Preview(root string, s *config.Setup, opts checker.Options, w io.Writer) (Outcome, error) {
	tmp, err := os.MkdirTemp("", "tilegym-lint-fix-*")
	if err != nil {
		return Outcome{}, err
	}
	defer removeOnSignal(tmp)()
	src := &source.DiskSource{Dir: root}
	// The files the check reads: the Python files in the layout's scope,
	// not the tree's other files (data, binaries, vendored code, any size).
	repo, err := load.ListRepo(src, s)
	if err != nil {
		return Outcome{}, err
	}
	if err := copyForPreview(src, repo.Paths, tmp); err != nil {
		return Outcome{}, err
	}
	previewReady(tmp)
	o, err := Run(tmp, s, opts)
	if err != nil {
		return Outcome{}, err
	}
	for _, name := range o.fileList() {
		before, err := src.ReadFile(name)
		if err != nil {
			return Outcome{}, err
		}
		after, err := os.ReadFile(filepath.Join(tmp, filepath.FromSlash(name)))
		if err != nil {
			return Outcome{}, err
		}
		fmt.Fprint(w, UnifiedDiff(name, before, after))
	}
	return o, nil
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

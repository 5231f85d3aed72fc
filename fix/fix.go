// Package fix applies suggested fixes -- text edits computed by the checker
// -- to the files of a checked repository, safely: a fix is applied whole or
// not at all, a fix that would break a file's parsing is refused, fixes that
// overlap are deferred to a second pass, files outside the root are never
// touched, and a file is replaced (through a temporary file and a rename, with
// its mode, encoding and line ends kept) only if it is still what was read,
// and an edit is made only in the content it was computed from
// (Options.Base).
//
// Positions are those of package python/ast (see text.go): Line 1-based, Col
// a 0-based byte offset into the line's UTF-8 text without its line end.
package fix

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/python/parser"
	"github.com/tilegym/tilegym-lint/source/regfile"
)

// Options control Apply.
type Options struct {
	// Preview computes the result and the diffs and writes nothing.
	Preview bool
	// Base, when set, returns the Sum of a file as the check that computed
	// the fixes read it ("" when unknown): Apply refuses an edit of a file
	// it reads with another content (the edit's positions would be
	// stale). A check computes every edit of a file from one read, so the
	// base is the file's, not each edit's.
	Base func(file string) string
}

// Status is what happened to one fix.
type Status struct {
	Index  int // index of the fix in the slice given to Apply
	Fix    analysis.SuggestedFix
	Reason string // why a fix was deferred or refused; "" when applied
}

// FileChange is one file the applied fixes change.
type FileChange struct {
	File    string // slash path relative to the root
	Diff    string // unified diff of the change (see UnifiedDiff)
	Written bool   // the new content was written (false in preview)
}

// Result reports an Apply.
type Result struct {
	// Applied: fixes applied (in preview: that would be applied), including
	// fixes whose every edit another applied fix already made.
	Applied []Status
	// Deferred: fixes overlapping an applied fix; check again and apply
	// again (ApplyUntilStable does).
	Deferred []Status
	// Refused: fixes that cannot be applied, with the reason (a path
	// outside the root, a position outside the file, an edit that breaks
	// parsing, a file changed since it was read, ...).
	Refused []Status
	// Files changed, sorted by path.
	Files []FileChange
}

// beforeCommit, when set (by tests), runs after the new contents are ready
// and before the files are checked and replaced: it is where a concurrent
// writer can change a file.
var beforeCommit func(file string)

// span is one edit resolved to byte offsets of its file.
type span struct {
	fix        int
	start, end int
	newText    string // with the file's line ends
}

func (s span) same(o span) bool {
	return s.start == o.start && s.end == o.end && s.newText == o.newText
}

// overlaps reports whether two different edits conflict: their ranges
// intersect, or both insert at the same place (their order is unknown),
// or one inserts strictly inside the other's range.
func (s span) overlaps(o span) bool {
	if s.start == s.end && o.start == o.end {
		return s.start == o.start
	}
	if s.start == s.end {
		return o.start < s.start && s.start < o.end
	}
	if o.start == o.end {
		return s.start < o.start && o.start < s.end
	}
	return s.start < o.end && o.start < s.end
}

// file is one file the fixes edit, as read.
type file struct {
	name   string // slash path relative to root
	path   string // resolved path on disk
	mode   os.FileMode
	text   *text
	parsed bool // the content as read parses
	spans  []span
	err    string // why no edit of this file can be applied
	sum    string // Sum(text.data), computed when an edit has a Base
}

// Apply applies fixes to the files under root. Fixes are considered in
// order: a fix is accepted when each of its edits is valid and overlaps no
// edit of an accepted fix (an identical edit is made once), and when every
// file it edits still parses with it (a file that already did not parse
// when read is not checked: no fix can be told to break it); otherwise it is deferred (overlap) or refused (anything else). Then each changed file is written -- unless
// opt.Preview -- through a temporary file in its directory, renamed over it
// only if the file still holds what was read; a file changed in between is
// not written and its fixes are refused. The error is for a failure to
// write (the file is then left as it was) or an unusable root.
func Apply(root string, fixes []analysis.SuggestedFix, opt Options) (Result, error) {
	var res Result
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return res, fmt.Errorf("fix: root: %w", err)
	}
	if rootReal, err = filepath.Abs(rootReal); err != nil {
		return res, fmt.Errorf("fix: root: %w", err)
	}
	files := map[string]*file{}
	load := func(name string) *file {
		if f, ok := files[name]; ok {
			return f
		}
		f := &file{name: name}
		files[name] = f
		p, reason := resolve(rootReal, name)
		if reason != "" {
			f.err = reason
			return f
		}
		f.path = p
		fi, err := os.Stat(p)
		if err != nil {
			f.err = err.Error()
			return f
		}
		if !fi.Mode().IsRegular() {
			f.err = fmt.Sprintf("%s is not a regular file (%s)", name, regfile.Kind(fi.Mode()))
			return f
		}
		if n := hardLinks(fi); n > 1 {
			f.err = fmt.Sprintf("%s has %d hard links; replacing it would split them", name, n)
			return f
		}
		if fi.Mode().Perm()&0o222 == 0 {
			// Replacing it through a rename would succeed, read-only or
			// not (as root, or in a writable directory).
			f.err = fmt.Sprintf("%s is read-only; not rewritten (make it writable to fix it)", name)
			return f
		}
		f.mode = fi.Mode()
		data, err := regfile.Read(p)
		if err != nil {
			f.err = err.Error()
			return f
		}
		f.text = newText(data)
		_, perr := parser.ParseFile(name, data)
		f.parsed = perr == nil
		return f
	}

	status := make([]string, len(fixes)) // "" applied, else reason
	deferred := make([]bool, len(fixes))
	for i, fx := range fixes {
		reason, isDeferred := tryFix(i, fx, load, opt.Base)
		status[i], deferred[i] = reason, isDeferred
	}

	// Commit: write each changed file, unless a concurrent writer got
	// there first; then its fixes are refused and the files are planned
	// again without them.
	changed := map[string]bool{}
	for {
		contents := map[string][]byte{}
		for name, f := range files {
			if f.err != "" || len(f.spans) == 0 {
				continue
			}
			contents[name] = f.apply()
		}
		if opt.Preview {
			res.Files = diffs(files, contents, false)
			break
		}
		// Write every new content to a temporary file first.
		temps := map[string]string{}
		cleanup := func() {
			for _, t := range temps {
				os.Remove(t)
			}
		}
		for name, data := range contents {
			t, err := writeTemp(files[name], data)
			if err != nil {
				cleanup()
				return res, fmt.Errorf("fix: %s: %w", name, err)
			}
			temps[name] = t
		}
		if beforeCommit != nil {
			for _, name := range slices.Sorted(maps.Keys(contents)) {
				beforeCommit(name)
			}
		}
		var stale []string
		for _, name := range slices.Sorted(maps.Keys(contents)) {
			f := files[name]
			now, err := regfile.Read(f.path)
			if err != nil || string(now) != string(f.text.data) {
				stale = append(stale, name)
			}
		}
		if len(stale) > 0 {
			cleanup()
			for _, name := range stale {
				changed[name] = true
				files[name].err = name + " changed since it was read; not written"
			}
			// Refuse every fix touching a stale file and replan the rest.
			for _, f := range files {
				f.spans = nil
			}
			for i, fx := range fixes {
				if status[i] != "" {
					continue
				}
				for _, e := range fx.Edits {
					if changed[e.File] {
						status[i] = files[e.File].err
						break
					}
				}
				if status[i] == "" {
					status[i], deferred[i] = tryFix(i, fx, load, opt.Base)
				}
			}
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(contents)) {
			if err := os.Rename(temps[name], files[name].path); err != nil {
				delete(temps, name)
				cleanup()
				return res, fmt.Errorf("fix: %s: %w", name, err)
			}
			delete(temps, name)
		}
		res.Files = diffs(files, contents, true)
		break
	}
	for i, fx := range fixes {
		s := Status{Index: i, Fix: fx, Reason: status[i]}
		switch {
		case status[i] == "":
			res.Applied = append(res.Applied, s)
		case deferred[i]:
			res.Deferred = append(res.Deferred, s)
		default:
			res.Refused = append(res.Refused, s)
		}
	}
	return res, nil
}

// tryFix validates fix i and, when it can be applied with the fixes
// accepted so far, adds its edits to their files. It returns "" when it was
// accepted, else the reason and whether the fix is only deferred.
func tryFix(i int, fx analysis.SuggestedFix, load func(string) *file, base func(string) string) (string, bool) {
	if len(fx.Edits) == 0 {
		return "the fix has no edit", false
	}
	added := map[*file][]span{}
	var order []*file
	for _, e := range fx.Edits {
		f := load(e.File)
		if f.err != "" {
			return f.err, false
		}
		if b := fileBase(base, e.File); b != "" {
			if f.sum == "" {
				f.sum = Sum(f.text.data)
			}
			if f.sum != b {
				return fmt.Sprintf("%s changed since the check read it, so the fix's positions are stale; not applied (run --fix again)", e.File), false
			}
		}
		t := f.text
		if f.encodingProblem(e) {
			return fmt.Sprintf("%s declares the encoding %s; only UTF-8 (or ASCII) files are edited", e.File, t.encoding()), false
		}
		start, err := t.offset(e.Start)
		if err != nil {
			return fmt.Sprintf("%s: start: %v", e.File, err), false
		}
		end, err := t.offset(e.End)
		if err != nil {
			return fmt.Sprintf("%s: end: %v", e.File, err), false
		}
		if end < start {
			return fmt.Sprintf("%s: the edit ends (%d:%d) before it starts (%d:%d)", e.File, e.End.Line, e.End.Col+1, e.Start.Line, e.Start.Col+1), false
		}
		s := span{fix: i, start: start, end: end, newText: t.adaptNewlines(e.NewText)}
		if _, ok := added[f]; !ok {
			order = append(order, f)
		}
		dup := false
		for _, o := range added[f] {
			if o.same(s) {
				dup = true
			} else if o.overlaps(s) {
				return fmt.Sprintf("%s: two edits of the fix overlap", e.File), false
			}
		}
		if !dup {
			added[f] = append(added[f], s)
		}
	}
	// Against the accepted edits: identical ones are already made.
	for _, f := range order {
		var keep []span
		for _, s := range added[f] {
			dup := false
			for _, o := range f.spans {
				if o.same(s) {
					dup = true
					break
				}
				if o.overlaps(s) {
					return fmt.Sprintf("%s: overlaps the edit of fix %d; apply again after a new check", f.name, o.fix), true
				}
			}
			if !dup {
				keep = append(keep, s)
			}
		}
		added[f] = keep
	}
	// Every file must still parse (if it parsed before).
	for _, f := range order {
		if !f.parsed || len(added[f]) == 0 {
			continue
		}
		old := f.spans
		f.spans = append(append([]span(nil), old...), added[f]...)
		data := f.apply()
		f.spans = old
		if _, err := parser.ParseFile(f.name, data); err != nil {
			return fmt.Sprintf("the result does not parse: %v", err), false
		}
	}
	for _, f := range order {
		f.spans = append(f.spans, added[f]...)
	}
	return "", false
}

// fileBase is base(file), or "" without base.
func fileBase(base func(string) string, file string) string {
	if base == nil {
		return ""
	}
	return base(file)
}

// encodingProblem reports an edit whose columns or text cannot be mapped
// to the file's bytes: the file declares another encoding than UTF-8 and
// is not plain ASCII, or the new text is not ASCII.
func (f *file) encodingProblem(e analysis.TextEdit) bool {
	enc := f.text.encoding()
	if enc == "utf-8" {
		return false
	}
	return !isASCII(f.text.data) || !isASCII([]byte(e.NewText))
}

// apply returns the file's content with its spans applied.
func (f *file) apply() []byte {
	spans := append([]span(nil), f.spans...)
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		// An insertion goes before a replacement starting at the same place.
		return spans[i].end-spans[i].start < spans[j].end-spans[j].start
	})
	data := f.text.data
	out := make([]byte, 0, len(data))
	pos := 0
	for _, s := range spans {
		out = append(out, data[pos:s.start]...)
		out = append(out, s.newText...)
		pos = s.end
	}
	return append(out, data[pos:]...)
}

// resolve maps a slash path relative to root to a path on disk, following
// symlinks, and refuses one that is absolute, climbs out with "..", or
// resolves outside root.
func resolve(rootReal, name string) (string, string) {
	if name == "" || strings.Contains(name, "\\") || strings.HasPrefix(name, "/") || filepath.IsAbs(name) || filepath.VolumeName(name) != "" {
		return "", fmt.Sprintf("%q is not a slash path relative to the root", name)
	}
	clean := path.Clean(name)
	if clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Sprintf("%q is outside the root", name)
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return "", fmt.Sprintf("%q climbs with \"..\"; paths must stay under the root", name)
		}
	}
	p := filepath.Join(rootReal, filepath.FromSlash(clean))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Sprintf("%s does not exist", name)
		}
		return "", err.Error()
	}
	rel, err := filepath.Rel(rootReal, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", fmt.Sprintf("%s resolves to %s, outside the root", name, real)
	}
	return real, ""
}

// writeTemp writes data to a new temporary file next to f, with f's mode.
func writeTemp(f *file, data []byte) (string, error) {
	dir, base := filepath.Split(f.path)
	tmp, err := os.CreateTemp(dir, "."+base+".tilegym-fix-*")
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	fail := func(err error) (string, error) {
		tmp.Close()
		os.Remove(name)
		return "", err
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	keepOwner(tmp, f.path) // before the mode: a chown clears setuid bits
	if err := tmp.Chmod(f.mode & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

func diffs(files map[string]*file, contents map[string][]byte, written bool) []FileChange {
	var out []FileChange
	for _, name := range slices.Sorted(maps.Keys(contents)) {
		d := UnifiedDiff(name, files[name].text.data, contents[name])
		if d == "" {
			continue
		}
		out = append(out, FileChange{File: name, Diff: d, Written: written})
	}
	return out
}

// ApplyUntilStable runs compute (which checks the repository again and
// returns its fixes) and Apply in turn until a pass applies nothing, at most
// maxPasses times (3 when maxPasses <= 0). It returns the result of each
// pass and whether the last pass found nothing more to apply. In preview
// mode nothing is written, so one pass is run. A fix each of whose edits
// inserts, in its file, the text an earlier pass inserted there for a fix
// of the same message is refused: the fix does not converge (its finding
// survives its own edit), and applying it again would only repeat it.
func ApplyUntilStable(root string, compute func() ([]analysis.SuggestedFix, error), opt Options, maxPasses int) ([]Result, bool, error) {
	if maxPasses <= 0 {
		maxPasses = 3
	}
	if opt.Preview {
		maxPasses = 1
	}
	type insertion struct{ file, message, text string }
	inserted := map[insertion]bool{}
	var results []Result
	for pass := 0; pass < maxPasses; pass++ {
		fixes, err := compute()
		if err != nil {
			return results, false, err
		}
		if len(fixes) == 0 {
			return results, true, nil
		}
		var repeat []Status
		var keep []analysis.SuggestedFix
		var index []int // index[i]: the index in fixes of keep[i]
		for i, fx := range fixes {
			again := len(fx.Edits) > 0
			for _, e := range fx.Edits {
				if e.NewText == "" || !inserted[insertion{e.File, fx.Message, e.NewText}] {
					again = false
				}
			}
			if again {
				repeat = append(repeat, Status{Index: i, Fix: fx, Reason: "it inserts text an earlier pass of --fix inserted in the same file: the fix does not converge; fix the finding by hand"})
				continue
			}
			keep = append(keep, fx)
			index = append(index, i)
		}
		res, err := Apply(root, keep, opt)
		for _, list := range [][]Status{res.Applied, res.Deferred, res.Refused} {
			for k := range list {
				list[k].Index = index[list[k].Index]
			}
		}
		res.Refused = append(res.Refused, repeat...)
		sort.SliceStable(res.Refused, func(a, b int) bool { return res.Refused[a].Index < res.Refused[b].Index })
		results = append(results, res)
		if err != nil {
			return results, false, err
		}
		for _, st := range res.Applied {
			for _, e := range st.Fix.Edits {
				if e.NewText != "" {
					inserted[insertion{e.File, st.Fix.Message, e.NewText}] = true
				}
			}
		}
		if len(res.Files) == 0 {
			// Nothing changed: what is left cannot be applied (refused),
			// and another pass would compute the same fixes.
			return results, len(res.Deferred) == 0, nil
		}
	}
	return results, false, nil
}

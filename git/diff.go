package git

// Change mode's diff: `git diff -U0` between a base and the working tree or
// the index, read into what each file's change is. A change's base snapshot
// is rebuilt from it (RebuildOld): the old version of a changed file is its
// new version with the removed lines put back, checked against the blob id
// the diff names, so that nothing of the base is listed or read from git but
// the blobs git converts (a file with CRLF line ends under core.autocrlf).

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// FileDiff is what `git diff -U0 --full-index` says of one file.
type FileDiff struct {
	Path     string // the file's path in the new version (or the old, deleted)
	OldID    string // the blob id of the old version ("" for a new file)
	OldMode  string // the old version's mode ("" when not said: unchanged)
	New      bool
	Deleted  bool
	Binary   bool // git showed no lines ("Binary files ... differ")
	Hunks    []Hunk
	SawPatch bool // the diff has --- and +++ lines (else: a mode change)
}

// Hunk is one hunk: the new version's lines [NewStart, NewStart+NewCount)
// (with NewCount 0: none, after line NewStart) replaced the old lines.
type Hunk struct {
	NewStart, NewCount int
	Old                [][]byte // the removed lines, each with its line end
}

// Diff is a change as git diff shows it: its files in git's order (a file
// whose type changed appears twice, deleted then new).
type Diff struct {
	Files []*FileDiff

	root      string
	args      []string // the diff's arguments, for Renames
	mergeBase bool     // the arguments ask git for the merge base
}

// CheckDiff says whether Changes can run in root against base: base is a
// revision and not an option, git is installed, and the index is a file
// git can read without blocking (see CheckIndexFile). It runs nothing but
// git's lookup in PATH.
func CheckDiff(root, base string) error {
	if err := CheckRevision(base); err != nil {
		return err
	}
	if _, err := exec.LookPath("git"); err != nil {
		return ErrNotFound
	}
	return CheckIndexFile(root)
}

// diffArgs are the arguments of `git diff -U0` of the working tree (or the
// index, when staged) against rev, or against the merge base of rev and
// HEAD.
func diffArgs(rev string, staged, mergeBase bool) []string {
	args := []string{"diff", "--relative", "-U0", "--full-index", "--no-color", "--no-ext-diff",
		"--no-textconv", "--no-renames", "--src-prefix=a/", "--dst-prefix=b/"}
	if staged {
		args = append(args, "--cached")
	}
	if mergeBase {
		args = append(args, "--merge-base")
	}
	return append(args, "--end-of-options", rev, "--", ".")
}

// Changes runs `git diff -U0` in root: the working tree, or the index when
// staged, against base (HEAD itself, or the merge base of another base and
// HEAD), and reads it. Call CheckDiff first.
func Changes(root, base string, staged bool) (*Diff, error) {
	// Against HEAD the diff is against HEAD itself (its own merge base with
	// HEAD); against another base, against their merge base.
	mergeBase := base != "HEAD"
	args := diffArgs(base, staged, mergeBase)
	out, err := runBytes(root, args...)
	if err != nil {
		// Say why: no repository, no such base, no merge base. A git
		// without --merge-base (before 2.30) gets the merge base apart.
		_, _, mb, err := Revs(root, base)
		if err != nil {
			return nil, err
		}
		mergeBase = false
		args = diffArgs(mb, staged, false)
		if out, err = runBytes(root, args...); err != nil {
			return nil, err
		}
	}
	return &Diff{Files: ParseDiff(out), root: root, args: args, mergeBase: mergeBase}, nil
}

// Renames runs the diff again with git's rename detection and returns the
// moves it finds (old path to new), or nil (also when git fails: the moves
// only refine the report). The diff itself is without renames: it is what
// rebuilds the base's files.
func (d *Diff) Renames() map[string]string {
	args := slices.Clone(d.args)
	for i, a := range args {
		switch a {
		case "-U0":
			args[i] = "--name-status"
		case "--full-index":
			args[i] = "-z"
		case "--no-renames":
			args[i] = "-M"
		}
	}
	out, err := runBytes(d.root, args...)
	if err != nil {
		return nil
	}
	return parseRenames(out)
}

// parseRenames reads `git diff --name-status -z -M` output: the renames
// ("R<score>" old new).
func parseRenames(out []byte) map[string]string {
	f := strings.Split(string(out), "\x00")
	renames := map[string]string{}
	for i := 0; i < len(f); i++ {
		switch {
		case strings.HasPrefix(f[i], "R") && i+2 < len(f):
			renames[filepath.ToSlash(f[i+1])] = filepath.ToSlash(f[i+2])
			i += 2
		case strings.HasPrefix(f[i], "C") && i+2 < len(f):
			i += 2 // a copy names two paths too
		case f[i] != "":
			i++ // a status and its one path
		}
	}
	return renames
}

// ParseDiff reads `git diff -U0 --full-index --src-prefix=a/
// --dst-prefix=b/` output: the files it names, the line ranges of their new
// version, and what rebuilds their old version. Hunk lines are counted with
// the hunk header, so a removed line that looks like a header is not one. A
// file whose name cannot be read is left out.
func ParseDiff(out []byte) []*FileDiff {
	var files []*FileDiff
	var cur *FileDiff
	var oldLeft, newLeft int
	var h *Hunk
	lastOld := false // the hunk line read last was a removed one
	record := func() {
		if cur != nil && cur.Path != "" {
			files = append(files, cur)
		}
	}
	for len(out) > 0 {
		var line []byte
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			line, out = out[:i], out[i+1:]
		} else {
			line, out = out, nil
		}
		if len(line) > 0 && line[0] == '\\' {
			if lastOld {
				noNewline(h)
			}
			lastOld = false
			continue
		}
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case len(line) > 0 && line[0] == '-' && oldLeft > 0:
				h.Old = append(h.Old, append(append([]byte(nil), line[1:]...), '\n'))
				oldLeft--
				lastOld = true
				continue
			case len(line) > 0 && line[0] == '+' && newLeft > 0:
				newLeft--
				lastOld = false
				continue
			case len(line) > 0 && line[0] == ' ' && oldLeft > 0 && newLeft > 0:
				// A context line (not asked for): in both versions.
				h.Old = append(h.Old, append(append([]byte(nil), line[1:]...), '\n'))
				oldLeft--
				newLeft--
				lastOld = true
				continue
			}
			oldLeft, newLeft = 0, 0 // a malformed hunk: read on as headers
		}
		lastOld = false
		s := string(line)
		switch {
		case strings.HasPrefix(s, "diff --git "):
			record()
			// The name, for a diff with no --- and +++ lines (an empty
			// file added or deleted); those lines, when there, say it again.
			cur, h = &FileDiff{Path: headerName(strings.TrimPrefix(s, "diff --git "))}, nil
		case cur == nil:
		case strings.HasPrefix(s, "new file mode "):
			cur.New = true
		case strings.HasPrefix(s, "deleted file mode "):
			cur.Deleted = true
			cur.OldMode = strings.TrimPrefix(s, "deleted file mode ")
		case strings.HasPrefix(s, "old mode "):
			cur.OldMode = strings.TrimPrefix(s, "old mode ")
		case strings.HasPrefix(s, "index "):
			ids, mode, _ := strings.Cut(strings.TrimPrefix(s, "index "), " ")
			if old, _, ok := strings.Cut(ids, ".."); ok && strings.Trim(old, "0") != "" {
				cur.OldID = old
			}
			if mode != "" && cur.OldMode == "" {
				cur.OldMode = mode
			}
		case strings.HasPrefix(s, "--- "):
			cur.SawPatch = true
			if p := strings.TrimPrefix(s, "--- "); p != "/dev/null" {
				cur.Path = strings.TrimPrefix(unquotePath(patchName(p)), "a/")
			}
		case strings.HasPrefix(s, "+++ "):
			cur.SawPatch = true
			if p := strings.TrimPrefix(s, "+++ "); p != "/dev/null" {
				cur.Path = strings.TrimPrefix(unquotePath(patchName(p)), "b/")
			}
		case strings.HasPrefix(s, "Binary files "):
			cur.Binary = true
			cur.Path = binaryName(s)
		case strings.HasPrefix(s, "@@ "):
			oldCount, newStart, newCount, ok := parseHunkHeader(s)
			if !ok {
				continue
			}
			cur.Hunks = append(cur.Hunks, Hunk{NewStart: newStart, NewCount: newCount})
			h = &cur.Hunks[len(cur.Hunks)-1]
			oldLeft, newLeft = oldCount, newCount
		}
	}
	record()
	return files
}

// noNewline takes the line end off the last old line of h: a "\ No
// newline at end of file" marker after a removed line says the old version
// ends without one.
func noNewline(h *Hunk) {
	if h == nil || len(h.Old) == 0 {
		return
	}
	last := h.Old[len(h.Old)-1]
	h.Old[len(h.Old)-1] = last[:len(last)-1]
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@..." (a, the old start, is
// not needed: the old version is rebuilt from the new).
func parseHunkHeader(s string) (oldCount, newStart, newCount int, ok bool) {
	f := strings.Fields(s)
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, 0, false
	}
	rng := func(r string) (int, int, bool) {
		a, b, has := strings.Cut(r, ",")
		start, err := strconv.Atoi(a)
		if err != nil || start < 0 {
			return 0, 0, false
		}
		n := 1
		if has {
			if n, err = strconv.Atoi(b); err != nil || n < 0 {
				return 0, 0, false
			}
		}
		return start, n, true
	}
	_, oldCount, ok1 := rng(f[1][1:])
	newStart, newCount, ok2 := rng(f[2][1:])
	return oldCount, newStart, newCount, ok1 && ok2
}

// unquotePath undoes git's quoting of a path with unusual characters
// ("a/caf\303\251.py").
func unquotePath(p string) string {
	if strings.HasPrefix(p, `"`) {
		if u, err := strconv.Unquote(p); err == nil {
			return u
		}
	}
	return p
}

// patchName returns the name of a --- or +++ line: git ends a name with
// a space in it with a tab (a name with a tab in it is quoted).
func patchName(p string) string {
	return strings.TrimSuffix(p, "\t")
}

// headerName returns the path of a "diff --git a/X b/X" line's rest
// (without renames, both sides name the same path), or "".
func headerName(rest string) string {
	if strings.HasSuffix(rest, `"`) {
		// Quoted: the second name is the last quoted string.
		if i := strings.LastIndex(rest[:len(rest)-1], ` "`); i >= 0 {
			return strings.TrimPrefix(unquotePath(rest[i+1:]), "b/")
		}
		return ""
	}
	if len(rest)%2 == 0 {
		return ""
	}
	a, b := rest[:len(rest)/2], rest[len(rest)/2+1:]
	if strings.HasPrefix(a, "a/") && strings.HasPrefix(b, "b/") && a[2:] == b[2:] {
		return b[2:]
	}
	return ""
}

// binaryName returns the path a "Binary files a/X and b/Y differ" line
// names: Y, or X when Y is /dev/null.
func binaryName(s string) string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "Binary files "), " differ")
	a, b, ok := strings.Cut(s, " and ")
	if !ok {
		return ""
	}
	if b != "/dev/null" {
		return strings.TrimPrefix(unquotePath(b), "b/")
	}
	return strings.TrimPrefix(unquotePath(a), "a/")
}

// RebuildOld returns the old version of a file from its new version and
// the diff, or false when the result does not hash to the diff's old blob
// id (or the diff shows no lines).
func (d *FileDiff) RebuildOld(newData []byte) ([]byte, bool) {
	if d.OldID == "" || d.Binary {
		return nil, false
	}
	var out []byte
	if !d.Deleted {
		lines := splitLinesKeep(newData)
		cur := 0
		for _, h := range d.Hunks {
			start := h.NewStart - 1 // the first replaced line, 0-based
			if h.NewCount == 0 {
				start = h.NewStart // removed lines go after line NewStart
			}
			if start < cur || start+h.NewCount > len(lines) {
				return nil, false
			}
			for _, l := range lines[cur:start] {
				out = append(out, l...)
			}
			for _, l := range h.Old {
				out = append(out, l...)
			}
			cur = start + h.NewCount
		}
		for _, l := range lines[cur:] {
			out = append(out, l...)
		}
	} else {
		for _, h := range d.Hunks {
			for _, l := range h.Old {
				out = append(out, l...)
			}
		}
	}
	if out == nil {
		out = []byte{}
	}
	return out, BlobID(out, len(d.OldID)) == d.OldID
}

// splitLinesKeep splits data after each '\n'.
func splitLinesKeep(data []byte) [][]byte {
	var lines [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, data)
			break
		}
		lines = append(lines, data[:i+1])
		data = data[i+1:]
	}
	return lines
}

// RegularMode reports whether a git mode is a regular file's (what a
// snapshot lists: no symbolic links, no submodules); "" is taken as one.
func RegularMode(mode string) bool {
	return mode == "" || mode == "100644" || mode == "100755"
}

// Blob returns the content of the blob id, read in root.
func Blob(root, id string) ([]byte, error) {
	return runBytes(root, "cat-file", "blob", id)
}

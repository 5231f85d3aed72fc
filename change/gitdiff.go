package change

// A change's base snapshot is its head snapshot with the change taken back:
// the files the change leaves alone are the head's, and the old version of
// each changed file is rebuilt from its new version and the lines `git diff
// -U0` shows removed, then checked against the blob id the diff names (so
// it is byte for byte git's). Nothing of the base is listed or read from
// git, except a blob whose rebuilt content does not hash to its id (a file
// git converts, such as one with CRLF line ends under core.autocrlf): that
// one is read with `git cat-file`.

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/load"
)

// fileDiff is what `git diff -U0 --full-index` says of one file.
type fileDiff struct {
	oldID    string // the blob id of the old version ("" for a new file)
	oldMode  string // the old version's mode ("" when not said: unchanged)
	isNew    bool
	deleted  bool
	binary   bool // git showed no lines ("Binary files ... differ")
	hunks    []diffHunk
	sawPatch bool // the diff has --- and +++ lines (else: a mode change)
}

// diffHunk is one hunk: the new version's lines [newStart, newStart+newCount)
// (with newCount 0: none, after line newStart) replaced the old lines.
type diffHunk struct {
	newStart, newCount int
	old                [][]byte // the removed lines, each with its line end
}

// parseGitDiff reads `git diff -U0 --full-index --src-prefix=a/
// --dst-prefix=b/` output: the files it names, the line ranges of their new
// version, and what rebuilds their old version. Hunk lines are counted with
// the hunk header, so a removed line that looks like a header is not one.
func parseGitDiff(out []byte, ch *Change) {
	var cur *fileDiff
	var name string // the file's path in the new version (or the old, deleted)
	var oldLeft, newLeft int
	var h *diffHunk
	lastOld := false // the hunk line read last was a removed one
	record := func() {
		if cur == nil || name == "" {
			return
		}
		if ch.diffs == nil {
			ch.diffs = map[string]*fileDiff{}
		}
		if prev := ch.diffs[name]; prev != nil && prev.deleted && cur.isNew {
			// A type change (a file that became a symbolic link, or the
			// other way): the old side is the deletion's.
			delete(ch.Deleted, name)
			ch.Whole[name] = true
			ch.Lines[name] = nil
			return
		}
		switch {
		case cur.deleted:
			ch.Deleted[name] = true
		case cur.sawPatch || cur.binary || cur.isNew:
			if _, ok := ch.Lines[name]; !ok {
				ch.Lines[name] = nil
			}
			if cur.isNew {
				ch.Whole[name] = true
			} else if cur.binary {
				ch.Lines[name] = append(ch.Lines[name], LineRange{1, int(^uint(0) >> 1)})
			}
			for _, h := range cur.hunks {
				if h.newCount == 0 {
					// Lines removed after line start: the lines around them changed.
					ch.Lines[name] = append(ch.Lines[name], LineRange{h.newStart, h.newStart + 1})
					if ch.gaps == nil {
						ch.gaps = map[string][]LineRange{}
					}
					ch.gaps[name] = append(ch.gaps[name], LineRange{h.newStart, h.newStart + 1})
				} else {
					ch.Lines[name] = append(ch.Lines[name], LineRange{h.newStart, h.newStart + h.newCount - 1})
				}
			}
		default:
			return // a mode change: the content is the same
		}
		ch.diffs[name] = cur
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
				h.old = append(h.old, append(append([]byte(nil), line[1:]...), '\n'))
				oldLeft--
				lastOld = true
				continue
			case len(line) > 0 && line[0] == '+' && newLeft > 0:
				newLeft--
				lastOld = false
				continue
			case len(line) > 0 && line[0] == ' ' && oldLeft > 0 && newLeft > 0:
				// A context line (not asked for): in both versions.
				h.old = append(h.old, append(append([]byte(nil), line[1:]...), '\n'))
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
			cur, name, h = &fileDiff{}, gitHeaderName(strings.TrimPrefix(s, "diff --git ")), nil
		case cur == nil:
		case strings.HasPrefix(s, "new file mode "):
			cur.isNew = true
		case strings.HasPrefix(s, "deleted file mode "):
			cur.deleted = true
			cur.oldMode = strings.TrimPrefix(s, "deleted file mode ")
		case strings.HasPrefix(s, "old mode "):
			cur.oldMode = strings.TrimPrefix(s, "old mode ")
		case strings.HasPrefix(s, "index "):
			ids, mode, _ := strings.Cut(strings.TrimPrefix(s, "index "), " ")
			if old, _, ok := strings.Cut(ids, ".."); ok && strings.Trim(old, "0") != "" {
				cur.oldID = old
			}
			if mode != "" && cur.oldMode == "" {
				cur.oldMode = mode
			}
		case strings.HasPrefix(s, "--- "):
			cur.sawPatch = true
			if p := strings.TrimPrefix(s, "--- "); p != "/dev/null" {
				name = strings.TrimPrefix(unquoteGitPath(diffFileName(p)), "a/")
			}
		case strings.HasPrefix(s, "+++ "):
			cur.sawPatch = true
			if p := strings.TrimPrefix(s, "+++ "); p != "/dev/null" {
				name = strings.TrimPrefix(unquoteGitPath(diffFileName(p)), "b/")
			}
		case strings.HasPrefix(s, "Binary files "):
			cur.binary = true
			name = binaryDiffName(s)
		case strings.HasPrefix(s, "@@ "):
			oldStart, oldCount, newStart, newCount, ok := parseHunkHeader(s)
			if !ok {
				continue
			}
			_ = oldStart
			cur.hunks = append(cur.hunks, diffHunk{newStart: newStart, newCount: newCount})
			h = &cur.hunks[len(cur.hunks)-1]
			oldLeft, newLeft = oldCount, newCount
		}
	}
	record()
	for f := range ch.Deleted {
		delete(ch.Lines, f)
	}
}

// noNewline takes the line end off the last old line of h: a "\ No
// newline at end of file" marker after a removed line says the old version
// ends without one.
func noNewline(h *diffHunk) {
	if h == nil || len(h.old) == 0 {
		return
	}
	last := h.old[len(h.old)-1]
	h.old[len(h.old)-1] = last[:len(last)-1]
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@...".
func parseHunkHeader(s string) (oldStart, oldCount, newStart, newCount int, ok bool) {
	f := strings.Fields(s)
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, 0, 0, false
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
	var ok1, ok2 bool
	oldStart, oldCount, ok1 = rng(f[1][1:])
	newStart, newCount, ok2 = rng(f[2][1:])
	return oldStart, oldCount, newStart, newCount, ok1 && ok2
}

// diffFileName returns the name of a --- or +++ line: git ends a name with
// a space in it with a tab (a name with a tab in it is quoted).
func diffFileName(p string) string {
	return strings.TrimSuffix(p, "\t")
}

// gitHeaderName returns the path of a "diff --git a/X b/X" line's rest
// (without renames, both sides name the same path), or "".
func gitHeaderName(rest string) string {
	if strings.HasSuffix(rest, `"`) {
		// Quoted: the second name is the last quoted string.
		if i := strings.LastIndex(rest[:len(rest)-1], ` "`); i >= 0 {
			return strings.TrimPrefix(unquoteGitPath(rest[i+1:]), "b/")
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

// binaryDiffName returns the path a "Binary files a/X and b/Y differ" line
// names: Y, or X when Y is /dev/null.
func binaryDiffName(s string) string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "Binary files "), " differ")
	a, b, ok := strings.Cut(s, " and ")
	if !ok {
		return ""
	}
	if b != "/dev/null" {
		return strings.TrimPrefix(unquoteGitPath(b), "b/")
	}
	return strings.TrimPrefix(unquoteGitPath(a), "a/")
}

// rebuildOld returns the old version of a file from its new version and
// the diff, or false when the result does not hash to the diff's old blob
// id (or the diff shows no lines).
func (d *fileDiff) rebuildOld(newData []byte) ([]byte, bool) {
	if d.oldID == "" || d.binary {
		return nil, false
	}
	var out []byte
	if !d.deleted {
		lines := splitLinesKeep(newData)
		cur := 0
		for _, h := range d.hunks {
			start := h.newStart - 1 // the first replaced line, 0-based
			if h.newCount == 0 {
				start = h.newStart // removed lines go after line newStart
			}
			if start < cur || start+h.newCount > len(lines) {
				return nil, false
			}
			for _, l := range lines[cur:start] {
				out = append(out, l...)
			}
			for _, l := range h.old {
				out = append(out, l...)
			}
			cur = start + h.newCount
		}
		for _, l := range lines[cur:] {
			out = append(out, l...)
		}
	} else {
		for _, h := range d.hunks {
			for _, l := range h.old {
				out = append(out, l...)
			}
		}
	}
	if out == nil {
		out = []byte{}
	}
	return out, git.BlobID(out, len(d.oldID)) == d.oldID
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

// regularMode reports whether a git mode is a regular file's (what a
// snapshot lists: no symbolic links, no submodules); "" is taken as one.
func regularMode(mode string) bool {
	return mode == "" || mode == "100644" || mode == "100755"
}

// baseSource is the base snapshot of a change: head's files with the change
// taken back (see the top of this file).
type baseSource struct {
	root  string       // the checked root, where git runs
	head  *load.Loader // the head snapshot, its files read
	ch    *Change
	paths []string
}

func newBaseSource(root string, head *load.Loader, ch *Change) *baseSource {
	b := &baseSource{root: root, head: head, ch: ch}
	seen := map[string]bool{}
	for _, p := range head.Repo.Paths {
		if !ch.Whole[p] && !(ch.diffs[p] != nil && !regularMode(ch.diffs[p].oldMode)) {
			b.paths = append(b.paths, p)
			seen[p] = true
		}
	}
	for p, d := range ch.diffs {
		if !seen[p] && !d.isNew && regularMode(d.oldMode) {
			b.paths = append(b.paths, p)
		}
	}
	sort.Strings(b.paths)
	return b
}

func (b *baseSource) Root() string            { return b.root }
func (b *baseSource) List() ([]string, error) { return append([]string(nil), b.paths...), nil }

// unchanged returns the content of a file the change leaves alone: the
// head's.
func (b *baseSource) unchanged(p string) ([]byte, bool) {
	if b.ch.diffs[p] != nil || b.ch.Whole[p] {
		return nil, false
	}
	return b.head.Content(p)
}

func (b *baseSource) ReadFile(p string) ([]byte, error) {
	if data, ok := b.unchanged(p); ok {
		return data, nil
	}
	d := b.ch.diffs[p]
	if d == nil {
		return nil, fmt.Errorf("%s: not in the base snapshot", p)
	}
	var newData []byte
	if !d.deleted {
		var ok bool
		if newData, ok = b.head.Content(p); !ok {
			return nil, fmt.Errorf("%s: changed, but not in the head snapshot", p)
		}
	}
	if old, ok := d.rebuildOld(newData); ok {
		return old, nil
	}
	if d.oldID == "" {
		return nil, fmt.Errorf("%s: git diff names no old blob", p)
	}
	out, err := git.RunBytes(b.root, "cat-file", "blob", d.oldID)
	if err != nil {
		return nil, err
	}
	return out, nil
}

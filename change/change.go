// Package change is change mode: it checks one change (a diff against a
// base revision, staged or not) and reports the findings it brings, on the
// ops it concerns. Its reference is the whole check of both snapshots (the
// head and the base rebuilt from the diff): checking only the ops the change
// can concern gives the same report, and the tests hold it to that.
package change

import (
	"sort"
	"sync"

	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/source"
)

// LineRange is an inclusive range of 1-based lines.
type LineRange struct{ Start, End int }

// Change is what a change touches: the files it modifies, with the line
// ranges of their new version, relative to the checked root.
type Change struct {
	Root    string // the checked root
	Base    string // the revision the change is against, as given
	Staged  bool   // the change is the index, not the working tree
	Files   []string
	Lines   map[string][]LineRange // changed lines of each file's new version
	Whole   map[string]bool        // new files: every line changed
	Deleted map[string]bool        // files the change deletes
	// Renames maps the base's path of each file the change moves (as
	// git's rename detection finds them among the files it deletes and
	// adds) to the head's. The moved file is still Deleted at its old path
	// and Whole at its new one; findings are matched across the move.
	Renames map[string]string
	// renamed, when not nil, is closed once Renames is set: git finds
	// the moves while the snapshots are checked (see waitRenames).
	renamed chan struct{}

	// diffs is what git diff says of each changed file, which rebuilds
	// its old version (see baseSource).
	diffs map[string]*git.FileDiff
	// gaps holds the ranges of Lines that stand for lines removed with
	// nothing in their place: the two lines around the removal.
	gaps map[string][]LineRange
}

// Touches reports whether the change modifies any line in [start, end] of file.
func (c *Change) Touches(file string, start, end int) bool {
	if c.Whole[file] {
		return true
	}
	for _, r := range c.Lines[file] {
		if r.Start <= end && start <= r.End {
			return true
		}
	}
	return false
}

// Edits reports whether the change modifies any line in [start, end] of
// file other than by removing lines next to it: a line beside a removed
// one is not edited (an __init__ entry next to a deleted one is another
// op's).
func (c *Change) Edits(file string, start, end int) bool {
	if c.Whole[file] {
		return true
	}
	gaps := c.gaps[file]
next:
	for _, r := range c.Lines[file] {
		for _, g := range gaps {
			if r == g {
				continue next
			}
		}
		if r.Start <= end && start <= r.End {
			return true
		}
	}
	return false
}

// HasFile reports whether the change modifies file.
func (c *Change) HasFile(file string) bool {
	_, ok := c.Lines[file]
	return ok || c.Whole[file]
}

// FromGit computes a change with git: against the merge base of base and
// HEAD, the working tree (with uncommitted and untracked files) or, when
// staged, the index. base "" means HEAD. It runs `git diff -U0` and, when
// the working tree has files the index does not hold, `git ls-files
// --others` on them (see git.Untracked).
func FromGit(root, base string, staged bool) (*Change, error) {
	return gitChange(root, base, staged, func() ([]string, error) {
		return (&source.DiskSource{Dir: root, Lenient: true}).List()
	})
}

// gitChange is FromGit with listed giving the working tree's files (those
// the check lists are enough) that may be untracked; it is called while git
// diff runs.
func gitChange(root, base string, staged bool, listed func() ([]string, error)) (*Change, error) {
	if base == "" {
		base = "HEAD"
	}
	if err := git.CheckDiff(root, base); err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	var untracked []string
	var untrackedErr error
	if !staged {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var paths []string
			if paths, untrackedErr = listed(); untrackedErr == nil {
				untracked, untrackedErr = git.Untracked(root, paths)
			}
		}()
	}
	d, diffErr := git.Changes(root, base, staged)
	wg.Wait()
	if diffErr != nil {
		return nil, diffErr
	}
	ch := &Change{
		Root: root, Base: base, Staged: staged,
		Lines: map[string][]LineRange{}, Whole: map[string]bool{}, Deleted: map[string]bool{},
	}
	ch.addDiff(d.Files)
	if len(ch.Deleted) > 0 && ch.hasNew() {
		// The moves among the deleted and new files, apart (the diff
		// above, without renames, is what rebuilds the base's files), and
		// meanwhile: only finishChange needs them.
		ch.renamed = make(chan struct{})
		go func() {
			defer close(ch.renamed)
			ch.Renames = ch.moves(d.Renames())
		}()
	}
	if !staged {
		if err := untrackedErr; err != nil {
			return nil, err
		}
		for _, p := range untracked {
			ch.Whole[p] = true
		}
	}
	seen := map[string]bool{}
	for f := range ch.Deleted {
		seen[f] = true
	}
	for f := range ch.Lines {
		seen[f] = true
	}
	for f := range ch.Whole {
		seen[f] = true
	}
	for f := range seen {
		ch.Files = append(ch.Files, f)
	}
	sort.Strings(ch.Files)
	return ch, nil
}

// addDiff records what git diff says of the files: the lines each changes
// in its new version, the new and deleted files, and (in diffs) how to
// rebuild each old version.
func (ch *Change) addDiff(files []*git.FileDiff) {
	for _, d := range files {
		name := d.Path
		if ch.diffs == nil {
			ch.diffs = map[string]*git.FileDiff{}
		}
		if prev := ch.diffs[name]; prev != nil && prev.Deleted && d.New {
			// A type change (a file that became a symbolic link, or the
			// other way): the old side is the deletion's.
			delete(ch.Deleted, name)
			ch.Whole[name] = true
			ch.Lines[name] = nil
			continue
		}
		switch {
		case d.Deleted:
			ch.Deleted[name] = true
		case d.SawPatch || d.Binary || d.New:
			if _, ok := ch.Lines[name]; !ok {
				ch.Lines[name] = nil
			}
			if d.New {
				ch.Whole[name] = true
			} else if d.Binary {
				ch.Lines[name] = append(ch.Lines[name], LineRange{1, int(^uint(0) >> 1)})
			}
			for _, h := range d.Hunks {
				if h.NewCount == 0 {
					// Lines removed after line start: the lines around them changed.
					ch.Lines[name] = append(ch.Lines[name], LineRange{h.NewStart, h.NewStart + 1})
					if ch.gaps == nil {
						ch.gaps = map[string][]LineRange{}
					}
					ch.gaps[name] = append(ch.gaps[name], LineRange{h.NewStart, h.NewStart + 1})
				} else {
					ch.Lines[name] = append(ch.Lines[name], LineRange{h.NewStart, h.NewStart + h.NewCount - 1})
				}
			}
		default:
			continue // a mode change: the content is the same
		}
		ch.diffs[name] = d
	}
	for f := range ch.Deleted {
		delete(ch.Lines, f)
	}
}

// hasNew reports whether the diff adds a file.
func (c *Change) hasNew() bool {
	for _, d := range c.diffs {
		if d.New {
			return true
		}
	}
	return false
}

// waitRenames waits for git to find the moves of the change, if it
// looks for them.
func (c *Change) waitRenames() {
	if c.renamed != nil {
		<-c.renamed
	}
}

// moves keeps the renames git found that move a file the change deletes to
// one it adds (as the diff without renames says; it reads nothing else of
// c, whose untracked files are added meanwhile), or nil.
func (c *Change) moves(renames map[string]string) map[string]string {
	out := map[string]string{}
	for from, to := range renames {
		if d := c.diffs[to]; c.Deleted[from] && d != nil && d.New {
			out[from] = to
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

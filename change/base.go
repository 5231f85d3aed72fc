package change

// A change's base snapshot is its head snapshot with the change taken back:
// the files the change leaves alone are the head's, and the old version of
// each changed file is rebuilt from its new version and the lines git diff
// shows removed (git.FileDiff.RebuildOld).

import (
	"fmt"
	"sort"

	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/load"
)

// baseSource is the base snapshot of a change: head's files with the change
// taken back. Nothing of the base is listed or read from git but the blobs
// git converts, whose rebuilt content does not hash to their id.
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
		if !ch.Whole[p] && !(ch.diffs[p] != nil && !git.RegularMode(ch.diffs[p].OldMode)) {
			b.paths = append(b.paths, p)
			seen[p] = true
		}
	}
	for p, d := range ch.diffs {
		if !seen[p] && !d.New && git.RegularMode(d.OldMode) {
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
	if !d.Deleted {
		var ok bool
		if newData, ok = b.head.Content(p); !ok {
			return nil, fmt.Errorf("%s: changed, but not in the head snapshot", p)
		}
	}
	if old, ok := d.RebuildOld(newData); ok {
		return old, nil
	}
	if d.OldID == "" {
		return nil, fmt.Errorf("%s: git diff names no old blob", p)
	}
	out, err := git.Blob(b.root, d.OldID)
	if err != nil {
		return nil, err
	}
	return out, nil
}

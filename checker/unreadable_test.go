package checker

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tilegymlint "github.com/tilegym/tilegym-lint"
)

// denyDir makes walkDir fail to read one directory, as an unreadable one
// does for a user other than root: the walk visits it, then reports the
// error of reading it and does not descend.
func denyDir(t *testing.T, deny string) {
	t.Helper()
	old := walkDir
	t.Cleanup(func() { walkDir = old })
	walkDir = func(root string, fn fs.WalkDirFunc) error {
		return filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.IsDir() && p == deny {
				if err := fn(p, e, nil); err != nil {
					return err
				}
				if err := fn(p, e, &fs.PathError{Op: "open", Path: p, Err: fs.ErrPermission}); err != nil {
					return err
				}
				return filepath.SkipDir
			}
			return fn(p, e, err)
		})
	}
}

// TestUnreadableDir: a directory of the checkout that cannot be read is an
// error naming it, in a whole check (listing under the layout's
// directories, and listing everything), a one-op check and when listing
// the files of a directory argument; before, it was skipped and its ops'
// tests went missing ("no test" findings).
func TestUnreadableDir(t *testing.T) {
	cat, err := LoadCatalog(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyDir(t, "../fixtures/good", dir)
	deny := filepath.Join(dir, "tests", "ops", "activation")
	if os.Geteuid() != 0 {
		// A real unreadable directory where permissions hold.
		if err := os.Chmod(deny, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(deny, 0o755) })
	} else {
		denyDir(t, deny)
	}
	lay := BuildLayout(&cat.Layout, nil)
	check := func(what string, src Source, ops []string) {
		_, err := CheckSource(src, lay, cat, nil, Options{Ops: ops})
		var ue *UnreadableDirError
		if !errors.As(err, &ue) || ue.Dir != "tests/ops/activation" || !strings.Contains(err.Error(), "cannot read directory tests/ops/activation") {
			t.Errorf("%s: error %v, want one naming tests/ops/activation", what, err)
		}
	}
	check("whole check", &DiskSource{Dir: dir}, nil)
	check("one op", &DiskSource{Dir: dir}, []string{"silu_and_mul"})
	check("listing everything", listOnly{&DiskSource{Dir: dir}}, nil)
	// Change mode's search for untracked files skips it: the check's own
	// listing reports it.
	if _, err := (&DiskSource{Dir: dir, lenient: true}).List(); err != nil {
		t.Errorf("lenient listing: %v", err)
	}
}

// listOnly hides a DiskSource's ListUnder, so that everything is listed.
type listOnly struct{ d *DiskSource }

func (l listOnly) Root() string                      { return l.d.Root() }
func (l listOnly) List() ([]string, error)           { return l.d.List() }
func (l listOnly) ReadFile(p string) ([]byte, error) { return l.d.ReadFile(p) }

package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
// error naming it, when listing under the layout's directories and when
// listing everything; before, it was skipped and its ops' tests went
// missing ("no test" findings). Change mode's search for untracked files
// (lenient) skips it: the check's own listing reports it.
func TestUnreadableDir(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"tests/ops/activation", "src/tilegym/ops"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"tests/ops/activation/test_silu.py", "src/tilegym/ops/ops.py"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
	want := func(what string, err error) {
		t.Helper()
		var ue *UnreadableDirError
		if !errors.As(err, &ue) || ue.Dir != "tests/ops/activation" || !strings.Contains(err.Error(), "cannot read directory tests/ops/activation") {
			t.Errorf("%s: error %v, want one naming tests/ops/activation", what, err)
		}
	}
	_, err := (&DiskSource{Dir: dir}).List()
	want("listing everything", err)
	_, err = (&DiskSource{Dir: dir}).ListUnder([]string{"src", "tests"})
	want("listing under the layout's directories", err)
	if _, err := (&DiskSource{Dir: dir, Lenient: true}).List(); err != nil {
		t.Errorf("lenient listing: %v", err)
	}
}

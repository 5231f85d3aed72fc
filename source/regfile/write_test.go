package regfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Write replaces a symbolic link at its name instead of writing where it
// points, and refuses to append through one; it appends to a regular file.
func TestWriteNeverFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "report")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := Write(link, true, text("x")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("append through a link: %v", err)
	}
	if err := Write(link, false, text("new\n")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
		t.Errorf("the link's target holds %q", data)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("%s is not a regular file after Write: %v", link, err)
	}
	if err := Write(link, true, text("more\n")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(link); string(data) != "new\nmore\n" {
		t.Errorf("after appending: %q", data)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".report.*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

//go:build unix

package regfile

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRefusesOthers: a directory, a named pipe with no writer (which
// os.ReadFile would wait on for ever) and a character device are refused
// at once, with an error naming the file and its type.
func TestReadRefusesOthers(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pyproject.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{dir: "a directory", fifo: "a named pipe", "/dev/null": "a character device"}
	for p, kind := range cases {
		done := make(chan error, 1)
		go func() {
			_, err := Read(p)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), kind) {
				t.Errorf("Read(%s) = %v, want ErrNotRegular naming it and %q", p, err, kind)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Read(%s) hangs", p)
		}
	}
}

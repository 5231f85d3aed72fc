//go:build unix

package change

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadIndexFIFO: a FIFO where the index is is refused at once, not
// opened (which would block until a writer comes).
func TestReadIndexFIFO(t *testing.T) {
	dir := t.TempDir()
	// A FIFO where the index is: refused at once, not opened (which would
	// block until a writer comes).
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := readIndexPaths(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("FIFO index: err = %v, want a clear error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO index blocked")
	}
}

// TestChangeFIFOIndex: change mode refuses a repository whose index is a
// FIFO before git (which would block opening it) runs.
func TestChangeFIFOIndex(t *testing.T) {
	dir := indexRepo(t)
	idx := filepath.Join(dir, ".git", "index")
	if err := os.Remove(idx); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(idx, 0o644); err != nil {
		t.Skip("no FIFO:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := FromGit(dir, "HEAD", false); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("FIFO index: err = %v, want a clear error", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("change mode blocked on a FIFO index")
	}
}

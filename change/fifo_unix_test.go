//go:build unix

package change

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// TestChangeFIFOIndex: change mode refuses a repository whose index is a
// FIFO before git (which would block opening it) runs.
func TestChangeFIFOIndex(t *testing.T) {
	dir := testrepo.IndexRepo(t)
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

//go:build unix

package checker

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/source"
	"github.com/tilegym/tilegym-lint/source/regfile"
)

// swapSource lists a working tree, then replaces one listed file with a
// named pipe before anything is read: a file swapped while the run lists
// the tree.
type swapSource struct {
	disk source.DiskSource // not embedded: no ListUnder, so List is what lists
	swap string
}

func (s *swapSource) Root() string                      { return s.disk.Root() }
func (s *swapSource) ReadFile(p string) ([]byte, error) { return s.disk.ReadFile(p) }

func (s *swapSource) List() ([]string, error) {
	list, err := s.disk.List()
	if err != nil {
		return nil, err
	}
	p := filepath.Join(s.disk.Dir, filepath.FromSlash(s.swap))
	if err := os.Remove(p); err != nil {
		return nil, err
	}
	return list, syscall.Mkfifo(p, 0o644)
}

// TestSwappedFIFO: a .py file replaced by a named pipe after the listing
// is refused with an error naming it, by the whole check and by a one-op
// check, instead of hanging the run.
func TestSwappedFIFO(t *testing.T) {
	cat := testrepo.Catalog(t)
	for _, ops := range [][]string{nil, {"softmax"}} {
		dir := t.TempDir()
		testrepo.CopyDir(t, "../fixtures/good", dir)
		const swap = "src/tilegym/ops/cutile/softmax.py"
		src := &swapSource{disk: source.DiskSource{Dir: dir}, swap: swap}
		done := make(chan error, 1)
		go func() {
			_, err := CheckSource(src, config.NewSetup(cat, nil), Options{Ops: ops})
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, regfile.ErrNotRegular) || !strings.Contains(err.Error(), swap) {
				t.Errorf("ops %v: error %v, want one naming %s as not a regular file", ops, err, swap)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("ops %v: the check hangs on a named pipe", ops)
		}
	}
}

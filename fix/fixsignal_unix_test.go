//go:build unix

package fix

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
)

// previewChildEnv, set, makes the test binary run Preview on the directory
// its argument names instead of the tests, as the child of
// TestPreviewRemovesCopyOnSignal: once Preview has made its copy, it writes
// the copy's path to the file the variable names and waits for the signal
// that the test sends.
const previewChildEnv = "TILEGYM_LINT_TEST_PREVIEW_CHILD"

func TestMain(m *testing.M) {
	if ready := os.Getenv(previewChildEnv); ready != "" {
		previewReady = func(tmp string) {
			if err := os.WriteFile(ready, []byte(tmp), 0o644); err != nil {
				os.Exit(3)
			}
			for {
				time.Sleep(time.Hour) // until the signal ends the process
			}
		}
		cat, err := checks.LoadBuiltinCatalog()
		if err != nil || len(os.Args) != 2 {
			os.Exit(3)
		}
		if _, err := Preview(os.Args[1], config.NewSetup(cat, nil), checker.Options{}, os.Stdout); err != nil {
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestPreviewRemovesCopyOnSignal: Preview (--fix --dry-run) interrupted
// (SIGINT, Ctrl-C) or terminated (SIGTERM) while its copy of the tree
// exists removes the copy and exits 130 or 143. The child process stops
// deterministically once the copy is made (previewReady), so no timing
// decides what is tested.
func TestPreviewRemovesCopyOnSignal(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			dir, err := filepath.Abs("../fixtures/good") // Preview only reads it
			if err != nil {
				t.Fatal(err)
			}
			tmpdir := t.TempDir() // the child's os.TempDir, empty after it
			ready := filepath.Join(t.TempDir(), "ready")
			cmd := exec.Command(os.Args[0], dir)
			cmd.Env = append(os.Environ(), previewChildEnv+"="+ready, "TMPDIR="+tmpdir)
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			waited := false
			defer func() {
				if !waited {
					cmd.Process.Kill()
					<-exited
				}
			}()
			// Wait for the copy (or for the child to end without one).
			var tmp string
			for tmp == "" {
				select {
				case err := <-exited:
					waited = true
					t.Fatalf("the child ended before its copy was made: %v\n%s", err, out.String())
				case <-time.After(10 * time.Millisecond):
				}
				if data, err := os.ReadFile(ready); err == nil && len(data) > 0 {
					tmp = string(data)
				}
			}
			if filepath.Dir(tmp) != tmpdir {
				t.Fatalf("the copy %s is not in the child's temporary directory %s", tmp, tmpdir)
			}
			if _, err := os.Stat(filepath.Join(tmp, "src", "tilegym", "ops", "ops.py")); err != nil {
				t.Fatalf("the copy holds no ops.py: %v", err)
			}
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			err = <-exited
			waited = true
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != c.code {
				t.Errorf("after %v: %v, want exit %d\n%s", c.sig, err, c.code, out.String())
			}
			if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("after %v: the copy %s is still there (%v)", c.sig, tmp, err)
			}
			if left, _ := os.ReadDir(tmpdir); len(left) > 0 {
				t.Errorf("after %v: left in the temporary directory: %v", c.sig, left)
			}
		})
	}
}

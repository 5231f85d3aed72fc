//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runCLIWithin runs the command and fails the test if it takes longer
// than limit (it would hang for ever before the fix).
func runCLIWithin(t *testing.T, limit time.Duration, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		c, o, e := runCLI(args...)
		done <- result{c, o, e}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(limit):
		t.Fatalf("tilegym-lint %s: no answer in %v", strings.Join(args, " "), limit)
		return 0, "", ""
	}
}

// TestConfigFIFO: a named pipe where a configuration file is looked for, in
// the checked directory or a parent, is refused with an error naming it
// (exit 2), not waited on for ever.
func TestConfigFIFO(t *testing.T) {
	for _, tc := range []struct{ name, where string }{
		{"pyproject.toml", "parent"},
		{"tilegym-lint.toml", "parent"},
		{"tilegym-lint.toml", "root"},
		{"pyproject.toml", "root"},
	} {
		parent := t.TempDir()
		root := filepath.Join(parent, "checkout")
		copyTree(t, "../../fixtures/good", root)
		dir := parent
		if tc.where == "root" {
			dir = root
		} else if err := os.Mkdir(filepath.Join(parent, ".git"), 0o755); err != nil {
			// The parent is the git work tree's top: discovery goes up to it.
			t.Fatal(err)
		}
		fifo := filepath.Join(dir, tc.name)
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLIWithin(t, 20*time.Second, root)
		if code != 2 || !strings.Contains(stderr, fifo) || !strings.Contains(stderr, "named pipe") {
			t.Errorf("%s in the %s: exit %d, stderr %q; want 2 and an error naming the pipe", tc.name, tc.where, code, stderr)
		}
	}
}

// TestCatalogFIFO: --catalog naming a named pipe is
// refused too.
func TestCatalogFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "rules.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLIWithin(t, 20*time.Second, "--catalog", fifo, goodCopy(t))
	if code != 2 || !strings.Contains(stderr, fifo) {
		t.Errorf("--catalog FIFO: exit %d, stderr %q", code, stderr)
	}
	_ = os.Remove(fifo)
}

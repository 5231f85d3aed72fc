package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotACheckout: a whole check, or a check of named ops, of a directory
// with no TileGym layout (an empty directory, one with unrelated files, a
// checkout whose configuration excludes everything) exits 2 and says what
// was looked for and how to point at the right directory; before, it
// exited 0 with "0 ops", so a CI job pointed at the wrong directory passed.
func TestNotACheckout(t *testing.T) {
	empty := t.TempDir()
	unrelated := t.TempDir()
	os.MkdirAll(filepath.Join(unrelated, "pkg"), 0o755)
	os.WriteFile(filepath.Join(unrelated, "pkg", "mod.py"), []byte("def f():\n    pass\n"), 0o644)
	os.WriteFile(filepath.Join(unrelated, "README.md"), []byte("hello\n"), 0o644)
	excluded := goodCopy(t)
	os.WriteFile(filepath.Join(excluded, "tilegym-lint.toml"), []byte("exclude = [\"**\"]\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"empty", []string{empty}, []string{empty, "no op found", "src/tilegym/ops/ops.py", "root of one"}},
		{"unrelated", []string{unrelated}, []string{unrelated, "no op found"}},
		{"excluded", []string{excluded}, []string{"no op found", "exclude in", "tilegym-lint.toml"}},
		{"--op", []string{"--op", "softmax", empty}, []string{"no op found"}},
		{"json", []string{"--format", "json", unrelated}, []string{"no op found"}},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2", tc.name, code)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, w, stderr)
			}
		}
	}
}

// TestBrokenCheckoutIsReported: a checkout whose dispatch file does not
// parse has no op, but it is a checkout: its parse error is reported (exit
// 1), not "no op found".
func TestBrokenCheckoutIsReported(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src/tilegym/ops"), 0o755)
	os.WriteFile(filepath.Join(dir, "src/tilegym/ops/ops.py"), []byte("@dispatch(\"softmax\"\ndef softmax(x):\n    pass\n"), 0o644)
	code, out, stderr := runCLI(dir)
	if code != 1 || !strings.Contains(out, "TG001") || strings.Contains(stderr, "no op found") {
		t.Errorf("exit %d, want 1 with TG001\n%s%s", code, out, stderr)
	}
}

// TestNoOpIsNotAnError: files given as pre-commit gives them that belong
// to no op, and a change that touches no op, report no op and exit 0.
func TestNoOpIsNotAnError(t *testing.T) {
	dir := goodCopy(t)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("readme\n"), 0o644)
	if code, out, stderr := runCLI(filepath.Join(dir, "README.md")); code != 0 {
		t.Errorf("a file of no op: exit %d\n%s%s", code, out, stderr)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "base")
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("readme, edited\n"), 0o644)
	git("commit", "-qam", "edit")
	if code, out, stderr := runCLI("--diff", "HEAD~1", dir); code != 0 {
		t.Errorf("a change of no op: exit %d\n%s%s", code, out, stderr)
	}
}

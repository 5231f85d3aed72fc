package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// workflowCommand says why a line of output is a workflow command to a CI
// runner ("::" first after blanks, "##[" anywhere), or "".
func workflowCommand(line string) string {
	if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
		return "starts with ::"
	}
	if strings.Contains(line, "##[") {
		return "holds ##["
	}
	return ""
}

// annotation reports whether line is one of the annotations --annotate
// writes on purpose.
func annotation(line string) bool {
	for _, p := range []string{"::error file=", "::warning file=", "::notice file=", "::notice title=tilegym-lint::"} {
		if strings.HasPrefix(line, p) {
			return !strings.Contains(line, "##[")
		}
	}
	return false
}

// An op named by a pull request after a workflow command, and a file name
// holding one, print nothing the runner obeys: in any format, with
// --annotate, and on stderr.
func TestHostileNamesNoWorkflowCommand(t *testing.T) {
	dir := goodCopy(t)
	ops := filepath.Join(dir, "src/tilegym/ops/ops.py")
	data, err := os.ReadFile(ops)
	if err != nil {
		t.Fatal(err)
	}
	hostile := "\n\n@dispatch(\"::stop-commands::pwn\")\ndef pwn(x):\n    pass\n\n\n" +
		"@dispatch(\"ok ##[error file=README.md]forged\")\ndef forged(x):\n    pass\n"
	if err := os.WriteFile(ops, append(data, hostile...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--annotate", dir},
		{"--full", "--annotate", dir},
		{"--format", "checklist", dir},
		{"--format", "github", dir},
		{"--format", "json", dir},
		{"--format", "sarif", dir},
		{"--op", "::stop-commands::pwm", dir},
		{"--op", "x\n::error::y", dir},
		{filepath.Join(dir, "no such\n::error file=a.py::forged.py")},
	} {
		code, stdout, stderr := runCLI(args...)
		if code == 2 && !strings.HasPrefix(args[0], "--op") && !strings.Contains(args[0], "no such") {
			t.Errorf("%q: exit 2: %s", args, stderr)
		}
		seen := false
		for _, out := range []string{stdout, stderr} {
			for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
				seen = seen || strings.Contains(line, "stop-commands")
				if annotation(line) && args[0] != "--op" {
					continue
				}
				if why := workflowCommand(line); why != "" {
					t.Errorf("%q: a line %s: %q", args, why, line)
				}
			}
		}
		if !seen && !strings.Contains(args[len(args)-1], "no such") && args[1] != "x\n::error::y" {
			t.Errorf("%q: the op ::stop-commands::pwn is not reported:\n%s%s", args, stdout, stderr)
		}
	}
}

// In the hook's mode the flags come first; a file name pre-commit appends
// is never read as a flag, even one named like a flag.
func TestHookArgsFileNamesNotFlags(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	for _, name := range []string{"--exit-zero", "-v.py"} {
		if err := os.WriteFile(name, []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args  []string
		paths string
		base  string
		exit0 bool
	}{
		{[]string{"--pre-commit", "--exit-zero", "-v.py", "a.py"}, "--exit-zero -v.py a.py", "", false},
		{[]string{"--pre-commit", "--base", "main", "-v.py", "--exit-zero"}, "-v.py --exit-zero", "main", false},
		{[]string{"--pre-commit", "--base=dev", "a.py", "--full"}, "a.py --full", "dev", false},
		{[]string{"--pre-commit", "--", "--base"}, "--base", "", false},
		// Not the hook: flags among the paths, as before.
		{[]string{"a.py", "--exit-zero"}, "a.py", "", true},
	} {
		var f checkFlags
		fs := newCheckFlagSet(&f, io.Discard)
		paths, err := parseArgs(fs, c.args)
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		if strings.Join(paths, " ") != c.paths || f.base != c.base || f.view.exitZero != c.exit0 {
			t.Errorf("%q: paths %q, --base %q, --exit-zero %v; want %q, %q, %v", c.args, paths, f.base, f.view.exitZero, c.paths, c.base, c.exit0)
		}
	}
}

// failingWriter fails every write, as stdout does on a full disk.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A write error on stdout is exit 2 with a message, never a silent 0 or 1:
// rules, --version, --fix --dry-run, new --dry-run and a check.
func TestStdoutWriteError(t *testing.T) {
	fixable := goodCopy(t)
	ops := filepath.Join(fixable, "src/tilegym/ops/ops.py")
	data, err := os.ReadFile(ops)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("    out: Optional[torch.Tensor] = None,\n    **kwargs: Any,\n"), []byte("    out: Optional[torch.Tensor] = None,\n"), 1)
	if err := os.WriteFile(ops, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"rules"},
		{"rules", "--format", "json"},
		{"--version"},
		{"--fix", "--dry-run", fixable},
		{"new", "--root", goodCopy(t), "--dry-run", "my_op"},
		{goodCopy(t)},
	} {
		var errOut bytes.Buffer
		code := run(args, failingWriter{}, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), "no space left on device") {
			t.Errorf("%q with a failing stdout: exit %d, stderr %q; want 2 and the error", args, code, errOut.String())
		}
	}
}

// --sarif FILE replaces a symbolic link the checked repository holds at
// FILE instead of writing where it points; --summary refuses to append
// through one.
func TestReportFileSymlink(t *testing.T) {
	dir := goodCopy(t)
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sarif := filepath.Join(dir, "tilegym-lint.sarif")
	summary := filepath.Join(dir, "summary.md")
	for _, l := range []string{sarif, summary} {
		if err := os.Symlink(victim, l); err != nil {
			t.Fatal(err)
		}
	}
	code, _, errOut := runCLI("--sarif", sarif, dir)
	if code != 0 {
		t.Fatalf("--sarif over a link: exit %d: %s", code, errOut)
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
		t.Errorf("--sarif wrote through a symbolic link: the target holds %q", data)
	}
	if fi, err := os.Lstat(sarif); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("--sarif: %s is not the new regular file (%v)", sarif, err)
	} else if data, _ := os.ReadFile(sarif); !bytes.Contains(data, []byte(`"version": "2.1.0"`)) {
		t.Errorf("--sarif: %s holds no SARIF", sarif)
	}
	code, _, errOut = runCLI("--summary", summary, dir)
	if code != 2 || !strings.Contains(errOut, "symbolic link") {
		t.Errorf("--summary through a link: exit %d, stderr %q; want 2", code, errOut)
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
		t.Errorf("--summary wrote through a symbolic link: the target holds %q", data)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".tilegym-lint.sarif.*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A sparse checkout lacks the files outside its cone: the run says so
// rather than only reporting the ops whose tests are absent as failing.
func TestSparseCheckoutSaysWhy(t *testing.T) {
	dir := testrepo.GitRepo(t, "../../fixtures/good", nil)
	testrepo.GitRun(t, dir, "sparse-checkout", "set", "src")
	if _, err := os.Stat(filepath.Join(dir, "tests")); err == nil {
		t.Skip("this git does not make sparse checkouts")
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{dir}, &stdout, &stderr); code != 1 {
		t.Errorf("exit %d, want 1 (the ops' tests are absent)\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "sparse checkout") {
		t.Errorf("stderr does not say it is a sparse checkout:\n%s", stderr.String())
	}
	// A full checkout says nothing of the kind.
	testrepo.GitRun(t, dir, "sparse-checkout", "disable")
	stderr.Reset()
	run([]string{dir}, &stdout, &stderr)
	if strings.Contains(stderr.String(), "sparse") {
		t.Errorf("a full checkout: %s", stderr.String())
	}
}

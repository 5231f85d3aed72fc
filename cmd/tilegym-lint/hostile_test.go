package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
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

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/report"
)

// brokenCopy is fixtures/good with softmax's import missing from
// cutile/__init__.py (TG303, an error) and silu_and_mul's docstring gone
// (TG106, a warning).
func brokenCopy(t *testing.T) string {
	t.Helper()
	dir := goodCopy(t)
	edit := func(file, old, new string) {
		p := filepath.Join(dir, file)
		data, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(data), old) {
			t.Fatalf("%s: %v, or no %q", file, err, old)
		}
		os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644)
	}
	edit("src/tilegym/ops/cutile/__init__.py", "    from .softmax import softmax\n", "")
	edit("src/tilegym/ops/ops.py", "    SiLU of the first half times the second half.\n", "")
	edit("src/tilegym/ops/ops.py", "    \"\"\"\n\n    Args:\n        input: input tensor\n        out: optional output tensor\n\n    Returns:\n        The result tensor.\n    \"\"\"\n", "")
	return dir
}

func TestBadFlagCombinations(t *testing.T) {
	dir := goodCopy(t)
	for name, tt := range map[string]struct {
		args []string
		want string
	}{
		"empty config":     {[]string{"--config", "", dir}, `--config ""`},
		"full and quiet":   {[]string{"--full", "--quiet", dir}, "--full and --quiet conflict"},
		"negative timeout": {[]string{"--verify-timeout", "-5s", dir}, "--verify-timeout -5s: want a positive duration"},
		"zero timeout":     {[]string{"--verify-timeout", "0", dir}, "want a positive duration"},
		"format typo":      {[]string{"--format", "jsn", dir}, `did you mean "json"?`},
		"statistics json":  {[]string{"--statistics", "--format", "json", dir}, "--statistics is a text view"},
		"checklist full":   {[]string{"--format", "checklist", "--full", dir}, "--format checklist shows every step"},
		"json quiet":       {[]string{"--format", "json", "--quiet", dir}, "--quiet is a text view; --format json always writes every finding"},
		"sarif full":       {[]string{"--format", "sarif", "--full", dir}, "--full is a text view"},
		"github quiet":     {[]string{"--format", "github", "--quiet", dir}, "--quiet is a text view"},
		"unknown select":   {[]string{"--select", "TG9", dir}, `--select TG9: no rule id is or starts with "TG9"`},
		"select typo":      {[]string{"--ignore", "TG1055", dir}, `did you mean "TG105"?`},
		"op typo":          {[]string{"--op", "sofmax", dir}, "no op named sofmax (did you mean softmax?)"},
	} {
		code, _, errOut := runCLI(tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", name, code, errOut, tt.want)
		}
	}
}

func TestConfigKeySuggestion(t *testing.T) {
	dir := goodCopy(t)
	cfg := filepath.Join(t.TempDir(), "tilegym-lint.toml")
	os.WriteFile(cfg, []byte("disabel = [\"TG105\"]\n[skip.sofmax]\n\"5\" = \"x\"\n"), 0o644)
	code, _, errOut := runCLI("--config", cfg, dir)
	if code != 2 || !strings.Contains(errOut, `unknown key "disabel"; did you mean "disable"?`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	os.WriteFile(cfg, []byte("[skip.sofmax]\n\"5\" = \"x\"\n"), 0o644)
	code, _, errOut = runCLI("--config", cfg, dir)
	if code != 2 || !strings.Contains(errOut, `no op named "sofmax" in this checkout; did you mean "softmax"?`) {
		t.Errorf("skip: exit %d, stderr %q", code, errOut)
	}
}

func TestSelectIgnoreExitZero(t *testing.T) {
	dir := brokenCopy(t)
	code, out, _ := runCLI("--statistics", dir)
	if code != 1 || !strings.Contains(out, "TG303  error") || !strings.Contains(out, "TG106  warning") {
		t.Fatalf("statistics: exit %d\n%s", code, out)
	}
	// Ignoring the error's rule (by prefix): exit 0, the warning stays.
	code, out, _ = runCLI("--statistics", "--ignore", "TG3", dir)
	if code != 0 || strings.Contains(out, "TG303") || !strings.Contains(out, "TG106") {
		t.Errorf("--ignore TG3: exit %d\n%s", code, out)
	}
	// Selecting only Step 1's rules and TG303 by id.
	code, out, _ = runCLI("--statistics", "--select", "tg1,TG303", dir)
	if code != 1 || !strings.Contains(out, "TG303") || !strings.Contains(out, "TG106") {
		t.Errorf("--select: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI("--statistics", "--select", "TG1", dir)
	if code != 0 || strings.Contains(out, "TG303") {
		t.Errorf("--select TG1: exit %d\n%s", code, out)
	}
	// --ignore wins over --select, as in ruff.
	if code, out, _ = runCLI("--statistics", "--select", "TG3", "--ignore", "TG303", dir); code != 0 || strings.Contains(out, "TG303") {
		t.Errorf("--select TG3 --ignore TG303: exit %d\n%s", code, out)
	}
	if code, _, _ := runCLI("--exit-zero", dir); code != 0 {
		t.Errorf("--exit-zero: exit %d", code)
	}
	// 2 stays 2.
	if code, _, _ := runCLI("--exit-zero", "--op", "nosuch", dir); code != 2 {
		t.Errorf("--exit-zero on a usage error: exit %d", code)
	}
}

func TestViewsCLI(t *testing.T) {
	dir := brokenCopy(t)
	outs := map[string]string{}
	for _, args := range [][]string{{}, {"--full"}, {"--quiet"}, {"--format", "checklist"}, {"--statistics"}} {
		code, out, errOut := runCLI(append(args, dir)...)
		if code != 1 {
			t.Errorf("%v: exit %d %s", args, code, errOut)
		}
		key := strings.Join(args, " ")
		for k, o := range outs {
			if o == out {
				t.Errorf("%q and %q print the same", k, key)
			}
		}
		outs[key] = out
	}
	if !strings.Contains(outs["--format checklist"], "- [ ] Step 3: Register in __init__.py (cutile)\n") {
		t.Errorf("checklist:\n%s", outs["--format checklist"])
	}
}

func TestNoColorOnDevNull(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	if useColor(f) {
		t.Error("colour on /dev/null")
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Skip("/dev/null is not a character device here")
	}
}

func TestCompletion(t *testing.T) {
	code, script, errOut := runCLI("completion", "bash")
	if code != 0 {
		t.Fatalf("completion bash: exit %d %s", code, errOut)
	}
	if code, _, _ := runCLI("completion", "fish"); code != 2 {
		t.Errorf("completion fish: exit %d", code)
	}
	code, zsh, _ := runCLI("completion", "zsh")
	if code != 0 || !strings.HasPrefix(zsh, "#compdef tilegym-lint\n") || !strings.Contains(zsh, "'--select=[") || !strings.Contains(zsh, "TG303") {
		t.Errorf("completion zsh: exit %d\n%s", code, zsh)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	file := filepath.Join(t.TempDir(), "c.bash")
	os.WriteFile(file, []byte(script), 0o644)
	if out, err := exec.Command(bash, "-n", file).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, out)
	}
	// Complete words as bash would and print COMPREPLY.
	complete := func(words ...string) string {
		t.Helper()
		prog := "source " + file + "\nCOMP_WORDS=("
		for _, w := range words {
			prog += "'" + w + "' "
		}
		prog += fmt.Sprintf(")\nCOMP_CWORD=%d\n_tilegym_lint\necho \"${COMPREPLY[*]}\"\n", len(words)-1)
		cmd := exec.Command(bash, "--norc", "-c", prog)
		cmd.Dir = t.TempDir() // no file names to complete
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", words, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	// The Step 1 rules, completed after "TG1,": every TG10x of the catalog.
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	var step1 []string
	for _, r := range cat.Rules {
		if strings.HasPrefix(r.ID, "TG10") {
			step1 = append(step1, "TG1,"+r.ID)
		}
	}
	for _, tt := range []struct {
		words []string
		want  string
	}{
		{[]string{"tilegym-lint", "--sel"}, "--select"},
		{[]string{"tilegym-lint", "--st"}, "--staged --statistics --strict"},
		{[]string{"tilegym-lint", "--format", "ch"}, "checklist"},
		{[]string{"tilegym-lint", "--ignore", "TG30"}, "TG301 TG302 TG303 TG304"},
		{[]string{"tilegym-lint", "--select", "TG1,TG10"}, strings.Join(step1, " ")},
		{[]string{"tilegym-lint", "rules", "TG60"}, "TG601"},
		{[]string{"tilegym-lint", "completion", "z"}, "zsh"},
		{[]string{"tilegym-lint", "comp"}, "completion"},
		// new's flags, from its flag set.
		{[]string{"tilegym-lint", "new", "--"}, "--dry-run --root --suite"},
		{[]string{"tilegym-lint", "new", "--suite", ""}, ""},
	} {
		if got := complete(tt.words...); got != tt.want {
			t.Errorf("complete %q = %q, want %q", tt.words, got, tt.want)
		}
	}
}

// The checklist comes before any code (the workflow's first rule):
// --format checklist --op NEW prints the six unchecked steps of an op the
// checkout does not have yet, and how to start it; once scaffolded, the
// same command checks Step 1.
func TestChecklistBeforeTheOp(t *testing.T) {
	dir := goodCopy(t)
	code, out, errOut := runCLI("--format", "checklist", "--op", "my_op", dir)
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 1 and nothing\n%s", code, errOut, out)
	}
	for n := 1; n <= 6; n++ {
		if !strings.Contains(out, fmt.Sprintf("- [ ] Step %d: %s\n", n, report.StepTitles[n-1])) {
			t.Errorf("step %d is not an unchecked item:\n%s", n, out)
		}
	}
	if !strings.Contains(out, "my_op: FAIL (not started") || !strings.Contains(out, "`tilegym-lint new my_op`") ||
		!strings.HasSuffix(out, "1 ops, 1 failed, 0 errors, 0 warnings\n") {
		t.Errorf("heading, hint or summary:\n%s", out)
	}
	// A suite op is started with --suite.
	if code, out, _ := runCLI("--format", "checklist", "--op", "demo.my_op", dir); code != 1 || !strings.Contains(out, "`tilegym-lint new --suite demo my_op`") {
		t.Errorf("suite op: exit %d\n%s", code, out)
	}
	// Not an op name, or another format: still a usage error.
	for _, args := range [][]string{{"--format", "checklist", "--op", "my-op"}, {"--op", "my_op"}} {
		if code, _, errOut := runCLI(append(args, dir)...); code != 2 || !strings.Contains(errOut, "no op named") {
			t.Errorf("%v: exit %d, stderr %q; want 2", args, code, errOut)
		}
	}
	if code, _, errOut := runCLI("new", "--root", dir, "my_op"); code != 0 {
		t.Fatalf("new: exit %d: %s", code, errOut)
	}
	_, out, _ = runCLI("--format", "checklist", "--op", "my_op", dir)
	if !strings.Contains(out, "- [x] Step 1: ") || strings.Contains(out, "not started") {
		t.Errorf("after new, Step 1 is not checked:\n%s", out)
	}
}

// TestOutputSaysWhatFixDoes: a finding --fix fixes is marked [*] in the
// text and the checklist, named fixable in annotations and the job
// summary, and a closing line counts them with the command; after --fix
// nothing is marked and the line is gone.
func TestOutputSaysWhatFixDoes(t *testing.T) {
	dir := brokenCopy(t)
	summary := filepath.Join(t.TempDir(), "summary.md")
	_, out, _ := runCLI("--summary", summary, dir)
	if !strings.Contains(out, ": TG303 [*] add ") || !strings.Contains(out, "\n1 fixable with `tilegym-lint --fix` (marked [*])\n") {
		t.Errorf("text:\n%s", out)
	}
	if strings.Contains(out, "TG106 [*]") {
		t.Errorf("a finding without a fix is marked:\n%s", out)
	}
	if md, _ := os.ReadFile(summary); !strings.Contains(string(md), "fixable with `tilegym-lint --fix`") {
		t.Errorf("summary:\n%s", md)
	}
	if _, out, _ := runCLI("--format", "checklist", "--op", "softmax", dir); !strings.Contains(out, ": TG303 [*] ") || !strings.Contains(out, "1 fixable with") {
		t.Errorf("checklist:\n%s", out)
	}
	if _, out, _ := runCLI("--format", "github", dir); !strings.Contains(out, "TG303 ") || !strings.Contains(out, "[fixable with tilegym-lint --fix]") {
		t.Errorf("annotations:\n%s", out)
	}
	if code, _, errOut := runCLI("--fix", dir); code == 2 {
		t.Fatal(errOut)
	}
	if _, out, _ := runCLI(dir); strings.Contains(out, "[*]") || strings.Contains(out, "fixable with") {
		t.Errorf("after --fix:\n%s", out)
	}
}

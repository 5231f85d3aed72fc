package report_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/internal/fixturetest"
	"github.com/tilegym/tilegym-lint/report"
)

// viewsCheckout is fixtures/good changed so that the views differ: softmax
// fails Step 3 (an import missing from cutile/__init__.py) and has a
// warning in Step 1 (no out parameter) -- by default its Step 1 is hidden;
// silu_and_mul has only a warning (no docstring) -- one line; demo.scale
// skips Step 5 in writing; relu is clean; a broken test file is a finding of
// no op.
func viewsCheckout(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../fixtures/good")); err != nil {
		t.Fatal(err)
	}
	edit := func(file, old, new string) {
		t.Helper()
		p := filepath.Join(dir, file)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("%s: no %q", file, old)
		}
		if err := os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("src/tilegym/ops/cutile/__init__.py", "    from .softmax import softmax\n", "")
	edit("src/tilegym/ops/ops.py", "    dim: int = -1,\n    out: Optional[torch.Tensor] = None,\n", "    dim: int = -1,\n")
	edit("src/tilegym/ops/ops.py", `    """
    SiLU of the first half times the second half.

    Args:
        input: input tensor
        out: optional output tensor

    Returns:
        The result tensor.
    """
`, "")
	edit("src/tilegym/suites/demo/ops.py", `@dispatch("demo.scale")`, "# tilegym-lint: skip-step=5 reason=\"timed with the suite's other ops\"\n@dispatch(\"demo.scale\")")
	if err := os.Remove(filepath.Join(dir, "tests/benchmark/suites/demo/bench_scale.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tests/ops/test_zz_broken.py"), []byte("def f(:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestViewsGolden shows the default, --full, --quiet, checklist and
// statistics views of one checkout; they must all differ.
func TestViewsGolden(t *testing.T) {
	res := fixturetest.Check(t, viewsCheckout(t))
	var all bytes.Buffer
	outs := map[string]string{}
	for _, v := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"default", func(b *bytes.Buffer) error { return report.WriteText(b, res, report.TextOptions{}) }},
		{"--full", func(b *bytes.Buffer) error { return report.WriteText(b, res, report.TextOptions{Full: true}) }},
		{"--quiet", func(b *bytes.Buffer) error { return report.WriteText(b, res, report.TextOptions{Quiet: true}) }},
		{"--format checklist", func(b *bytes.Buffer) error { return report.WriteChecklist(b, res, report.TextOptions{}) }},
		{"--statistics", func(b *bytes.Buffer) error { return report.WriteStatistics(b, res, report.TextOptions{}) }},
	} {
		var b bytes.Buffer
		if err := v.write(&b); err != nil {
			t.Fatal(err)
		}
		for name, out := range outs {
			if out == b.String() {
				t.Errorf("%s and %s print the same", name, v.name)
			}
		}
		outs[v.name] = b.String()
		all.WriteString("=== " + v.name + "\n" + b.String())
	}
	fixturetest.CompareGolden(t, "testdata/views.golden", all.Bytes())

	// What each view promises, beyond the golden file.
	def, full, quiet, list := outs["default"], outs["--full"], outs["--quiet"], outs["--format checklist"]
	for _, want := range []string{
		"silu_and_mul: pass, 1 warning (TG106 ×1); step 6:\n  $ pytest tests/ops/test_silu_and_mul.py -v\n",
		"demo.scale: pass, step 5 skipped; step 6: pytest tests/suites/demo/test_scale.py -v\n",
		"softmax: FAIL (step 3)\n",
		"+ 1 finding (TG105 ×1) in the other steps",
		"\n  $ pytest tests/ops/activation/test_relu.py -v\n",
		"step 6 of every passing op also: pre-commit run -a\n",
	} {
		if !strings.Contains(def, want) {
			t.Errorf("default view lacks %q", want)
		}
	}
	if strings.Contains(def, "1 pass    Register dispatch") {
		t.Error("default view shows a passing step")
	}
	if strings.Contains(quiet, "TG105") || strings.Contains(quiet, "TG106") || strings.Contains(quiet, "relu") {
		t.Errorf("--quiet shows more than the errors:\n%s", quiet)
	}
	if !strings.Contains(quiet, "TG303") || !strings.Contains(quiet, "TG001") {
		t.Errorf("--quiet lacks an error:\n%s", quiet)
	}
	if strings.Count(full, "Register dispatch interface in ops.py") != len(res.Ops) {
		t.Errorf("--full does not show every step of every op")
	}
	for _, want := range []string{
		"- [x] Step 1: Register dispatch interface in ops.py\n",
		"- [ ] Step 3: Register in __init__.py (cutile)\n  - src/tilegym/ops/cutile/__init__.py:",
		"- [x] Step 5: Add benchmark to tests/benchmark (skipped: timed with the suite's other ops)\n",
		"- [ ] Step 6: Verify (run pytest + lint)\n  - run `pytest tests/ops/test_softmax.py -v`\n",
	} {
		if !strings.Contains(list, want) {
			t.Errorf("checklist lacks %q:\n%s", want, list)
		}
	}
	for name, out := range outs {
		for _, l := range strings.Split(out, "\n") {
			if n := len([]rune(l)); n > report.DefaultWidth && name != "--format checklist" {
				t.Errorf("%s: line of %d columns: %q", name, n, l)
			}
		}
	}
}

// TestChangeModeWords: an op whose only error is pre-existing is not
// called FAIL, its finding is marked, and RunFailed agrees; with strict it
// fails.
func TestChangeModeWords(t *testing.T) {
	res := fixturetest.Check(t, viewsCheckout(t))
	for i := range res.Diagnostics {
		res.Diagnostics[i].PreExisting = true
	}
	var b bytes.Buffer
	if err := report.WriteText(&b, res, report.TextOptions{ChangeMode: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "FAIL") {
		t.Errorf("pre-existing errors called FAIL:\n%s", out)
	}
	if !strings.Contains(out, "softmax: pass, 1 warning (TG105 ×1), 1 pre-existing error (TG303 ×1)") {
		t.Errorf("softmax's line:\n%s", out)
	}
	if !strings.Contains(out, "TG001 (pre-existing)") || !strings.Contains(out, ", 0 failed,") {
		t.Errorf("pre-existing marks or summary:\n%s", out)
	}
	if n := len(res.Diagnostics); !strings.Contains(out, fmt.Sprintf(" (%d findings pre-existing)\n", n)) {
		t.Errorf("summary does not count %d findings pre-existing:\n%s", n, out)
	}
	res1 := *res
	res1.Diagnostics = res.Diagnostics[:1]
	b.Reset()
	report.WriteText(&b, &res1, report.TextOptions{ChangeMode: true})
	if !strings.Contains(b.String(), " (1 finding pre-existing)\n") {
		t.Errorf("one finding pre-existing:\n%s", b.String())
	}
	if report.RunFailed(res, true, false) {
		t.Error("RunFailed with only pre-existing errors")
	}
	b.Reset()
	report.WriteText(&b, res, report.TextOptions{ChangeMode: true, Strict: true})
	if !strings.Contains(b.String(), "softmax: FAIL (step 3)") || !report.RunFailed(res, true, true) {
		t.Errorf("strict: not FAIL:\n%s", b.String())
	}
	// One new error: FAIL again.
	for i := range res.Diagnostics {
		if res.Diagnostics[i].Rule.ID == "TG303" {
			res.Diagnostics[i].PreExisting = false
		}
	}
	b.Reset()
	report.WriteText(&b, res, report.TextOptions{ChangeMode: true})
	if !strings.Contains(b.String(), "softmax: FAIL (step 3)") || !report.RunFailed(res, true, false) {
		t.Errorf("new error: not FAIL:\n%s", b.String())
	}
}

// TestVerifyOneLine: after --verify, an op's line says how Step 6 went and
// names a failed optional command as verify prints it; a failed required
// command makes the op FAIL with the command and its output.
func TestVerifyOneLine(t *testing.T) {
	res := fixturetest.Check(t, "../fixtures/good")
	for i := range res.Ops {
		s := &res.Ops[i].Steps[5]
		s.Status = checker.StatusPass
		s.Runs = []checker.CommandRun{
			{Cmd: "pytest tests/ops/test_x.py -v", Passed: true},
			{Cmd: "python tests/benchmark/bench_x.py", Optional: true, ExitCode: 3, Tail: "boom"},
		}
	}
	s := &res.Ops[0].Steps[5]
	s.Status = checker.StatusFail
	s.Runs[0] = checker.CommandRun{Cmd: "pytest tests/ops/test_x.py -v", ExitCode: 1, Tail: "1 failed"}
	var b bytes.Buffer
	if err := report.WriteText(&b, res, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "pass ()") {
		t.Errorf("empty verdict:\n%s", out)
	}
	for _, want := range []string{
		res.Ops[0].Name + ": FAIL (step 6)\n",
		"    $ pytest tests/ops/test_x.py -v: FAIL (exit 1)\n      | 1 failed\n",
		res.Ops[1].Name + ": pass\n  step 6: pass (1 of 2 commands passed; $ python tests/benchmark/bench_x.py: failed (optional) (exit 3))\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if !report.RunFailed(res, false, false) {
		t.Error("RunFailed false with a failed verify command")
	}
}

// TestControlCharacters: a file name with a newline or an escape stays on
// its line in the text, checklist and GitHub outputs.
func TestControlCharacters(t *testing.T) {
	res := fixturetest.Check(t, viewsCheckout(t))
	for i := range res.Diagnostics {
		if res.Diagnostics[i].Rule.ID == "TG001" {
			res.Diagnostics[i].File = "tests/ops/test_\nx\x1b[31m.py"
			res.Diagnostics[i].Message = "tests/ops/test_\nx\x1b[31m.py does not parse"
		}
	}
	var text, list, gh bytes.Buffer
	report.WriteText(&text, res, report.TextOptions{})
	report.WriteChecklist(&list, res, report.TextOptions{})
	report.WriteAnnotations(&gh, res, report.AnnotationOptions{})
	for name, out := range map[string]string{"text": text.String(), "checklist": list.String(), "github": gh.String()} {
		if strings.Contains(out, "\x1b") || strings.Contains(out, "test_\nx") {
			t.Errorf("%s: control character written raw:\n%q", name, out)
		}
	}
	if !strings.Contains(text.String(), `tests/ops/test_\nx\x1b[31m.py:1:`) {
		t.Errorf("text: name not escaped as expected:\n%s", text.String())
	}
	if !strings.Contains(gh.String(), `file=tests/ops/test_%0Ax\x1b[31m.py`) {
		t.Errorf("github: name not escaped as expected:\n%s", gh.String())
	}
}

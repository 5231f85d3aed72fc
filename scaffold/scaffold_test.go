package scaffold

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/python/parser"
	"github.com/tilegym/tilegym-lint/source"
)

// copyTree copies the regular files of src to a new temporary directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// lint runs the checker as cmd/tilegym-lint does (built-in catalog, the
// repository's configuration, its layout).
func lint(t *testing.T, root string) *checker.Result {
	t.Helper()
	cat := testrepo.Catalog(t)
	cfgPath, err := config.Find(root)
	if err != nil {
		t.Fatal(err)
	}
	var cfg *config.Config
	if cfgPath != "" {
		if cfg, err = config.Load(cfgPath); err != nil {
			t.Fatal(err)
		}
	}
	res, err := checker.CheckSource(&source.DiskSource{Dir: root}, config.NewSetup(cat, cfg), checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("checker errors: %v", res.Errors)
	}
	return res
}

// setup is the check set-up of the checkout at root, as the command opens it.
func setup(t *testing.T, root string) *config.Setup {
	t.Helper()
	s, err := config.Open(testrepo.Catalog(t), root, "", config.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var lineRef = regexp.MustCompile(`\.py:\d+`)

// findings returns "RULE FILE message" of the findings of op ("" for the
// others, keyed without positions since the scaffold moves lines).
func findings(res *checker.Result, op string, others bool) []string {
	var out []string
	for _, d := range res.Diagnostics {
		if (d.Op == op) != others {
			msg := lineRef.ReplaceAllString(d.Message, ".py:N") // the scaffold moves lines
			out = append(out, fmt.Sprintf("%s %s %s %s", d.Rule.ID, d.Op, d.File, msg))
		}
	}
	sort.Strings(out)
	return out
}

func pyCompile(t *testing.T, root string, files []string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Log("no python3: py_compile skipped")
		return
	}
	args := []string{"-m", "py_compile"}
	for _, f := range files {
		args = append(args, filepath.Join(root, filepath.FromSlash(f)))
	}
	cmd := exec.Command(py, args...)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONPYCACHEPREFIX="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("py_compile: %v\n%s", err, out)
	}
}

// checkScaffold scaffolds op (in suite) into a copy of repo and checks the
// promises: the files parse (ours and python3's parser), the linter reports
// for the new op exactly the three placeholders a person must replace
// (TG209, TG407, TG512: Steps 2, 4 and 5 fail on them, Steps 1 and 3
// pass), the other ops' findings are unchanged, and each file a person must
// finish holds exactly one placeholder.
func checkScaffold(t *testing.T, repo, op, suite string) (string, *Result) {
	t.Helper()
	root := copyTree(t, repo)
	before := lint(t, root)
	res, err := New(Options{Root: root, Setup: setup(t, root), Op: op, Suite: suite})
	if err != nil {
		t.Fatal(err)
	}
	var written []string
	for _, f := range res.Created {
		written = append(written, f.Path)
	}
	for _, f := range res.Edited {
		if !f.Written {
			t.Errorf("%s not written", f.File)
		}
		written = append(written, f.File)
	}
	if len(res.Created) != 3 || len(res.Edited) != 2 {
		t.Fatalf("created %d, edited %d: %+v", len(res.Created), len(res.Edited), res)
	}
	for _, f := range written {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parser.ParseFile(f, data); err != nil {
			t.Fatalf("%s does not parse: %v", f, err)
		}
	}
	pyCompile(t, root, written)

	after := lint(t, root)
	var opRes *checker.OpResult
	for i := range after.Ops {
		if after.Ops[i].Name == res.Dispatch {
			opRes = &after.Ops[i]
		}
	}
	if opRes == nil {
		t.Fatalf("the linter does not see the op %s", res.Dispatch)
	}
	for i, s := range opRes.Steps {
		want := checker.StatusPass
		switch i + 1 {
		case 2, 4, 5:
			want = checker.StatusFail // the placeholders
		case 6:
			want = checker.StatusNotRun
		}
		if s.Status != want {
			t.Errorf("step %d: %s, want %s", i+1, s.Status, want)
		}
	}
	d := res.Dispatch
	kernel, test, bench := res.Created[0].Path, res.Created[1].Path, res.Created[2].Path
	wantFindings := []string{
		"TG209 " + d + " " + kernel + " " + d + ": the kernel " + op + "_kernel_ct in " + kernel + " is still the tilegym-lint new placeholder; write the kernel and delete the raise",
		"TG407 " + d + " " + test + " " + d + ": reference in " + test + " is still the tilegym-lint new placeholder; write the PyTorch reference the test compares with",
		"TG512 " + d + " " + bench + " " + d + ": reference_" + op + " in " + bench + " is still the tilegym-lint new placeholder; write the PyTorch reference the benchmark checks against",
	}
	got := findings(after, res.Dispatch, false)
	if strings.Join(got, "\n") != strings.Join(wantFindings, "\n") {
		t.Errorf("findings of %s:\n%s\nwant:\n%s", res.Dispatch, strings.Join(got, "\n"), strings.Join(wantFindings, "\n"))
	}
	if b, a := findings(before, res.Dispatch, true), findings(after, res.Dispatch, true); strings.Join(b, "\n") != strings.Join(a, "\n") {
		t.Errorf("the other ops' findings changed:\nbefore:\n%s\nafter:\n%s", strings.Join(b, "\n"), strings.Join(a, "\n"))
	}

	// The placeholders are the three findings above (the linter finds them);
	// the files the scaffold edits hold none.
	for _, path := range []string{PathsFor(op, suite).Dispatch, PathsFor(op, suite).CuTile + "/__init__.py"} {
		data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
		if strings.Contains(string(data), Marker) {
			t.Errorf("%s has a placeholder", path)
		}
	}
	return root, res
}

func TestScaffoldGoodCore(t *testing.T) {
	root, res := checkScaffold(t, "../fixtures/good", "my_op", "")
	edited := map[string]string{}
	for _, f := range res.Edited {
		edited[f.File] = f.Diff
	}
	wantInit := `--- a/src/tilegym/ops/cutile/__init__.py
+++ b/src/tilegym/ops/cutile/__init__.py
@@ -4,13 +4,16 @@
 
 if is_backend_available("cutile"):
     from . import activation
+    from . import my_op
     from . import silu_and_mul
     from . import softmax
 
+    from .my_op import my_op
     from .silu_and_mul import silu_and_mul
     from .softmax import softmax
 
     __all__ = [
+        "my_op",
         "silu_and_mul",
         "softmax",
     ]
`
	if got := edited["src/tilegym/ops/cutile/__init__.py"]; got != wantInit {
		t.Errorf("__init__ diff:\n%s\nwant:\n%s", got, wantInit)
	}
	ops, _ := os.ReadFile(filepath.Join(root, "src/tilegym/ops/ops.py"))
	if !strings.HasSuffix(string(ops), "    raise NotImplementedError\n\n\n@dispatch(\n    \"my_op\",\n)\ndef my_op(\n") &&
		!strings.Contains(string(ops), "    raise NotImplementedError\n\n\n@dispatch(\n    \"my_op\",\n)\ndef my_op(\n") {
		t.Errorf("the stub is not after the last stub with two blank lines:\n%s", ops)
	}
	if !strings.Contains(string(ops), `raise NotImplementedError(f"my_op is not implemented for {get_current_backend()}")`) {
		t.Error("the stub does not use get_current_backend, which ops.py imports")
	}
}

func TestScaffoldGoodSuite(t *testing.T) {
	root, _ := checkScaffold(t, "../fixtures/good", "shift", "demo")
	init, _ := os.ReadFile(filepath.Join(root, "src/tilegym/suites/demo/cutile/__init__.py"))
	want := "\"\"\"cuTile implementations of the demo suite.\"\"\"\n\nfrom . import scale  # noqa: F401\nfrom . import shift  # noqa: F401\nfrom .shift import shift\n"
	if string(init) != want {
		t.Errorf("suite __init__:\n%s\nwant:\n%s", init, want)
	}
	ops, _ := os.ReadFile(filepath.Join(root, "src/tilegym/suites/demo/ops.py"))
	if !strings.Contains(string(ops), `raise NotImplementedError("demo.shift is not implemented for this backend")`) {
		t.Error("the suite stub must not use get_current_backend, which demo/ops.py does not import")
	}
}

func tilegymCheckout(t *testing.T) string {
	dir := realtree.Need(t)
	if _, err := os.Stat(filepath.Join(dir, "src/tilegym/ops/ops.py")); err != nil {
		t.Skipf("%s has no src/tilegym/ops/ops.py", dir)
	}
	return dir
}

func TestScaffoldTileGymCore(t *testing.T) {
	root, _ := checkScaffold(t, tilegymCheckout(t), "my_op", "")
	init, _ := os.ReadFile(filepath.Join(root, "src/tilegym/ops/cutile/__init__.py"))
	s := string(init)
	for _, want := range []string{
		"    from . import moe_align_block\n    from . import my_op\n    from . import rms_norm\n",
		"    from .moe_align_block import moe_align_block_size\n    from .my_op import my_op\n    from .recurrent_gated_delta_rule import recurrent_gated_delta_rule\n",
		// __all__ is not sorted there: appended.
		"        \"tile_nvfp4_quantize\",\n        \"my_op\",\n    ]\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("__init__ lacks %q:\n%s", want, s)
		}
	}
}

func TestScaffoldTileGymSuite(t *testing.T) {
	root, _ := checkScaffold(t, tilegymCheckout(t), "my_op", "liger")
	ops, _ := os.ReadFile(filepath.Join(root, "src/tilegym/suites/liger/ops.py"))
	// liger/ops.py imports no Any: the scaffold adds it in sorted place.
	if !strings.Contains(string(ops), "from typing import Any\nfrom typing import Callable\n") {
		t.Errorf("no 'from typing import Any' in sorted place:\n%.600s", ops)
	}
}

func TestRefusals(t *testing.T) {
	root := copyTree(t, "../fixtures/good")
	snapshot := func() map[string]string {
		m := map[string]string{}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				m[p] = string(b)
			}
			return nil
		})
		return m
	}
	orig := snapshot()
	os.WriteFile(filepath.Join(root, "tests/benchmark/bench_taken.py"), []byte("# mine\n"), 0o644)
	cases := []struct {
		opt  Options
		want string
	}{
		{Options{Op: "softmax"}, `already dispatches "softmax"`},
		{Options{Op: "silu_and_mul"}, `already dispatches "silu_and_mul"`},
		{Options{Op: "activation"}, "already imports the module activation"},
		{Options{Op: "taken"}, "tests/benchmark/bench_taken.py already exists"},
		{Options{Op: "scale", Suite: "demo"}, `already dispatches "demo.scale"`},
		{Options{Op: "x", Suite: "nosuch"}, `no suite "nosuch"`},
		{Options{Op: "my-op"}, "not a Python identifier"},
		{Options{Op: "1op"}, "not a Python identifier"},
		{Options{Op: "class"}, "is a Python keyword"},
		{Options{Op: "None"}, "is a Python keyword"},
		{Options{Op: "ct"}, `"ct" is a name the new files import`},
		{Options{Op: "torch"}, "would shadow it"},
		{Options{Op: "triton"}, "would shadow it"},
		{Options{Op: "register_impl"}, "would shadow it"},
		{Options{Op: ""}, "empty"},
		{Options{Op: "x", Suite: "../x"}, "suite name"},
		{Options{Op: "op", DryRun: true}, ""}, // a dry run writes nothing either
	}
	for _, c := range cases {
		c.opt.Root, c.opt.Setup = root, setup(t, root)
		_, err := New(c.opt)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.opt, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: error %v, want %q", c.opt, err, c.want)
		}
	}
	now := snapshot()
	delete(now, filepath.Join(root, "tests/benchmark/bench_taken.py"))
	if len(now) != len(orig) {
		t.Fatalf("files created: %d before, %d after", len(orig), len(now))
	}
	for p, c := range orig {
		if now[p] != c {
			t.Errorf("%s changed", p)
		}
	}
}

func TestDryRunDiffs(t *testing.T) {
	root := copyTree(t, "../fixtures/good")
	res, err := New(Options{Root: root, Setup: setup(t, root), Op: "my_op", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Edited) != 2 || res.Edited[0].Written || !strings.Contains(res.Edited[0].Diff, "+    from . import my_op\n") {
		t.Fatalf("edited: %+v", res.Edited)
	}
	if _, err := os.Stat(filepath.Join(root, "src/tilegym/ops/cutile/my_op.py")); err == nil {
		t.Fatal("dry run created a file")
	}
}

// A CRLF dispatch file gets CRLF lines.
func TestCRLFDispatch(t *testing.T) {
	root := copyTree(t, "../fixtures/good")
	p := filepath.Join(root, "src/tilegym/ops/ops.py")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.ReplaceAll(string(data), "\n", "\r\n")), 0o644)
	if _, err := New(Options{Root: root, Setup: setup(t, root), Op: "my_op"}); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(p)
	if strings.Count(string(data), "\n") != strings.Count(string(data), "\r\n") {
		t.Fatal("a bare LF in a CRLF file")
	}
	if !strings.Contains(string(data), "def my_op(\r\n") {
		t.Fatal("no stub")
	}
}

// TestSPDXHeader: the new files copy the dispatch file's SPDX header, or
// get TileGym's for the year when it has none.
func TestSPDXHeader(t *testing.T) {
	own := "# SPDX-FileCopyrightText: Copyright (c) 2025 Someone\n#\n# SPDX-License-Identifier: Apache-2.0\n\n\"\"\"Ops.\"\"\"\n"
	if got, want := spdxHeader([]byte(own), 2031), "# SPDX-FileCopyrightText: Copyright (c) 2025 Someone\n#\n# SPDX-License-Identifier: Apache-2.0\n"; got != want {
		t.Errorf("copied header = %q, want %q", got, want)
	}
	for _, src := range []string{"\"\"\"Ops.\"\"\"\n", "# a comment, no licence\n\nimport torch\n"} {
		if got := spdxHeader([]byte(src), 2031); got != "# SPDX-FileCopyrightText: Copyright (c) 2031 NVIDIA CORPORATION & AFFILIATES. All rights reserved.\n#\n# SPDX-License-Identifier: MIT\n" {
			t.Errorf("%q: header = %q", src, got)
		}
	}
}

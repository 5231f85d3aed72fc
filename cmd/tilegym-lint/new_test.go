package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/report"
	"github.com/tilegym/tilegym-lint/scaffold"
)

func TestRunNew(t *testing.T) {
	root := goodCopy(t)
	var out, errb bytes.Buffer
	if code := run([]string{"new", "--root", root, "--dry-run", "my_op"}, &out, &errb); code != 0 {
		t.Fatalf("dry run: exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"would create src/tilegym/ops/cutile/my_op.py", "would edit src/tilegym/ops/ops.py", "+    from . import my_op\n", "Next steps for my_op:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("dry run output lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := os.Stat(filepath.Join(root, "src/tilegym/ops/cutile/my_op.py")); err == nil {
		t.Fatal("dry run wrote")
	}
	out.Reset()
	if code := run([]string{"new", "--root", root, "--suite", "demo", "my_op"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "created tests/suites/demo/test_my_op.py") {
		t.Errorf("output:\n%s", out.String())
	}
	// The check of the scaffolded op reports exactly the three parts a
	// person must write: the kernel and the two references.
	out.Reset()
	if code := run([]string{root, "--op", "demo.my_op", "--format", "json"}, &out, &errb); code != 1 {
		t.Fatalf("check: exit %d, want 1:\n%s", code, out.String())
	}
	var rep report.JSONReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rep.Diagnostics {
		got = append(got, d.Rule+" "+d.File)
	}
	want := []string{"TG209 src/tilegym/suites/demo/cutile/my_op.py", "TG512 tests/benchmark/suites/demo/bench_my_op.py", "TG407 tests/suites/demo/test_my_op.py"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"new", "--root", root, "--suite", "demo", "my_op"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "already") {
		t.Fatalf("second new: exit %d: %s", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"new", "--root", root, "my-op"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "not a Python identifier") {
		t.Fatalf("bad name: exit %d: %s", code, errb.String())
	}
	if code := run([]string{"new", "--root", root}, &out, &errb); code != 2 {
		t.Fatalf("no op: exit %d", code)
	}
}

// TestPlaceholderMarker: the rules of kind "placeholder" look for the
// marker the scaffold writes.
func TestPlaceholderMarker(t *testing.T) {
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range cat.Rules {
		if r.Kind != "placeholder" {
			continue
		}
		n++
		b, _ := json.Marshal(r.Params)
		if !strings.Contains(string(b), `"Marker":"`+scaffold.Marker+`"`) {
			t.Errorf("%s: params %s do not name the scaffold's marker %q", r.ID, b, scaffold.Marker)
		}
	}
	if n != 3 {
		t.Errorf("%d placeholder rules, want 3 (TG209, TG407, TG512)", n)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// slip is an edit that makes a new mistake: old replaced by new in file
// (old "" appends new).
type slip struct {
	name, file, old, new string
}

// jsonFindings runs a check with --format json and returns the exit
// status and the findings.
func jsonFindings(t *testing.T, args ...string) (int, []map[string]any) {
	t.Helper()
	code, out, stderr := runCLI(append([]string{"--format", "json"}, args...)...)
	if code == 2 {
		t.Fatalf("%v: exit 2: %s", args, stderr)
	}
	var rep struct {
		Diagnostics []map[string]any `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return code, rep.Diagnostics
}

// adopt checks the baseline's promise on a checkout (a copy, edited): a
// whole check fails; a baseline written on it, named in the configuration,
// makes the whole check pass with every finding marked baselined, also
// with lines added above every finding; each slip fails it again with
// findings that are not baselined; after --fix (with fixArgs) the entries
// of the fixed findings are reported (TG009) and the run still passes.
func adopt(t *testing.T, dir string, slips []slip, fixArgs ...string) {
	code, before := jsonFindings(t, dir)
	if code != 1 || len(before) == 0 {
		t.Fatalf("before the baseline: exit %d with %d findings, want 1 with some", code, len(before))
	}
	file := filepath.Join(dir, ".tilegym-lint-baseline")
	if code, _, stderr := runCLI("--write-baseline", file, dir); code != 0 {
		t.Fatalf("--write-baseline: exit %d: %s", code, stderr)
	}
	first, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(first), "\n"), "\n")
	if !strings.HasPrefix(lines[0], "# tilegym-lint baseline") {
		t.Errorf("header %q", lines[0])
	}
	for i := 2; i < len(lines); i++ {
		if lines[i-1] >= lines[i] && strings.Split(lines[i-1], "\t")[2] == strings.Split(lines[i], "\t")[2] {
			t.Errorf("entries not sorted: %q before %q", lines[i-1], lines[i])
		}
	}
	if code, _, _ := runCLI("--write-baseline", file, dir); code != 0 {
		t.Fatal("--write-baseline again failed")
	}
	if again, _ := os.ReadFile(file); string(again) != string(first) {
		t.Error("writing the baseline twice gave two files")
	}
	testrepo.WriteFile(t, dir, "tilegym-lint.toml", "baseline = \".tilegym-lint-baseline\"\n")
	check := func(what string, wantCode, wantNew int) []map[string]any {
		t.Helper()
		code, ds := jsonFindings(t, dir)
		var fresh []map[string]any
		for _, d := range ds {
			if d["baseline"] != true {
				fresh = append(fresh, d)
			}
		}
		if code != wantCode || len(fresh) != wantNew {
			t.Errorf("%s: exit %d with %d findings not baselined (of %d), want exit %d with %d: %v", what, code, len(fresh), len(ds), wantCode, wantNew, fresh)
		}
		return fresh
	}
	check("with the baseline", 0, 0)
	// Text and the summary count the baselined findings.
	_, out, _ := runCLI(dir)
	if !strings.Contains(out, "findings baselined)") {
		t.Errorf("the text summary does not count the baselined findings:\n%s", lastLines(out, 3))
	}

	// Lines added above every finding keep it baselined.
	seen := map[string]bool{}
	for _, d := range before {
		f := d["file"].(string)
		if !seen[f] && strings.HasSuffix(f, ".py") {
			seen[f] = true
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			testrepo.WriteFile(t, dir, f, "# tilegym-lint adopted\n\n"+string(data))
		}
	}
	check("with lines added above every finding", 0, 0)

	for _, s := range slips {
		path := filepath.Join(dir, s.file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		edited := string(data) + s.new
		if s.old != "" {
			edited = strings.Replace(string(data), s.old, s.new, 1)
			if edited == string(data) {
				t.Errorf("slip %s: %q not in %s", s.name, s.old, s.file)
				continue
			}
		}
		testrepo.WriteFile(t, dir, s.file, edited)
		code, ds := jsonFindings(t, dir)
		fresh := 0
		for _, d := range ds {
			if d["baseline"] != true && d["severity"] == "error" {
				fresh++
			}
		}
		if code != 1 || fresh == 0 {
			t.Errorf("slip %s: exit %d with %d new errors, want exit 1 with some", s.name, code, fresh)
		}
		testrepo.WriteFile(t, dir, s.file, string(data))
	}
	check("with the slips undone", 0, 0)

	// Paying debt: the fixed findings' entries are reported, as warnings.
	if code, _, stderr := runCLI(append(append([]string{"--fix"}, fixArgs...), dir)...); code == 2 {
		t.Fatalf("--fix: %s", stderr)
	}
	_, after := jsonFindings(t, dir)
	stale := 0
	for _, d := range after {
		if d["rule"] == "TG009" {
			stale++
			if d["severity"] != "warning" || d["file"] != ".tilegym-lint-baseline" {
				t.Errorf("TG009 finding %v", d)
			}
		} else if d["baseline"] != true {
			t.Errorf("after --fix, a finding not baselined: %v", d)
		}
	}
	if stale == 0 || len(after)-stale >= len(before) {
		t.Errorf("after --fix: %d TG009 of %d findings (%d before): want the fixed entries reported", stale, len(after), len(before))
	}
	if code, _ := jsonFindings(t, dir); code != 0 {
		t.Errorf("after --fix: exit %d, want 0 (TG009 is a warning)", code)
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(len(l)-n, 0):], "\n")
}

// newOpSlip adds an op with a dispatch stub and nothing else.
var newOpSlip = slip{"a new op with only its stub", "src/tilegym/ops/ops.py", "", `

@dispatch("zz_new_op")
def zz_new_op(x: torch.Tensor):
    """A new op."""
    raise NotImplementedError
`}

// TestBaselineAdoptFixture: the baseline's promise on the bundled example.
func TestBaselineAdoptFixture(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, "../../fixtures/example", dir)
	adopt(t, dir, []slip{
		newOpSlip,
		// softmax, whose other findings are baselined, loses **kwargs: a
		// new TG104 in the file of silu_and_mul's baselined TG104.
		{"softmax's stub loses **kwargs", "src/tilegym/ops/ops.py", "    **kwargs: Any,\n):\n    \"\"\"\n    Softmax", "):\n    \"\"\"\n    Softmax"},
	})
}

// TestBaselineAdoptTileGym: the same on a copy of a real TileGym tree.
func TestBaselineAdoptTileGym(t *testing.T) {
	src := realtree.Need(t)
	if testing.Short() {
		t.Skip("-short")
	}
	dir := t.TempDir()
	testrepo.CopyDir(t, src, dir)
	adopt(t, dir, []slip{
		newOpSlip,
		{"a stub loses **kwargs", "src/tilegym/ops/ops.py", "    **kwargs: Any,\n)", ")"},
	}, "--select", "TG104,TG3") // the fixes that leave nothing worse (issue 19, item 9)
}

package report

import (
	"bytes"
	"encoding/json"
	"os"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// checkDir is the whole check of a directory with the built-in catalog.
func checkDir(t *testing.T, dir string) *checker.Result {
	t.Helper()
	cat := testrepo.Catalog(t)
	repo, err := load.Load(&source.DiskSource{Dir: dir}, config.NewSetup(cat, nil))
	if err != nil {
		t.Fatal(err)
	}
	res, err := checker.Check(repo, config.NewSetup(cat, nil), checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// goodWithBrokenFile is a copy of fixtures/good with a test file that does
// not parse.
func goodWithBrokenFile(t *testing.T) string {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../fixtures/good")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/tests/ops/test_zz_broken.py", []byte("def f(:\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestJSONShape(t *testing.T) {
	res := checkDir(t, goodWithBrokenFile(t))
	res.Root = "checkout"
	var buf bytes.Buffer
	if err := WriteJSON(&buf, res, false); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	dec := json.NewDecoder(&buf)
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Error("more than one JSON document")
	}
	if doc["version"] != float64(1) || doc["root"] != "checkout" {
		t.Errorf("version/root = %v %v", doc["version"], doc["root"])
	}
	ops, _ := doc["ops"].([]any)
	if len(ops) == 0 {
		t.Fatal("no ops")
	}
	var names []string
	for _, o := range ops {
		om := o.(map[string]any)
		names = append(names, om["op"].(string))
		steps := om["steps"].([]any)
		if len(steps) != 6 {
			t.Errorf("op %v: %d steps", om["op"], len(steps))
		}
		for i, s := range steps {
			sm := s.(map[string]any)
			if sm["step"] != float64(i+1) {
				t.Errorf("step %v at %d", sm["step"], i)
			}
			switch sm["status"] {
			case "pass", "fail", "skipped", "not-run":
			default:
				t.Errorf("status %v", sm["status"])
			}
		}
	}
	if !sort.StringsAreSorted(names) {
		t.Errorf("ops not sorted: %v", names)
	}
	diags, _ := doc["diagnostics"].([]any)
	found := false
	for _, d := range diags {
		dm := d.(map[string]any)
		for _, k := range []string{"rule", "requirement", "step", "op", "severity", "file", "line", "column", "end_line", "end_column", "message"} {
			if _, ok := dm[k]; !ok {
				t.Errorf("diagnostic lacks %q: %v", k, dm)
			}
		}
		if _, ok := dm["pre_existing"]; ok {
			t.Errorf("pre_existing outside change mode")
		}
		if dm["line"].(float64) < 1 || dm["column"].(float64) < 1 {
			t.Errorf("positions not 1-based: %v", dm)
		}
		if dm["rule"] == "TG001" {
			found = true
			if dm["op"] != nil || dm["requirement"] != "X.2" || dm["step"] != float64(0) || dm["file"] != "tests/ops/test_zz_broken.py" {
				t.Errorf("TG001 = %v", dm)
			}
		}
	}
	if !found {
		t.Error("TG001 missing from JSON")
	}
	buf.Reset()
	if err := WriteJSON(&buf, res, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"pre_existing": false`) {
		t.Error("change mode JSON lacks pre_existing")
	}
}

// TestDeterministic: the JSON and text outputs are identical whatever
// GOMAXPROCS, on the fixtures and, when present, upstream TileGym.
func TestDeterministic(t *testing.T) {
	dirs := []string{"../fixtures/good"}
	if tree := realtree.Dir(); tree != "" {
		dirs = append(dirs, tree)
	}
	for _, dir := range dirs {
		var outs []string
		for _, procs := range []int{1, 2, 1, 2} {
			prev := runtime.GOMAXPROCS(procs)
			res := checkDir(t, dir)
			runtime.GOMAXPROCS(prev)
			var buf bytes.Buffer
			if err := WriteJSON(&buf, res, false); err != nil {
				t.Fatal(err)
			}
			if err := WriteText(&buf, res, TextOptions{Full: true}); err != nil {
				t.Fatal(err)
			}
			outs = append(outs, buf.String())
		}
		for i := 1; i < len(outs); i++ {
			if outs[i] != outs[0] {
				t.Errorf("%s: run %d differs from run 0:\n%s", dir, i, cmp.Diff(outs[0], outs[i]))
			}
		}
	}
}

func TestAnnotationsEscaped(t *testing.T) {
	r := &rules.Rule{ID: "TG301", Title: "t, with: punctuation", Severity: rules.Error}
	res := &checker.Result{Root: "repo", Diagnostics: []analysis.Diagnostic{
		{Rule: r, Op: "softmax", File: "a.py", Pos: ast.Pos{Line: 3}, End: ast.Pos{Line: 3}, Message: "100% wrong\nsecond", Severity: rules.Error},
		{Rule: r, Op: "::stop-commands::x", File: "b,c.py", Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: "old ##[error]x\r::warning::y", Severity: rules.Error, PreExisting: true},
	}}
	var buf bytes.Buffer
	if err := WriteAnnotations(&buf, res, AnnotationOptions{Options: Options{PathPrefix: "repo/", ChangeMode: true}}); err != nil {
		t.Fatal(err)
	}
	want := "::error file=repo/a.py,line=3,col=1,endLine=3,title=TG301 t%2C with%3A punctuation (op softmax%2C step 0)::100%25 wrong%0Asecond\n" +
		"::notice file=repo/b%2Cc.py,line=1,col=1,endLine=1,title=TG301 t%2C with%3A punctuation (op %3A%3Astop-commands%3A%3Ax%2C step 0) [pre-existing]::old ##\\u005berror]x%0D::warning::y\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}
}

// A fix whose new text is not UTF-8 (an import line moved with its
// comment's stray bytes, which Python accepts) is left out of the JSON
// and SARIF reports: JSON would carry U+FFFD in place of those bytes, and
// a reader applying the fix would change them. The other fixes stay.
func TestFixesNotUTF8LeftOut(t *testing.T) {
	r := &rules.Rule{ID: "TG302", Title: "t", Severity: rules.Error}
	fix := func(text string) []analysis.SuggestedFix {
		return []analysis.SuggestedFix{{Message: "sort", Edits: []analysis.TextEdit{
			{File: "a.py", Start: ast.Pos{Line: 1}, End: ast.Pos{Line: 2}, NewText: text}}}}
	}
	res := &checker.Result{Root: "repo", Diagnostics: []analysis.Diagnostic{
		{Rule: r, File: "a.py", Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: "stray", Severity: rules.Error, Fixes: fix("import a  # \xbd\xf4\n")},
		{Rule: r, File: "a.py", Pos: ast.Pos{Line: 2}, End: ast.Pos{Line: 2}, Message: "plain", Severity: rules.Error, Fixes: fix("import b  # é\n")},
	}}
	rep := NewJSONReport(res, false)
	if got := []int{len(rep.Diagnostics[0].Fixes), len(rep.Diagnostics[1].Fixes)}; !cmp.Equal(got, []int{0, 1}) {
		t.Errorf("JSON fixes per finding = %v, want [0 1]", got)
	}
	cat := testrepo.Catalog(t)
	log := NewSARIF(res, cat, SARIFOptions{})
	results := log.Runs[0].Results
	if got := []int{len(results[0].Fixes), len(results[1].Fixes)}; !cmp.Equal(got, []int{0, 1}) {
		t.Errorf("SARIF fixes per result = %v, want [0 1]", got)
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, res, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `\ufffd`) {
		t.Errorf("the JSON report replaced bytes with U+FFFD:\n%s", buf.String())
	}
}

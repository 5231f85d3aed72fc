package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// TestEmitExitStatus: Emit's exit status is 2 after an internal error
// (said on stderr), 1 when the run fails or an op is not started yet,
// 0 with ExitZero or nothing failing; a pre-existing error fails change
// mode only with Strict.
func TestEmitExitStatus(t *testing.T) {
	cat := testrepo.Catalog(t)
	r := &rules.Rule{ID: "TG301", Title: "t", Severity: rules.Error}
	failing := func(pre bool) *checker.Result {
		return &checker.Result{Root: "repo", Diagnostics: []analysis.Diagnostic{
			{Rule: r, File: "a.py", Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: "wrong", Severity: rules.Error, PreExisting: pre},
		}}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		res  *checker.Result
		e    Emission
		want int
	}{
		{"clean", &checker.Result{Root: "repo"}, Emission{Format: "json"}, 0},
		{"error", failing(false), Emission{Format: "json"}, 1},
		{"error, exit-zero", failing(false), Emission{Format: "json", ExitZero: true}, 0},
		{"pre-existing", failing(true), Emission{Format: "json", Text: TextOptions{ChangeMode: true}}, 0},
		{"pre-existing, strict", failing(true), Emission{Format: "json", Text: TextOptions{ChangeMode: true, Strict: true}}, 1},
		{"not started", &checker.Result{Root: "repo"}, Emission{Format: "checklist", NotStarted: []NewOp{{Name: "my_op", Func: "my_op"}}}, 1},
		{"internal error", &checker.Result{Root: "repo", Errors: []error{errors.New("boom")}}, Emission{Format: "text", ExitZero: true}, 2},
	} {
		tc.e.Root = dir
		var out, errOut bytes.Buffer
		got, err := Emit(&out, &errOut, tc.res, cat, &tc.e)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.want {
			t.Errorf("%s: exit status %d, want %d", tc.name, got, tc.want)
		}
		if tc.name == "internal error" && !strings.Contains(errOut.String(), "tilegym-lint: internal error: boom") {
			t.Errorf("%s: stderr %q does not say so", tc.name, errOut.String())
		}
	}
}

// TestEmitFiles: with Annotate, SARIFFile and SummaryFile, Emit writes the
// annotations after the format, the SARIF file, and appends the summary;
// the adoption hint follows the annotations of a failing whole check.
func TestEmitFiles(t *testing.T) {
	cat := testrepo.Catalog(t)
	r := &rules.Rule{ID: "TG301", Title: "t", Severity: rules.Error}
	res := &checker.Result{Root: "repo", Diagnostics: []analysis.Diagnostic{
		{Rule: r, File: "a.py", Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: "wrong", Severity: rules.Error},
	}}
	dir := t.TempDir()
	sarif, summary := filepath.Join(dir, "out.sarif"), filepath.Join(dir, "summary.md")
	if err := os.WriteFile(summary, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	e := &Emission{Format: "json", Root: dir, Annotate: true, AdoptHint: "adopt it", SARIFFile: sarif, SummaryFile: summary}
	if _, err := Emit(&out, &bytes.Buffer{}, res, cat, e); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	ann, hint := strings.Index(s, "::error file="), strings.Index(s, "::notice title=tilegym-lint::adopt it")
	if !strings.HasPrefix(s, "{") || ann < 0 || hint < ann {
		t.Errorf("stdout: want the JSON, then the annotations, then the hint:\n%s", s)
	}
	if data, err := os.ReadFile(sarif); err != nil || !bytes.Contains(data, []byte(`"ruleId": "TG301"`)) {
		t.Errorf("SARIF file: %v\n%s", err, data)
	}
	if data, err := os.ReadFile(summary); err != nil || !bytes.HasPrefix(data, []byte("before\n")) || len(data) <= len("before\n") {
		t.Errorf("summary not appended: %v\n%s", err, data)
	}
}

// TestEmitLocatesOnlyForProvenance: Emit locates the repository (git
// rev-parse, symbolic-ref, remote get-url) only for the writers that say
// where it is, annotations, SARIF and the summary, and once for all of
// them; a JSON or text report ran git for nothing.
func TestEmitLocatesOnlyForProvenance(t *testing.T) {
	calls := 0
	defer func(l func(string, bool, string) *Provenance) { locate = l }(locate)
	locate = func(root string, changeMode bool, compared string) *Provenance {
		calls++
		return Locate(root, changeMode, compared)
	}
	cat := testrepo.Catalog(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		e    Emission
		want int
	}{
		{Emission{Format: "json"}, 0},
		{Emission{Format: "text"}, 0},
		{Emission{Format: "text", Statistics: true}, 0},
		{Emission{Format: "checklist"}, 0},
		{Emission{Format: "github"}, 1},
		{Emission{Format: "sarif"}, 1},
		{Emission{Format: "json", Annotate: true}, 1},
		{Emission{Format: "sarif", Annotate: true, SARIFFile: filepath.Join(dir, "out.sarif"), SummaryFile: filepath.Join(dir, "summary.md")}, 1},
	} {
		calls = 0
		tc.e.Root = dir
		if _, err := Emit(&bytes.Buffer{}, &bytes.Buffer{}, &checker.Result{Root: "repo"}, cat, &tc.e); err != nil {
			t.Fatal(err)
		}
		if calls != tc.want {
			t.Errorf("%+v: located the repository %d times, want %d", tc.e, calls, tc.want)
		}
	}
}

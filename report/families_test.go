package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// familyResult is a result with a TG finding of no op and findings of two
// families without steps, on two subjects.
func familyResult() *checker.Result {
	tg := &rules.Rule{ID: "TG206", Family: "TG", Severity: rules.Error, Title: "t", Message: "m"}
	k := &rules.Rule{ID: "K01", Family: "K", Requirement: "K1", Severity: rules.Error, Title: "k", Message: "m"}
	a := &rules.Rule{ID: "A02", Family: "A", Requirement: "A2", Severity: rules.Warning, Title: "a", Message: "m"}
	d := func(r *rules.Rule, file, subject, msg string, line int) analysis.Diagnostic {
		return analysis.Diagnostic{Rule: r, File: file, Subject: subject, Message: msg, Severity: r.Severity, Pos: ast.Pos{Line: line}, End: ast.Pos{Line: line}}
	}
	return &checker.Result{Diagnostics: []analysis.Diagnostic{
		d(a, "src/a.py", "run_a", "replace_hints on the launch path", 3),
		d(k, "src/k.py", "softmax_kernel", "ct.sigmoid is not a name of cuda.tile", 5),
		d(k, "src/k.py", "add_kernel", "ct.silu is not a name of cuda.tile", 9),
		d(tg, "src/x.py", "", "registered, never dispatched", 1),
	}}
}

func TestTextFamilies(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteText(&buf, familyResult(), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	want := `findings of no op:
  src/x.py:1:1: TG206 registered, never dispatched
family A: 1 finding (A02 ×1)
  run_a
    src/a.py:3:1: A02 (warning) replace_hints on the launch path
family K: 2 findings (K01 ×2)
  add_kernel
    src/k.py:9:1: K01 ct.silu is not a name of cuda.tile
  softmax_kernel
    src/k.py:5:1: K01 ct.sigmoid is not a name of cuda.tile
0 ops, 0 failed, 3 errors, 1 warnings
`
	if got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

func TestJSONSARIFFamily(t *testing.T) {
	rep := NewJSONReport(familyResult(), false)
	fams := map[string]string{}
	for _, d := range rep.Diagnostics {
		fams[d.Rule] = d.Family + "/" + d.Requirement + "/" + d.Subject
	}
	if fams["K01"] != "K/K1/add_kernel" && fams["K01"] != "K/K1/softmax_kernel" || fams["TG206"] != "TG//" {
		t.Errorf("JSON families: %v", fams)
	}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, familyResult(), &rules.Catalog{}, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID     string         `json:"ruleId"`
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Runs[0].Results {
		want := strings.TrimRight(r.RuleID, "0123456789")
		if r.Properties["family"] != want {
			t.Errorf("SARIF %s: family %v, want %s", r.RuleID, r.Properties["family"], want)
		}
	}
}

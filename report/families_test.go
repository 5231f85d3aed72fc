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

// The job summary lists the families' findings as the text does: under a
// heading per family (its name from the catalog), by subject, with no step
// (the families have none); the TG finding of no op keeps its section.
func TestSummaryFamilies(t *testing.T) {
	cat := &rules.Catalog{Families: []*rules.Family{{Prefix: "TG", Steps: true}, {Prefix: "K", Name: "cuTile kernel code"}, {Prefix: "A"}}}
	var buf bytes.Buffer
	if err := WriteSummary(&buf, familyResult(), cat, SummaryOptions{}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	want := "### Findings of no op\n\n" +
		"- **TG206** (error, step 0) `src/x.py:1`: registered\\, never dispatched\n\n" +
		"### Family A\n\n" +
		"`run_a`\n\n" +
		"- **A02** (warning) `src/a.py:3`: replace\\_hints on the launch path\n\n" +
		"### Family K\\: cuTile kernel code\n\n" +
		"`add_kernel`\n\n" +
		"- **K01** (error) `src/k.py:9`: ct\\.silu is not a name of cuda\\.tile\n\n" +
		"`softmax_kernel`\n\n" +
		"- **K01** (error) `src/k.py:5`: ct\\.sigmoid is not a name of cuda\\.tile\n\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("summary:\n%s\nwant it to end with:\n%s", got, want)
	}
}

// An annotation of a family finding names its subject (no op, no step),
// and bounded annotations take the subjects round robin, as they take the
// ops: the first error of each kernel before the second of any.
func TestAnnotationsFamilies(t *testing.T) {
	k := &rules.Rule{ID: "K01", Family: "K", Requirement: "K1", Severity: rules.Error, Title: "Only names of cuda.tile", Message: "m"}
	d := func(subject string, line int) analysis.Diagnostic {
		return analysis.Diagnostic{Rule: k, File: "src/k.py", Subject: subject, Message: "no sigmoid", Severity: rules.Error, Pos: ast.Pos{Line: line}, End: ast.Pos{Line: line}}
	}
	res := &checker.Result{Diagnostics: []analysis.Diagnostic{d("a_kernel", 3), d("a_kernel", 4), d("a_kernel", 5), d("b_kernel", 9)}}
	var buf bytes.Buffer
	if err := WriteAnnotations(&buf, res, AnnotationOptions{MaxErrors: 2}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	want := "::error file=src/k.py,line=3,col=1,endLine=3,title=K01 Only names of cuda.tile (a_kernel)::no sigmoid\n" +
		"::error file=src/k.py,line=9,col=1,endLine=9,title=K01 Only names of cuda.tile (b_kernel)::no sigmoid\n" +
		"::notice title=tilegym-lint::2 more findings (2 errors, 0 warnings) than GitHub shows as annotations: see the log\n"
	if got != want {
		t.Errorf("annotations:\n%s\nwant:\n%s", got, want)
	}
}

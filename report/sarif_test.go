package report

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// sarifOf checks dir whole and returns its SARIF log.
func sarifOf(t *testing.T, dir string) *sarifLog {
	t.Helper()
	res := checkDir(t, dir)
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	return NewSARIF(res, cat, SARIFOptions{Version: "1.2.3"})
}

// brokenOp is a copy of fixtures/good whose softmax stub lacks **kwargs.
func brokenOp(t *testing.T) string {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../fixtures/good")); err != nil {
		t.Fatal(err)
	}
	ops := filepath.Join(dir, "src/tilegym/ops/ops.py")
	data, err := os.ReadFile(ops)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), "    **kwargs: Any,\n", "", 1)
	if s == string(data) {
		t.Fatal("fixtures/good's ops.py has no **kwargs: Any to remove")
	}
	if err := os.WriteFile(ops, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSARIFShape: every catalog rule is in tool.driver.rules with its
// documentation, and a result names its rule by id and index, with a
// relative location under SRCROOT, a region and the op and step.
func TestSARIFShape(t *testing.T) {
	log := sarifOf(t, brokenOp(t))
	cat, _ := checks.LoadBuiltinCatalog()
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs", len(log.Runs))
	}
	run := log.Runs[0]
	if d := run.Tool.Driver; d.Name != "tilegym-lint" || d.Version != "1.2.3" || d.InformationURI == "" || len(d.Rules) != len(cat.Rules) {
		t.Fatalf("driver %q %q %q with %d rules, want %d", d.Name, d.Version, d.InformationURI, len(d.Rules), len(cat.Rules))
	}
	for i, r := range run.Tool.Driver.Rules {
		if r.ID != cat.Rules[i].ID || r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.Help.Text == "" || r.Help.Markdown == "" {
			t.Errorf("rule %d (%s): id, descriptions or help missing", i, r.ID)
		}
	}
	if len(run.Results) == 0 {
		t.Fatal("no results for a stub without **kwargs")
	}
	found := false
	for _, r := range run.Results {
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s has ruleIndex %d, which is %s", r.RuleID, r.RuleIndex, run.Tool.Driver.Rules[r.RuleIndex].ID)
		}
		loc := r.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URIBaseID != "SRCROOT" || strings.HasPrefix(loc.ArtifactLocation.URI, "/") || loc.Region == nil || loc.Region.StartLine < 1 {
			t.Errorf("result %s: location %+v", r.RuleID, loc)
		}
		if r.RuleID == "TG104" {
			found = true
			if loc.ArtifactLocation.URI != "src/tilegym/ops/ops.py" || r.Properties["op"] != "softmax" || r.Properties["step"] != 1 || r.PartialFingerprints == nil {
				t.Errorf("TG104: %+v", r)
			}
		}
	}
	if !found {
		t.Error("no TG104 result")
	}
}

// TestSARIFFingerprintsSurviveLineShifts: lines added above a finding move
// its region and keep its fingerprint.
func TestSARIFFingerprintsSurviveLineShifts(t *testing.T) {
	dir := brokenOp(t)
	before := sarifOf(t, dir)
	ops := filepath.Join(dir, "src/tilegym/ops/ops.py")
	data, err := os.ReadFile(ops)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ops, append([]byte("# a comment\n# and another\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	after := sarifOf(t, dir)
	type seen struct {
		line int
		fp   string
	}
	index := func(l *sarifLog) map[string]seen {
		m := map[string]seen{}
		for _, r := range l.Runs[0].Results {
			m[r.RuleID+" "+r.Message.Text] = seen{r.Locations[0].PhysicalLocation.Region.StartLine, r.PartialFingerprints[FingerprintKey]}
		}
		return m
	}
	b, a := index(before), index(after)
	if len(b) == 0 || len(b) != len(a) {
		t.Fatalf("%d results before, %d after", len(b), len(a))
	}
	for k, x := range b {
		y, ok := a[k]
		if !ok {
			t.Errorf("%s: gone after the shift", k)
			continue
		}
		if x.fp == "" || x.fp != y.fp {
			t.Errorf("%s: fingerprint %q became %q", k, x.fp, y.fp)
		}
		if strings.HasPrefix(k, "TG104") && y.line != x.line+2 {
			t.Errorf("%s: line %d became %d, want %d", k, x.line, y.line, x.line+2)
		}
	}
}

// Artifact URIs are relative URI references: percent-encoded (RFC 3986),
// and a file name that is not UTF-8 keeps its bytes.
func TestSARIFArtifactURIs(t *testing.T) {
	r := &rules.Rule{ID: "TG104", Title: "t", Severity: rules.Error}
	for file, want := range map[string]string{
		"src/tilegym/ops/softmax.py":  "sub/src/tilegym/ops/softmax.py",
		"tests/a b#1?.py":             "sub/tests/a%20b%231%3F.py",
		"c:d/100%.py":                 "sub/c%3Ad/100%25.py",
		"ops/ünï.py":                  "sub/ops/%C3%BCn%C3%AF.py",
		"ops/bad\xff\xfe.py":          "sub/ops/bad%FF%FE.py",
		"ops/[x](y)&z=1;'q'!*+,@$.py": "sub/ops/%5Bx%5D%28y%29%26z%3D1%3B%27q%27%21%2A%2B%2C%40%24.py",
	} {
		res := &checker.Result{Diagnostics: []analysis.Diagnostic{{Rule: r, File: file, Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Message: "m", Severity: rules.Error,
			Fixes: []analysis.SuggestedFix{{Message: "f", Edits: []analysis.TextEdit{{File: file, Start: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, NewText: "x"}}}}}}}
		log := NewSARIF(res, &rules.Catalog{}, SARIFOptions{Options: Options{PathPrefix: "sub/"}})
		got := log.Runs[0].Results[0]
		if uri := got.Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != want {
			t.Errorf("%q: uri %q, want %q", file, uri, want)
		}
		if uri := got.Fixes[0].ArtifactChanges[0].ArtifactLocation.URI; uri != want {
			t.Errorf("%q: fix uri %q, want %q", file, uri, want)
		}
		u, err := url.Parse(want)
		if err != nil || u.Scheme != "" || u.Path != "sub/"+file {
			t.Errorf("%q: %q does not parse back as the relative path (%v)", file, want, err)
		}
	}
}

package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
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
			if loc.ArtifactLocation.URI != "src/tilegym/ops/ops.py" || r.Properties["op"] != "softmax" || r.PartialFingerprints == nil {
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

package report_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/fixturetest"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/report"
)

// A relation finding in a Rust file (fixture r05-ffi-transmute) is a SARIF
// result at its file and line, with its family, requirement and subject,
// and no step (its family has none).
func TestSARIFRelationFinding(t *testing.T) {
	all, err := fixtureset.List()
	if err != nil {
		t.Fatal(err)
	}
	var dir string
	for _, f := range all {
		if f.Name == "r05-ffi-transmute" {
			dir = f.Materialize(t)
		}
	}
	if dir == "" {
		t.Fatal("no fixture r05-ffi-transmute")
	}
	res := fixturetest.Check(t, dir)
	var buf bytes.Buffer
	if err := report.WriteSARIF(&buf, res, testrepo.Catalog(t), report.SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("SARIF results: %s", buf.String())
	}
	r := log.Runs[0].Results[0]
	loc := r.Locations[0].PhysicalLocation
	if r.RuleID != "R05" || loc.ArtifactLocation.URI != "src/tilegym/ops/cutile_rs/softmax_kernel/ffi.rs" || loc.Region.StartLine != 5 {
		t.Errorf("result %s at %s:%d, want R05 at src/tilegym/ops/cutile_rs/softmax_kernel/ffi.rs:5", r.RuleID, loc.ArtifactLocation.URI, loc.Region.StartLine)
	}
	if r.Properties["family"] != "R" || r.Properties["requirement"] != "R5" || r.Properties["subject"] != "softmax" {
		t.Errorf("properties %v, want family R, requirement R5, subject softmax", r.Properties)
	}
	if step, ok := r.Properties["step"]; ok {
		t.Errorf("a family without steps has step %v", step)
	}
}

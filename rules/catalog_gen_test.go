package rules

import (
	"os"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/rules/internal/srcscan"
)

const regenerate = "catalog_gen.go is stale: run go generate ./... and commit the result"

// TestGeneratedCatalogIsCurrent checks that catalog_gen.go holds what
// BurntSushi/toml decodes from the current rules.toml, the lines of its keys
// and the requirement IDs of the current docs/requirements.md.
func TestGeneratedCatalogIsCurrent(t *testing.T) {
	src, err := os.ReadFile("../rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if _, err := toml.Decode(string(src), &want); err != nil {
		t.Fatalf("rules.toml: %v", err)
	}
	if d := cmp.Diff(want, builtinDocument()); d != "" {
		t.Errorf("%s; the document differs (-rules.toml +generated):\n%s", regenerate, d)
	}
	if d := cmp.Diff(ScanKeyLines(src), builtinKeyLines()); d != "" {
		t.Errorf("%s; the key lines differ (-rules.toml +generated):\n%s", regenerate, d)
	}

	md, err := os.ReadFile("../docs/requirements.md")
	if err != nil {
		t.Fatal(err)
	}
	ids, err := srcscan.Requirements(md)
	if err != nil {
		t.Fatalf("docs/requirements.md: %v", err)
	}
	if d := cmp.Diff(ids, requirementIDs); d != "" {
		t.Errorf("%s; the requirement IDs differ (-docs/requirements.md +generated):\n%s", regenerate, d)
	}
}

// TestBuiltinDocumentIsFresh checks that builtinDocument builds a new
// table on every call, so that no caller can change another's.
func TestBuiltinDocumentIsFresh(t *testing.T) {
	a := builtinDocument()
	a["version"] = int64(2)
	if b := builtinDocument(); b["version"] != int64(1) {
		t.Errorf("version = %v after changing another call's table", b["version"])
	}
}

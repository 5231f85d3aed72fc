package checks

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenCatalog: no path is the built-in catalog; a path is that
// rules.toml (the repository's is the built-in one); a missing file is
// an error naming it.
func TestOpenCatalog(t *testing.T) {
	builtin, err := OpenCatalog("")
	if err != nil || len(builtin.Rules) == 0 {
		t.Fatalf("built-in catalog: %v", err)
	}
	file, err := OpenCatalog("../rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	if file.Version != builtin.Version || len(file.Rules) != len(builtin.Rules) {
		t.Errorf("../rules.toml: version %d, %d rules; built in: %d, %d", file.Version, len(file.Rules), builtin.Version, len(builtin.Rules))
	}
	missing := filepath.Join(t.TempDir(), "none.toml")
	if _, err := OpenCatalog(missing); err == nil || !strings.Contains(err.Error(), "none.toml") {
		t.Errorf("missing catalog: %v", err)
	}
}

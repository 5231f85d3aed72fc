package checker

import (
	"os"
	"path/filepath"
	"testing"
)

// fixtureConfig loads a fixture's own configuration, looking only in the
// fixture directory (never above it).
func fixtureConfig(t *testing.T, dir string) *Config {
	t.Helper()
	for _, name := range ConfigFileNames {
		p := filepath.Join(dir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if name == "pyproject.toml" && !hasToolTable(data) {
			continue
		}
		cfg, err := ParseConfig(data, p)
		if err != nil {
			t.Fatalf("fixture config: %v", err)
		}
		return cfg
	}
	return nil
}

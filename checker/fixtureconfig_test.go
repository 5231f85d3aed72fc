package checker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tilegym/tilegym-lint/config"
)

// fixtureConfig loads a fixture's own configuration, looking only in the
// fixture directory (never above it).
func fixtureConfig(t *testing.T, dir string) *config.Config {
	t.Helper()
	for _, name := range config.FileNames {
		p := filepath.Join(dir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if name == "pyproject.toml" && !config.HasToolTable(data) {
			continue
		}
		cfg, err := config.Parse(data, p)
		if err != nil {
			t.Fatalf("fixture config: %v", err)
		}
		return cfg
	}
	return nil
}

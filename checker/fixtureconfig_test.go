package checker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// checkout is a repository a test checks whole and in some other way.
type checkout struct {
	src   *source.DiskSource
	lay   *layout.Layout
	cfg   *config.Config
	whole *Result // the check at once
}

// forEachCheckout runs fn as a subtest on every fixture, and on the
// TileGym tree when present ($TILEGYM_LINT_TREE) and not under the race detector (the fixtures exercise
// the same concurrency), with the checkout's configuration and the check
// at once of it.
func forEachCheckout(t *testing.T, cat *rules.Catalog, fn func(t *testing.T, c *checkout)) {
	dirs := fixtureset.Dirs(t)
	tree := realtree.Dir()
	if tree != "" && !testrepo.RaceEnabled {
		dirs = append(dirs, tree)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cfg := fixtureConfig(t, dir)
			if dir == tree {
				cfg = nil
				if p, err := config.Find(dir); err == nil && p != "" {
					if cfg, err = config.Load(p); err != nil {
						t.Fatal(err)
					}
				}
			}
			setup := config.NewSetup(cat, cfg)
			lay := setup.Layout
			src := &source.DiskSource{Dir: dir}
			full, err := load.Load(src, setup)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := Check(full, config.NewSetup(cat, cfg), Options{})
			if err != nil {
				t.Fatal(err)
			}
			fn(t, &checkout{src, lay, cfg, whole})
		})
	}
}

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

package checks

import (
	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// The framework's types over a TileGym repository.
type (
	Analyzer = analysis.Analyzer[*optable.Repo]
	Pass     = analysis.Pass[*optable.Repo]
)

// kinds are the check kinds of tilegym-lint; each registers itself.
var kinds analysis.Registry[*optable.Repo]

// Register adds a check kind (see analysis.Registry.Register).
func Register(a *Analyzer) { kinds.Register(a) }

// Kinds returns the registered check kinds sorted by name.
func Kinds() []*Analyzer { return kinds.Kinds() }

// Kind returns the registered check kind with the given name, or nil.
func Kind(name string) *Analyzer { return kinds.Kind(name) }

// LoadCatalog loads a rule catalog against the registered kinds.
func LoadCatalog(data []byte, filename string) (*rules.Catalog, error) {
	return kinds.LoadCatalog(data, filename)
}

// LoadBuiltinCatalog loads the built-in catalog against the registered kinds.
func LoadBuiltinCatalog() (*rules.Catalog, error) { return kinds.LoadBuiltinCatalog() }

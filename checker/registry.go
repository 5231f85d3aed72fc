package checker

import (
	"sort"
	"sync"

	"github.com/tilegym/tilegym-lint/rules"
)

var (
	registryMu sync.Mutex
	registry   = map[string]*Analyzer{}
)

// Register adds a check kind to the package-level registry. Kinds call it
// from an init function; the analyzer's Name is the kind name rules.toml
// uses. Registering two analyzers under one name panics: it is a programming
// error caught by any test.
func Register(a *Analyzer) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if a == nil || a.Name == "" {
		panic("checker.Register: analyzer with no name")
	}
	if old, ok := registry[a.Name]; ok && old != a {
		panic("checker.Register: two analyzers named " + a.Name)
	}
	registry[a.Name] = a
}

// Kinds returns the registered check kinds sorted by name.
func Kinds() []*Analyzer {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := make([]*Analyzer, 0, len(registry))
	for _, a := range registry {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Kind returns the registered check kind with the given name, or nil.
func Kind(name string) *Analyzer {
	registryMu.Lock()
	defer registryMu.Unlock()
	return registry[name]
}

// KindParams resolves a kind name for rules.Load: the constructor of the
// kind's params struct (nil when it takes none) and whether it exists.
func KindParams(kind string) (func() any, bool) {
	a := Kind(kind)
	if a == nil {
		return nil, false
	}
	return a.Params, true
}

// LoadCatalog loads a rule catalog against the registered kinds.
func LoadCatalog(data []byte, filename string) (*rules.Catalog, error) {
	return checkPlaceholders(rules.Load(data, filename, KindParams))
}

// LoadBuiltinCatalog loads the built-in catalog against the registered kinds.
func LoadBuiltinCatalog() (*rules.Catalog, error) {
	return checkPlaceholders(rules.LoadBuiltin(KindParams))
}

// Package checks holds the check kinds of tilegym-lint, one file per kind
// named as in rules.toml (kind "bench-timing" is bench_timing.go): each
// declares its analyzer, its params struct with their validation and the
// message placeholders it fills; a rule of rules.toml picks a kind and sets
// its params. This file lists every kind. Helpers shared by several kinds
// sit in files named for what they hold.
package checks

import (
	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source/regfile"
)

// The framework's types over a TileGym repository.
type (
	Analyzer = analysis.Analyzer[*optable.Repo]
	Pass     = analysis.Pass[*optable.Repo]
)

// kinds are the check kinds of tilegym-lint, by kind name: a kind file
// declares its analyzer, and only this list makes it a kind.
var kinds = analysis.NewRegistry(
	BackendListAnalyzer,
	BackendSelectAnalyzer,
	BaselineAnalyzer,
	BenchDecoratorAnalyzer,
	BenchFileNameAnalyzer,
	BenchFilterAnalyzer,
	BenchFunctionNameAnalyzer,
	BenchOpCallAnalyzer,
	BenchReferenceAnalyzer,
	BenchTimingAnalyzer,
	CallKeywordAnalyzer,
	CheckBeforeTimingAnalyzer,
	ConfigCountAnalyzer,
	ConfigKeysAnalyzer,
	DispatchCallersAnalyzer,
	ForbiddenImportAnalyzer,
	ImplConstantAnalyzer,
	ImplExistsAnalyzer,
	ImplImportsAnalyzer,
	ImplKernelAnalyzer,
	ImplLaunchAnalyzer,
	ImplOrphanAnalyzer,
	ImplOutAnalyzer,
	ImplSignatureAnalyzer,
	InitAllAnalyzer,
	InitFunctionImportAnalyzer,
	InitModuleImportAnalyzer,
	InitOrderAnalyzer,
	KernelModuleAnalyzer,
	MainGuardAnalyzer,
	ModuleNameAnalyzer,
	ParseErrorAnalyzer,
	PatternAnalyzer,
	PlaceholderAnalyzer,
	PlotNameAnalyzer,
	RelationAnalyzer,
	StepFileAnalyzer,
	StepSkipAnalyzer,
	StubBodyAnalyzer,
	StubDocstringAnalyzer,
	StubKwargsAnalyzer,
	StubNameAnalyzer,
	StubParamAnalyzer,
	StubUniqueAnalyzer,
	SuppressionAnalyzer,
	TestComparesAnalyzer,
	TestFileNameAnalyzer,
	TestParametrizeAnalyzer,
	VerifyAnalyzer,
)

// Kinds returns the check kinds sorted by name.
func Kinds() []*Analyzer { return kinds.Kinds() }

// Kind returns the check kind with the given name, or nil.
func Kind(name string) *Analyzer { return kinds.Kind(name) }

// LoadCatalog loads a rule catalog against the check kinds.
func LoadCatalog(data []byte, filename string) (*rules.Catalog, error) {
	return kinds.LoadCatalog(data, filename)
}

// LoadBuiltinCatalog loads the built-in catalog against the check kinds.
func LoadBuiltinCatalog() (*rules.Catalog, error) { return kinds.LoadBuiltinCatalog() }

// OpenCatalog loads the catalog a run uses: the built-in one, or the
// rules.toml at path (--catalog) when path is not empty.
func OpenCatalog(path string) (*rules.Catalog, error) {
	if path == "" {
		return LoadBuiltinCatalog()
	}
	data, err := regfile.Read(path)
	if err != nil {
		return nil, err
	}
	return LoadCatalog(data, path)
}

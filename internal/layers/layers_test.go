// Package layers holds the test of the module's import graph: each package
// may import only the packages below it, as the table says.
package layers

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/tilegym/tilegym-lint"

// allowed lists, for every package of the module (by directory), the
// packages of the module it may import (tests aside). A package missing
// from the table fails the test: place it in the graph when adding it.
// The layers, bottom up:
//
//	python/ast, layout, source/regfile      syntax trees; where op files live; reading files
//	completion                              the shell completion scripts, from the flags the command declares
//	directive                               the comments that speak to the linter (# noqa, tilegym-lint:)
//	python/requires                         PEP 440 versions and requirements; what packaging files declare
//	python/parser, python/astutil, rules    parsing; syntax helpers; the rule catalog
//	python/conformance                      the parser's trees dumped for comparison with CPython's
//	python/pattern                          structural Python patterns (the pattern kind's matcher)
//	source, git                             a snapshot's files, read and parsed (Python, not TileGym); git, run
//	analysis                                the framework: Analyzer, Pass, Diagnostic, registry
//	optable                                 the repository model: ops, stubs, impls, tests, benchmarks
//	checks, config                          the check kinds; a project's configuration
//	load                                    a snapshot into the model, whole or for some ops
//	checker                                 the driver: runs the kinds, policy, verdicts per step
//	change, report, verify, baseline, fix   change mode; the writers; Step 6's runner; the baseline; --fix
//	scaffold                                tilegym-lint new; the ops --op names that do not exist yet
//	cmd/tilegym-lint                        the command line
var allowed = map[string][]string{
	".":                         {},
	"python/ast":                {},
	"layout":                    {},
	"source/regfile":            {},
	"directive":                 {},
	"python/parser":             {"python/ast"},
	"python/astdump":            {"python/ast"},
	"python/conformance":        {"python/astdump", "python/parser", "source/regfile"},
	"python/astutil":            {"python/ast"},
	"python/pattern":            {"python/ast", "python/astutil", "python/parser"},
	"python/requires":           {},
	"completion":                {},
	"rules/internal/srcscan":    {},
	"rules/internal/gencatalog": {"rules/internal/srcscan"},
	"rules":                     {"layout", "python/requires", "rules/internal/srcscan"},
	"source":                    {"source/regfile", "python/ast", "python/astutil", "python/parser"},
	"git":                       {"source/regfile"},
	"analysis":                  {"python/ast", "rules"},
	"optable":                   {"analysis", "directive", "layout", "python/ast", "python/astutil", "source"},
	"checks":                    {"analysis", "directive", "layout", "optable", "python/ast", "python/astutil", "python/pattern", "python/requires", "rules", "source", "source/regfile"},
	"config":                    {"source/regfile", "layout", "optable", "python/ast", "rules"},
	"load":                      {"analysis", "config", "layout", "optable", "python/ast", "python/astutil", "source"},
	"checker":                   {"analysis", "checks", "config", "directive", "git", "layout", "load", "optable", "python/ast", "rules", "source"},
	"change":                    {"analysis", "checker", "checks", "config", "directive", "git", "layout", "load", "optable", "python/ast", "python/astutil", "rules", "source", "source/regfile"},
	"report":                    {"analysis", "checker", "git", "python/ast", "rules", "source/regfile"},
	"verify":                    {"checker", "checks", "config", "rules"},
	"baseline":                  {"analysis", "checker", "config", "rules", "source/regfile"},
	"fix":                       {"analysis", "checker", "config", "load", "source", "source/regfile", "python/ast", "python/parser"},
	"scaffold":                  {"analysis", "checker", "checks", "config", "fix", "load", "optable", "report", "rules", "source", "source/regfile", "python/ast", "python/parser"},
	"cmd/tilegym-lint":          {"analysis", "baseline", "change", "checker", "checks", "completion", "config", "fix", "source/regfile", "layout", "load", "optable", "python/conformance", "report", "rules", "scaffold", "source", "verify"},
	"internal/layers":           {},
	"internal/fixtureset":       {},
	"internal/realtree":         {},
	"internal/hygiene":          {},
	"internal/testrepo":         {"checks", "config", "internal/fixtureset", "internal/realtree", "layout", "rules", "source"},
	"internal/corpus":           {"config", "internal/fixtureset", "internal/realtree", "internal/testrepo", "layout", "load", "optable", "source"},
	"internal/fixturetest":      {"analysis", "checker", "checks", "checks/checkstest", "config", "internal/fixtureset", "internal/testrepo", "report", "rules", "source"},
	"checks/checkstest":         {"analysis", "checks", "config", "internal/fixtureset", "internal/testrepo", "load", "optable", "rules", "source"},
	"tools/fixtureoverlay":      {"internal/fixtureset"},
}

func TestImportGraph(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := modulePackages(t, root)
	for _, rel := range slices.Sorted(maps.Keys(pkgs)) {
		ok, known := allowed[rel]
		if !known {
			t.Errorf("package %s is not in the import graph table", rel)
			continue
		}
		for _, dep := range pkgs[rel] {
			if !slices.Contains(ok, dep) {
				t.Errorf("%s imports %s, which is not below it (allowed: %s)", rel, dep, strings.Join(ok, ", "))
			}
		}
	}
	for p := range allowed {
		if _, ok := pkgs[p]; !ok {
			t.Errorf("the table lists %s, which has no package", p)
		}
	}
}

// Package layers holds the test of the module's import graph: each package
// may import only the packages below it, as the table says.
package layers

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/tilegym/tilegym-lint"

// allowed lists, for every package of the module (by directory), the
// packages of the module it may import (tests aside). A package missing
// from the table fails the test: place it in the graph when adding it.
//
//	python/ast ← python/parser, python/astdump
//	rules/internal/srcscan ← rules, rules/internal/gencatalog
//	internal/regfile ← checker, fix, scaffold, cmd/tilegym-lint (every file read)
//	python/*, rules ← checker (the driver and everything below it)
//	checker ← report, verify
//	python/* ← fix ← scaffold
//	all ← cmd/tilegym-lint
var allowed = map[string][]string{
	".":                         {},
	"python/ast":                {},
	"python/parser":             {"python/ast"},
	"python/astdump":            {"python/ast"},
	"python/astutil":            {"python/ast"},
	"rules/internal/srcscan":    {},
	"source":                    {"internal/regfile", "python/ast", "python/astutil", "python/parser"},
	"rules/internal/gencatalog": {"rules/internal/srcscan"},
	"layout":                    {},
	"analysis":                  {"python/ast", "rules"},
	"rules":                     {"layout", "rules/internal/srcscan"},
	"optable":                   {"analysis", "layout", "python/ast", "python/astutil", "source"},
	"checks":                    {"analysis", "layout", "optable", "python/ast", "python/astutil", "rules", "source"},
	"config":                    {"internal/regfile", "layout", "optable", "python/ast", "rules"},
	"load":                      {"analysis", "config", "layout", "optable", "python/ast", "python/astutil", "source"},
	"checker":                   {"analysis", "checks", "config", "load", "optable", "internal/regfile", "layout", "python/ast", "python/astutil", "source", "python/parser", "rules"},
	"change":                    {"analysis", "checker", "checks", "config", "internal/regfile", "layout", "load", "optable", "python/ast", "python/astutil", "rules", "source"},
	"report":                    {"analysis", "checker", "python/ast", "rules"},
	"fix":                       {"internal/regfile", "python/ast", "python/parser"},
	"scaffold":                  {"fix", "internal/regfile", "python/ast", "python/parser"},
	"verify":                    {"checker", "checks", "config", "rules"},
	"internal/layers":           {},
	"internal/regfile":          {},
	"internal/fixtureset":       {},
	"internal/testrepo":         {".", "checks", "config", "layout", "rules", "source"},
	"internal/fixturetest":      {"analysis", "checker", "checks", "config", "internal/fixtureset", "report", "rules", "source"},
	"tools/fixtureoverlay":      {"internal/fixtureset"},
	"cmd/tilegym-lint":          {".", "analysis", "change", "checker", "checks", "config", "fix", "internal/regfile", "layout", "optable", "python/ast", "python/astdump", "python/parser", "report", "rules", "scaffold", "source", "verify"},
}

func TestImportGraph(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && (name == "testdata" || name == "fixtures" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(p, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		ok, known := allowed[rel]
		if !known {
			t.Errorf("package %s is not in the import graph table", rel)
			return nil
		}
		for _, imp := range pkg.Imports {
			var dep string
			switch {
			case imp == module:
				dep = "."
			case strings.HasPrefix(imp, module+"/"):
				dep = strings.TrimPrefix(imp, module+"/")
			default:
				continue
			}
			if !slices.Contains(ok, dep) {
				t.Errorf("%s imports %s, which is not below it (allowed: %s)", rel, dep, strings.Join(ok, ", "))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range allowed {
		if !seen[p] {
			t.Errorf("the table lists %s, which has no package", p)
		}
	}
}

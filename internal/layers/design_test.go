package layers

import (
	"go/build"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// modulePackages returns every package of the module (by slash directory
// relative to root) with the packages of the module it imports (tests
// aside; "." is the module's root package).
func modulePackages(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
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
		deps := []string{}
		for _, imp := range pkg.Imports {
			switch {
			case imp == module:
				deps = append(deps, ".")
			case strings.HasPrefix(imp, module+"/"):
				deps = append(deps, strings.TrimPrefix(imp, module+"/"))
			}
		}
		out[rel] = deps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// tableRows returns, for each path the first column of the package table
// of docs/design.md names (in backquotes), the index of its row.
func tableRows(doc string) map[string]int {
	rows := map[string]int{}
	_, section, _ := strings.Cut(doc, "\n## Packages\n")
	section, _, _ = strings.Cut(section, "\n## ")
	n := 0
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.SplitN(line, "|", 3)
		for _, m := range backquoted.FindAllStringSubmatch(cells[1], -1) {
			rows[m[1]] = n
		}
		n++
	}
	return rows
}

var backquoted = regexp.MustCompile("`([^`]+)`")

// TestDesignTable: the package table of docs/design.md lists every package
// of the module, names only packages (or files and directories) that
// exist, and, as it says, places each package below every package it
// imports (a row may hold packages that import each other).
func TestDesignTable(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "design.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := tableRows(string(doc))
	if len(rows) == 0 {
		t.Fatal("docs/design.md has no package table under \"## Packages\"")
	}
	pkgs := modulePackages(t, root)
	for _, p := range slices.Sorted(maps.Keys(pkgs)) {
		if p == "." {
			continue // the module's root package: rules.toml, embedded (the rules row)
		}
		row, ok := rows[p]
		if !ok {
			t.Errorf("docs/design.md's package table leaves out %s: add a row saying what it is, below the packages it imports", p)
			continue
		}
		for _, d := range pkgs[p] {
			if dr, ok := rows[d]; ok && dr > row {
				t.Errorf("docs/design.md's package table places %s above %s, which it imports", p, d)
			}
		}
	}
	for name := range rows {
		if _, ok := pkgs[name]; ok {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(name, "/")))); err != nil {
			t.Errorf("docs/design.md's package table names %s, which is neither a package nor a file of the module", name)
		}
	}
}

func TestTableRows(t *testing.T) {
	doc := "# x\n\n## Packages\n\n| path | what |\n|---|---|\n| `a`, `a/b` | A |\n| `c` | C, not `d` |\n\n## Next\n\n| `e` | E |\n"
	got := tableRows(doc)
	if len(got) != 3 || got["a"] != 0 || got["a/b"] != 0 || got["c"] != 1 {
		t.Errorf("tableRows = %v, want a and a/b in row 0, c in row 1, nothing else", got)
	}
}

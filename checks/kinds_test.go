package checks

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Every analyzer a file of the package declares is a kind: one left out of
// the list in kinds.go would never run and a rule naming it would not load.
func TestEveryAnalyzerIsListed(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, a := range Kinds() {
		listed[a.Name] = true
	}
	declared := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if !strings.HasSuffix(n.Name, "Analyzer") {
						continue
					}
					declared++
					kind := strings.ReplaceAll(strings.TrimSuffix(file, ".go"), "_", "-")
					if Kind(kind) == nil {
						t.Errorf("%s declares %s, but kind %q is not in the list of kinds.go", file, n.Name, kind)
					}
				}
			}
		}
	}
	if declared != len(listed) {
		t.Errorf("%d analyzers declared, %d kinds listed", declared, len(listed))
	}
}

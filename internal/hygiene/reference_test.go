package hygiene

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestReferenceCopiesInTests: production code keeps one algorithm per job.
// The plain copy a fast path is compared with is named <name>Scan (the
// repository's convention) and lives in a _test.go file; a function of
// production code named so is either such a copy or a real path misnamed
// (name it for what it does).
func TestReferenceCopiesInTests(t *testing.T) {
	root, files := tracked(t)
	for _, f := range files {
		if !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go") || strings.HasPrefix(f, "fixtures/") {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, filepath.Join(root, f), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, name := range scanFuncs(file) {
			t.Errorf("%s: func %s is a reference copy's name in production code: move it to a _test.go file beside the test comparing it, or name the path for what it does", f, name)
		}
	}
}

// scanFuncs returns the functions and methods of file whose names end in
// "Scan".
func scanFuncs(file *ast.File) []string {
	var out []string
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && strings.HasSuffix(fd.Name.Name, "Scan") {
			out = append(out, fd.Name.Name)
		}
	}
	return out
}

func TestScanFuncs(t *testing.T) {
	src := "package p\nfunc fooScan() {}\nfunc (x T) barScan() {}\nfunc scanner() {}\nfunc Scan() {}\n"
	file, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(scanFuncs(file), ",")
	if want := "fooScan,barScan,Scan"; got != want {
		t.Errorf("scanFuncs = %s, want %s", got, want)
	}
}

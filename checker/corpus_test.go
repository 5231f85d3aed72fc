package checker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/source"
)

// corpusFiles returns the parsed Python files of the corpus that the
// equivalence tests compare a fast helper with its first form on: every
// fixture, the TileGym tree at /work/tilegym when present, the tree named by
// $EXTRA_PY_TREE, and the extra directories given. Files that do not parse
// are left out.
func corpusFiles(t testing.TB, extra ...string) []*source.File {
	t.Helper()
	dirs := fixtureset.Dirs(t)
	dirs = append(dirs, extra...)
	if d := os.Getenv("EXTRA_PY_TREE"); d != "" {
		dirs = append(dirs, d)
	}
	dirs = append(dirs, "/work/tilegym")
	var files []*source.File
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		src := &source.DiskSource{Dir: dir}
		paths, err := src.List()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if filepath.Ext(p) != ".py" {
				continue
			}
			data, err := src.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if f := source.ParseFile(p, data); f.AST != nil {
				files = append(files, f)
			}
		}
	}
	if len(files) == 0 {
		t.Fatal("no Python files in the corpus")
	}
	return files
}

package checker

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/source"
)

// TestListUnder checks that the layout's directories hold every file in
// scope: Load lists the same paths walking only them as walking the whole
// tree, on every fixture and on the TileGym tree when present.
func TestListUnder(t *testing.T) {
	cat := testrepo.Catalog(t)
	dirs := fixtureset.Dirs(t)
	if tree := realtree.Dir(); tree != "" {
		dirs = append(dirs, tree)
	}
	for _, dir := range dirs {
		cfg := fixtureConfig(t, dir)
		setup := config.NewSetup(cat, cfg)
		lay := setup.Layout
		src := &source.DiskSource{Dir: dir}
		all, err := src.List()
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, p := range all {
			if lay.InScope(p) {
				want = append(want, p)
			}
		}
		got, err := load.ListInScope(src, setup)
		if err != nil {
			t.Fatal(err)
		}
		var gotIn []string
		for _, p := range got {
			if lay.InScope(p) {
				gotIn = append(gotIn, p)
			}
		}
		if !reflect.DeepEqual(gotIn, want) {
			t.Errorf("%s: in-scope files listed under %v differ from a whole listing:\ngot  %v\nwant %v", dir, must(lay.ScanDirs()), gotIn, want)
		}
	}
}

func must(dirs []string, ok bool) []string {
	if !ok {
		return []string{"(everything)"}
	}
	return dirs
}

func TestScanDirs(t *testing.T) {
	l := &layout.Layout{
		Include: []string{"src/tilegym/**/*.py"},
		Scopes: []*layout.Scope{{
			Dispatch:   []string{"src/tilegym/ops/ops.py", "src/tilegym/suites/{suite}/ops.py"},
			CuTile:     "src/tilegym/ops/cutile",
			Tests:      []string{"tests/ops/**/test_*.py", "tests/ops-extra/*.py"},
			Benchmarks: []string{"tests/benchmark/bench_*.py"},
		}},
	}
	dirs, ok := l.ScanDirs()
	want := []string{"src/tilegym", "tests/benchmark", "tests/ops", "tests/ops-extra"}
	if !ok || !reflect.DeepEqual(dirs, want) {
		t.Errorf("ScanDirs = %v, %v; want %v", dirs, ok, want)
	}
	for _, g := range []string{"**/test_*.py", "*.py", "setup.py", "../x/*.py", "a//b/*.py"} {
		l := &layout.Layout{Include: []string{g}}
		if dirs, ok := l.ScanDirs(); ok {
			t.Errorf("glob %q: ScanDirs = %v, want the whole tree", g, dirs)
		}
	}
}

// TestListUnderSkips checks that ListUnder enters no directory List skips.
func TestListUnderSkips(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/x.py", "a/.hidden/y.py", "a/node_modules/z.py", ".h/w.py", "real/v.py"} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "link")); err != nil {
		t.Skip(err)
	}
	src := &source.DiskSource{Dir: dir}
	got, err := src.ListUnder([]string{".h", "a", "link", "missing"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a/x.py"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ListUnder = %v, want %v", got, want)
	}
	if _, err := (&source.DiskSource{Dir: filepath.Join(dir, "nope")}).ListUnder([]string{"a"}); err == nil {
		t.Error("ListUnder of a missing root: no error")
	}
}

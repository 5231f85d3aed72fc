package checker

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	tilegymlint "github.com/tilegym/tilegym-lint"
)

// TestCheckOpsLazy checks that a check of one op, which parses only the
// files the op needs (LoadForOps), reports exactly what the whole check
// reports for that op (Load, then Check narrowed to it): same JSON, for
// every op of every fixture, and of the TileGym tree when present
// ($TILEGYM_LINT_BENCH_TREE, default /work/tilegym).
func TestCheckOpsLazy(t *testing.T) {
	cat, err := LoadCatalog(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob("../fixtures/*")
	tree := os.Getenv("TILEGYM_LINT_BENCH_TREE")
	if tree == "" {
		tree = "/work/tilegym"
	}
	// Every op of TileGym is a hundred whole checks: not under the race
	// detector (the fixtures exercise the same concurrency).
	if fi, err := os.Stat(tree); err == nil && fi.IsDir() && !raceEnabled {
		dirs = append(dirs, tree)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cfg := fixtureConfig(t, dir)
			if dir == tree {
				cfg = nil
				if p, err := FindConfig(dir); err == nil && p != "" {
					if cfg, err = LoadConfig(p); err != nil {
						t.Fatal(err)
					}
				}
			}
			layout := BuildLayout(cat.Layout, cfg)
			src := &DiskSource{Dir: dir}
			full, err := Load(src, layout, cfg)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := Check(full, cat, cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, op := range whole.Table.Ops {
				names = append(names, op.Name)
				if op.Suite == "" && op.Func != op.Name {
					names = append(names, op.Func)
				}
			}
			names = append(names, "no-such-op")
			for _, name := range names {
				opts := Options{Ops: []string{name}}
				want, err := Check(full, cat, cfg, opts)
				if err != nil {
					t.Fatal(err)
				}
				got, err := CheckSource(src, layout, cat, cfg, opts)
				if err != nil {
					t.Fatal(err)
				}
				var wb, gb bytes.Buffer
				if err := WriteJSON(&wb, want, false); err != nil {
					t.Fatal(err)
				}
				if err := WriteJSON(&gb, got, false); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(wb.Bytes(), gb.Bytes()) {
					t.Errorf("--op %s: the one-op check differs from the whole check narrowed to it:\n got: %s\nwant: %s", name, gb.String(), wb.String())
				}
				if len(got.Errors) != len(want.Errors) {
					t.Errorf("--op %s: %d analyzer errors, want %d", name, len(got.Errors), len(want.Errors))
				}
			}
		})
	}
}

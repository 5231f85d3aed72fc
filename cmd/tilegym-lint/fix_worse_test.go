package main

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/report"
)

// TestFixLeavesNothingWorse: --fix either repairs a finding whole or does
// not offer to: after it, no rule has more findings than before, on every
// fixture, every fix fixture's before tree and, with $TILEGYM_LINT_TREE, a
// copy of that TileGym checkout (where adding _backends to a class whose
// methods parametrize "backend" over a written-out list raised TG404).
func TestFixLeavesNothingWorse(t *testing.T) {
	type tree struct {
		name string
		dir  func(t *testing.T) string
	}
	var trees []tree
	list, err := fixtureset.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range list {
		// A plain fixture is materialized as itself: --fix works on a copy.
		trees = append(trees, tree{f.Name, func(t *testing.T) string {
			files, err := f.Files()
			if err != nil {
				t.Fatal(err)
			}
			return writeTree(t, files)
		}})
	}
	for _, ff := range loadFixFixtures(t) {
		trees = append(trees, tree{"fix/" + ff.name, func(t *testing.T) string { return writeTree(t, ff.before) }})
	}
	if dir := realtree.Dir(); dir != "" {
		trees = append(trees, tree{"TILEGYM_LINT_TREE", func(t *testing.T) string {
			cp := t.TempDir()
			testrepo.CopyDir(t, dir, cp)
			return cp
		}})
	}
	perRule := func(t *testing.T, dir string) (map[string]int, bool) {
		code, out, errOut := runCLI("--format", "json", dir)
		if code == 2 {
			t.Logf("exit 2 (not checked): %s", errOut)
			return nil, false
		}
		var rep report.JSONReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		n := map[string]int{}
		for _, d := range rep.Diagnostics {
			n[d.Rule]++
		}
		return n, true
	}
	for _, tr := range trees {
		t.Run(tr.name, func(t *testing.T) {
			dir := tr.dir(t)
			before, ok := perRule(t, dir)
			if !ok {
				return
			}
			if code, _, errOut := runCLI("--fix", "--format", "json", dir); code == 2 {
				t.Fatalf("--fix: exit 2: %s", errOut)
			}
			after, _ := perRule(t, dir)
			var rules []string
			for r := range after {
				rules = append(rules, r)
			}
			sort.Strings(rules)
			for _, r := range rules {
				if after[r] > before[r] {
					t.Errorf("%s: %d findings after --fix, %d before", r, after[r], before[r])
				}
			}
		})
	}
}

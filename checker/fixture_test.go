package checker_test

import (
	"testing"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/fixturetest"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// TestFixtures runs every fixture (fixtures/good, fixtures/example and the
// overlays fixtures/rules/*.txtar) and compares its findings with its
// "# want:" comments and its text report with its golden file.
func TestFixtures(t *testing.T) {
	all, err := fixtureset.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) <= len(fixtureset.Plain) {
		t.Fatalf("%d fixtures", len(all))
	}
	for _, f := range all {
		t.Run(f.Name, func(t *testing.T) {
			res := fixturetest.Run(t, f)
			if f.Name != fixtureset.Base {
				return
			}
			// The base passes Steps 1-5 for every op; Step 6 is not run.
			if len(res.Ops) == 0 {
				t.Fatal("fixtures/good has no op")
			}
			for _, o := range res.Ops {
				for _, s := range o.Steps {
					want := checker.StatusPass
					if s.Step == 6 {
						want = checker.StatusNotRun
					}
					if s.Status != want {
						t.Errorf("good: op %s step %d is %s, want %s", o.Name, s.Step, s.Status, want)
					}
				}
			}
		})
	}
}

// TestEachRuleHasFixture checks that every rule of the catalog is broken by
// some fixture whose only wanted findings are that rule's; but the Step 6
// verify rule, which the static check never reports.
func TestEachRuleHasFixture(t *testing.T) {
	cat := testrepo.Catalog(t)
	all, err := fixtureset.List()
	if err != nil {
		t.Fatal(err)
	}
	alone := map[string][]string{}
	for _, f := range all {
		files, err := f.Files()
		if err != nil {
			t.Fatal(err)
		}
		wants, err := fixtureset.ParseAllWants(files)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, w := range wants {
			ids[w.Rule] = true
		}
		if len(ids) == 1 {
			alone[wants[0].Rule] = append(alone[wants[0].Rule], f.Name)
		}
	}
	n := 0
	for _, r := range cat.Rules {
		if r.Kind == "verify" || r.Kind == "baseline" {
			continue // found by package verify and package baseline, not by a check
		}
		if r.Kind == "parse-error" && r.Params != nil {
			continue // TG010 wants a file over 4 MiB: cmd's TestFileTooLargeIsReported writes one
		}
		n++
		if len(alone[r.ID]) == 0 {
			t.Errorf("%s: no fixture breaks this rule alone", r.ID)
		}
	}
	if n < 40 {
		t.Errorf("only %d statically checked rules in the catalog", n)
	}
}

package checks_test

import (
	"testing"

	"github.com/tilegym/tilegym-lint/checks/checkstest"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// Every op of fixtures/good has tests and benchmarks, and no kind of Steps
// 4-6 reports anything there (the fixture has no "# want:" of theirs).
func TestSteps456Good(t *testing.T) {
	repo := checkstest.Load(t, "../fixtures/good")
	byKind := map[string][]*rules.Rule{}
	var kinds []string
	for _, r := range testrepo.Catalog(t).Rules {
		if r.Step < 4 || r.Step > 6 {
			continue
		}
		if _, ok := byKind[r.Kind]; !ok {
			kinds = append(kinds, r.Kind)
		}
		byKind[r.Kind] = append(byKind[r.Kind], r)
	}
	if len(kinds) == 0 {
		t.Fatal("no rule of Steps 4-6 in the catalog")
	}
	for _, k := range kinds {
		checkstest.Check(t, repo, byKind[k]...)
	}
	for _, op := range optable.BuildOpTable(repo).Ops {
		if len(op.Tests) == 0 || len(op.Benchmarks) == 0 {
			t.Errorf("%s: tests %d, benchmarks %d", op.Name, len(op.Tests), len(op.Benchmarks))
		}
	}
}

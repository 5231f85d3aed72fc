package checks_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// The verify kind's commands for an op: its tests, each benchmark
// (optional), the linters; without a test file, no pytest command.
func TestVerifyCommands(t *testing.T) {
	var rule *rules.Rule
	for _, r := range testrepo.Catalog(t).Rules {
		if r.Kind == "verify" {
			rule = r
		}
	}
	if rule == nil {
		t.Fatal("no verify rule")
	}
	op := &optable.Op{Name: "softmax", Func: "softmax",
		Tests:      []*source.File{{Path: "tests/ops/test_softmax.py"}},
		Benchmarks: []*source.File{{Path: "tests/benchmark/bench_softmax.py"}, {Path: "tests/benchmark/bench_softmax2.py"}}}
	got := rule.Params.(checks.VerifyCommander).VerifyCommands(op)
	want := []string{
		"pytest tests/ops/test_softmax.py -v",
		"python tests/benchmark/bench_softmax.py  # optional",
		"python tests/benchmark/bench_softmax2.py  # optional",
		"pre-commit run -a",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("VerifyCommands (-want +got):\n%s", diff)
	}
	// No test file: the pytest command is left out, never run on nothing.
	got = nil
	for _, c := range checks.VerifyPlan(rule, &optable.Op{Name: "x", Func: "x"}) {
		got = append(got, c.Cmd())
	}
	if diff := cmp.Diff([]string{"pre-commit run -a"}, got); diff != "" {
		t.Errorf("VerifyPlan without files (-want +got):\n%s", diff)
	}
}

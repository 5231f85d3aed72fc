package checker

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	tilegymlint "github.com/tilegym/tilegym-lint"
	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// steps456Catalog loads the Steps 4-6 section of rules.toml (between its
// markers) as a catalog of its own, so these tests do not depend on the
// other sections' kinds.
func steps456Catalog(t *testing.T) *rules.Catalog {
	t.Helper()
	data, err := os.ReadFile("../rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	const begin, end = "# ---- steps 4-6 ----\n", "# ---- end steps 4-6 ----"
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatal("rules.toml: steps 4-6 markers not found")
	}
	section := "version = 1\n" + s[i+len(begin):j]
	cat, err := rules.Load([]byte(section), "rules.toml[steps 4-6]", func(kind string) (func() any, bool) {
		a := checks.Kind(kind)
		if a == nil {
			return nil, false
		}
		return a.Params, true
	})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// run456 runs the op table and the Steps 4-6 kinds over a fixture and
// returns "file:line: RULE" for every finding, sorted, and the table.
func run456(t *testing.T, dir string) ([]string, *optable.OpTable, []analysis.Diagnostic) {
	t.Helper()
	full, err := checks.LoadCatalog(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		t.Fatalf("embedded catalog: %v", err)
	}
	repo, err := load.Load(&source.DiskSource{Dir: dir}, config.BuildLayout(&full.Layout, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	cat := steps456Catalog(t)
	tab := optable.BuildOpTable(repo)
	byKind := map[string][]*rules.Rule{}
	var kinds []string
	for _, r := range cat.Rules {
		if _, ok := byKind[r.Kind]; !ok {
			kinds = append(kinds, r.Kind)
		}
		byKind[r.Kind] = append(byKind[r.Kind], r)
	}
	var diags []analysis.Diagnostic
	for _, k := range kinds {
		a := checks.Kind(k)
		pass := &checks.Pass{Analyzer: a, Repo: repo, Rules: byKind[k],
			ResultOf: map[*checks.Analyzer]any{optable.OpTableAnalyzer: tab},
			Report:   func(d analysis.Diagnostic) { diags = append(diags, d) }}
		if _, err := a.Run(pass); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
	}
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s:%d: %s", d.File, d.Pos.Line, d.Rule.ID))
		if d.Message == "" || strings.Contains(d.Message, "{") && !strings.Contains(d.Message, "{}") && !strings.Contains(d.Message, "{backend}") {
			t.Errorf("%s:%d: %s: message has an unfilled placeholder: %q", d.File, d.Pos.Line, d.Rule.ID, d.Message)
		}
	}
	sort.Strings(got)
	return got, tab, diags
}

// TestSteps456Good checks that every op of fixtures/good has tests and
// benchmarks and that every rule of Steps 4-6 applies to something there.
func TestSteps456Good(t *testing.T) {
	got, tab, _ := run456(t, "../fixtures/good")
	if len(got) != 0 {
		t.Fatalf("fixtures/good: %d findings: %v", len(got), got)
	}
	for _, op := range tab.Ops {
		if len(op.Tests) == 0 || len(op.Benchmarks) == 0 {
			t.Errorf("%s: tests %d, benchmarks %d", op.Name, len(op.Tests), len(op.Benchmarks))
		}
	}
}

func TestVerifyCommands(t *testing.T) {
	cat := steps456Catalog(t)
	var rule *rules.Rule
	for _, r := range cat.Rules {
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
	got = verifyPlanStrings(checks.VerifyPlan(rule, &optable.Op{Name: "x", Func: "x"}))
	if diff := cmp.Diff([]string{"pre-commit run -a"}, got); diff != "" {
		t.Errorf("VerifyPlan without files (-want +got):\n%s", diff)
	}
}

func verifyPlanStrings(cs []checks.VerifyCommand) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Cmd())
	}
	return out
}

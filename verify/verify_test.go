package verify

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tilegymlint "github.com/tilegym/tilegym-lint"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/report"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// verifyCatalog is a catalog of one verify rule (TG601) whose params are
// the given [[rule.params.commands]] tables.
func verifyCatalog(t *testing.T, commands string) *rules.Catalog {
	t.Helper()
	cat, err := checks.LoadCatalog([]byte(`version = 1
[[rule]]
id = "TG601"
step = 6
requirement = "S6.1"
severity = "warning"
title = "verify"
message = "{op}: verify"
kind = "verify"
[rule.docs]
what = "w"
why = "y"
fix = "f"
`+commands), "verify.toml")
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestRunVerify runs fake verify commands (from a test catalog) on
// fixtures/good: a failing required command fails Step 6, a failing
// optional one does not, and the tail of the output is kept.
func TestRunVerify(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	cat := verifyCatalog(t, `[[rule.params.commands]]
run = "echo testing {op} {test}"
[[rule.params.commands]]
run = "printf line1\\nline2\\n"
[[rule.params.commands]]
run = "test {op} != softmax"
[[rule.params.commands]]
run = "test 1 -eq not-a-number"
optional = true
`)
	builtin, err := checks.LoadCatalog(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	repo, err := load.Load(&source.DiskSource{Dir: "../fixtures/good"}, config.NewSetup(builtin, nil))
	if err != nil {
		t.Fatal(err)
	}
	res, err := checker.Check(repo, config.NewSetup(cat, nil), checker.Options{Ops: []string{"softmax", "silu_and_mul"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Ops) != 2 || res.Ops[1].Steps[5].Status != checker.StatusNotRun || len(res.Ops[1].Steps[5].Commands) == 0 {
		t.Fatalf("static step 6 = %+v", res.Ops)
	}
	abs, _ := filepath.Abs("../fixtures/good")
	Run(res, config.NewSetup(cat, nil), Options{Dir: abs})
	byName := map[string]checker.StepResult{}
	for _, o := range res.Ops {
		byName[o.Name] = o.Steps[5]
	}
	silu, soft := byName["silu_and_mul"], byName["softmax"]
	if silu.Status != checker.StatusPass || soft.Status != checker.StatusFail {
		t.Errorf("verify status: silu_and_mul %s (want pass), softmax %s (want fail)", silu.Status, soft.Status)
	}
	if len(soft.Runs) != 4 || !soft.Runs[1].Passed || soft.Runs[1].Tail != "line1\nline2" || soft.Runs[2].Passed || soft.Runs[2].ExitCode != 1 {
		t.Errorf("softmax runs = %+v", soft.Runs)
	}
	if r := soft.Runs[3]; r.Passed || !r.Optional || r.ExitCode != 2 {
		t.Errorf("optional run = %+v", r)
	}
	if r := silu.Runs[0]; !r.Passed || r.Cmd != "echo testing silu_and_mul tests/ops/test_silu_and_mul.py" {
		t.Errorf("silu_and_mul first run = %+v", r)
	}
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, res, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"exit_code": 2`) {
		t.Errorf("JSON lacks the runs:\n%s", buf.String())
	}
}

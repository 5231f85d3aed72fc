//go:build unix

package verify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/source"
)

// TestVerifyNoShell: a test file whose name holds shell syntax and spaces
// reaches the command as one argument; nothing it spells runs.
func TestVerifyNoShell(t *testing.T) {
	dir := t.TempDir()
	name := "tests/ops/test_x;touch INJECTED;.py"
	cat := verifyCatalog(t, `[[rule.params.commands]]
run = "printf %s| {test}"
[[rule.params.commands]]
run = "echo {op}"
`)
	op := &optable.Op{Name: "-rf", Func: "x", Tests: []*source.File{{Path: name}, {Path: "-t.py"}}}
	plan := checks.VerifyPlan(cat.Rules[0], op)
	if len(plan) != 2 {
		t.Fatalf("plan = %+v", plan)
	}
	run := runCommand(plan[0], Options{Dir: dir, TailLines: 5})
	if !run.Passed || run.Tail != name+"|./-t.py|" {
		t.Errorf("run = %+v, want the two paths as two arguments", run)
	}
	if _, err := os.Stat(filepath.Join(dir, "INJECTED")); err == nil {
		t.Error("the file name's shell syntax ran")
	}
	if run := runCommand(plan[1], Options{Dir: dir}); run.Passed || !strings.Contains(run.Err, "option") {
		t.Errorf("an op name starting with '-' ran as an argument: %+v", run)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		return
	}
	// The printed command, pasted into a shell, runs the same arguments.
	out, err := exec.Command("sh", "-c", plan[0].Cmd()).Output()
	if err != nil || string(out) != name+"|./-t.py|" {
		t.Errorf("sh -c %q: %q, %v", plan[0].Cmd(), out, err)
	}
}

// TestVerifyTimeoutKillsGroup: a command past its time limit is killed with
// the children it started, and the run returns although a child held the
// output open.
func TestVerifyTimeoutKillsGroup(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	vc := checks.VerifyCommand{Argv: []string{"sh", "-c", "sleep 60 & echo $! > " + pidFile + "; sleep 60"}}
	start := time.Now()
	run := runCommand(vc, Options{Dir: dir, Timeout: 300 * time.Millisecond, TailLines: 5})
	if run.Passed || !strings.Contains(run.Err, "timed out") {
		t.Errorf("run = %+v, want timed out", run)
	}
	// A bound against a hang, far above the limit plus the grace period.
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the run took %s after a 300ms limit", d)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	for i := 0; i < 100; i++ {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("the background child %d outlived the timeout", pid)
}

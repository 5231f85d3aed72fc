// Package verify is explicit verify mode (Step 6): it runs the verify
// commands of each reported op in the checked root, each as an argument
// vector in its own process group, and records the outcome in the result.
package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/rules"
)

// Options configure explicit verify mode.
type Options struct {
	Dir       string        // where the commands run: the checked root
	Timeout   time.Duration // per command; 0 means none
	TailLines int           // lines of output kept; 0 means 20
}

// killGrace is how long a command may hold its output open after it was
// killed or exited (a child that inherited it) before the wait gives up.
const killGrace = 2 * time.Second

// Run is the explicit verify mode of Step 6 (S6.1): for every op of
// the result whose Step 6 is not skipped, it runs the commands of the
// enabled step-6 rules (checker.VerifyPlan) in the checked root and sets the step
// to pass or fail, keeping each command's exit status and the tail of its
// output. It executes code of the checked repository; static mode never
// calls it.
func Run(res *checker.Result, setup *config.Setup, opt Options) {
	var step6 []*rules.Rule
	for _, r := range setup.EnabledRules() {
		if r.Step == 6 {
			step6 = append(step6, r)
		}
	}
	if opt.TailLines <= 0 {
		opt.TailLines = 20
	}
	cache := map[string]checker.CommandRun{} // a command shared by ops (pre-commit run -a) runs once
	for i := range res.Ops {
		o := &res.Ops[i]
		s := &o.Steps[5]
		if s.Status == checker.StatusSkipped || o.Op == nil {
			continue
		}
		var runs []checker.CommandRun
		for _, r := range step6 {
			for _, vc := range checks.VerifyPlan(r, o.Op) {
				key := vc.Cmd()
				run, ok := cache[key]
				if !ok {
					run = runCommand(vc, opt)
					cache[key] = run
				}
				run.Optional = vc.Optional
				runs = append(runs, run)
			}
		}
		s.Runs = runs
		s.Commands = nil
		failed := s.Status == checker.StatusFail
		for _, r := range runs {
			s.Commands = append(s.Commands, r.Cmd)
			if !r.Passed && !r.Optional {
				failed = true
			}
		}
		if failed {
			s.Status = checker.StatusFail
		} else {
			s.Status = checker.StatusPass
		}
	}
}

// runCommand runs one command as an argument vector (no shell) in its own
// process group; on timeout the whole group is killed, and the wait for its
// output is bounded even when a child keeps it open.
func runCommand(vc checks.VerifyCommand, opt Options) checker.CommandRun {
	run := checker.CommandRun{Cmd: vc.Cmd()}
	if vc.Err != "" || len(vc.Argv) == 0 {
		run.ExitCode, run.Err = -1, vc.Err
		if run.Err == "" {
			run.Err = "empty command"
		}
		return run
	}
	ctx := context.Background()
	var cancel context.CancelFunc = func() {}
	if opt.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, opt.Timeout)
	}
	defer cancel()
	c := exec.CommandContext(ctx, vc.Argv[0], vc.Argv[1:]...)
	c.Dir = opt.Dir
	ownProcessGroup(c)
	c.WaitDelay = killGrace
	out := &tailBuffer{max: 1 << 16}
	c.Stdout, c.Stderr = out, out
	err := c.Run()
	killProcessGroup(c) // children left behind, even after a clean exit
	run.Tail = lastLines(out.String(), opt.TailLines)
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		run.ExitCode, run.Err = -1, fmt.Sprintf("timed out after %s", opt.Timeout)
	case err == nil:
		run.Passed = true
	case errors.As(err, &exit) && exit.Exited():
		run.ExitCode = exit.ExitCode()
	default:
		run.ExitCode, run.Err = -1, err.Error()
	}
	return run
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) > t.max {
		p = p[len(p)-t.max:]
	}
	t.buf.Write(p)
	if t.buf.Len() > 2*t.max {
		b := t.buf.Bytes()
		keep := append([]byte(nil), b[len(b)-t.max:]...)
		t.buf.Reset()
		t.buf.Write(keep)
	}
	return n, nil
}

func (t *tailBuffer) String() string {
	b := t.buf.Bytes()
	if len(b) > t.max {
		b = b[len(b)-t.max:]
	}
	return string(b)
}

func lastLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

package checker

import (
	"strings"

	"github.com/tilegym/tilegym-lint/rules"
)

// VerifyAnalyzer implements kind "verify" (S6.1) in static mode.
var VerifyAnalyzer = &Analyzer{
	Name: "verify",
	Doc: `Lists the commands that verify an op; static mode runs nothing.

Step 6 of the workflow runs the op's tests, optionally its benchmark, and the
linters. tilegym-lint never executes code of the checked repository in static
mode: the kind reports no finding, and the driver shows Step 6 as "not run"
with the rule's command templates filled in for each op (the params
implement VerifyCommander): {test} is the op's test files, {benchmark} one benchmark
file per command, {op} and {func} the op's names. A command whose
placeholders have no file for the op is left out.`,
	Requires: []*Analyzer{OpTableAnalyzer},
	Params:   func() any { return new(verifyParams) },
	Run:      func(*Pass) (any, error) { return nil, nil },
}

type verifyParams struct {
	Commands []verifyCommandParam `toml:"commands"`
}

type verifyCommandParam struct {
	Run      string `toml:"run"`      // the command template
	Optional bool   `toml:"optional"` // a failure does not fail the step
}

func init() { Register(VerifyAnalyzer) }

// VerifyCommand is one filled-in verify command for an op.
type VerifyCommand struct {
	Cmd      string
	Optional bool
}

// VerifyPlan returns the verify commands of a rule of kind "verify" for an
// op, in the rule's order: {test} becomes the op's test files (space
// separated, one command), {benchmark} one command per benchmark file, {op}
// and {func} the op's dispatch and function names. A command needing a
// file the op does not have is left out. It returns nil for a rule of
// another kind or without params.
func VerifyPlan(rule *rules.Rule, op *Op) []VerifyCommand {
	if rule == nil || op == nil {
		return nil
	}
	p, _ := rule.Params.(*verifyParams)
	if p == nil {
		return nil
	}
	return p.plan(op)
}

func (p *verifyParams) plan(op *Op) []VerifyCommand {
	if op == nil {
		return nil
	}
	var tests []string
	for _, f := range op.Tests {
		if f != nil {
			tests = append(tests, f.Path)
		}
	}
	var out []VerifyCommand
	for _, c := range p.Commands {
		cmd := replaceAll(c.Run, "{op}", op.Name, "{func}", op.Func)
		if strings.Contains(cmd, "{test}") {
			if len(tests) == 0 {
				continue
			}
			cmd = strings.ReplaceAll(cmd, "{test}", strings.Join(tests, " "))
		}
		if strings.Contains(cmd, "{benchmark}") {
			for _, f := range op.Benchmarks {
				if f != nil {
					out = append(out, VerifyCommand{Cmd: strings.ReplaceAll(cmd, "{benchmark}", f.Path), Optional: c.Optional})
				}
			}
			continue
		}
		out = append(out, VerifyCommand{Cmd: cmd, Optional: c.Optional})
	}
	return out
}

// VerifyCommands implements VerifyCommander for the driver: VerifyPlan
// rendered for display, an optional command carrying a trailing
// "  # optional" (a shell comment, so the line can still be pasted into a
// shell).
func (p *verifyParams) VerifyCommands(op *Op) []string {
	var out []string
	for _, c := range p.plan(op) {
		s := c.Cmd
		if c.Optional {
			s += "  # optional"
		}
		out = append(out, s)
	}
	return out
}

package checks

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// VerifyAnalyzer implements kind "verify".
var VerifyAnalyzer = &Analyzer{
	Name:         "verify",
	Placeholders: []string{"op", "file"},
	Doc: `Lists the commands that verify an op; it reports no finding.

The kind never runs anything: the driver shows the rule's step as "not
run" with the rule's command templates filled in for each op (the params
implement VerifyCommander), and package verify runs them under --verify.
{test} is the op's test files, {benchmark} one benchmark file per command,
{op} and {func} the op's names. A command whose placeholders have no file
for the op is left out. A template is words separated by spaces, run as an
argument vector: no shell reads it.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(VerifyParams) },
	Run:      func(*Pass) (any, error) { return nil, nil },
}

type VerifyParams struct {
	Commands []verifyCommandParam `toml:"commands"`
}

type verifyCommandParam struct {
	Run      string `toml:"run"`      // the command template
	Optional bool   `toml:"optional"` // a failure does not fail the step
}

// VerifyCommand is one filled-in verify command for an op: the program and
// its arguments, never a shell line.
type VerifyCommand struct {
	Argv     []string
	Optional bool
	// Err says why the command cannot run safely (an op name that would be
	// read as an option); such a command is shown but never run.
	Err string
}

// Cmd is the command as a shell would need it typed: every word that is not
// plain is single-quoted, so a copied command runs exactly Argv.
func (c VerifyCommand) Cmd() string {
	words := make([]string, len(c.Argv))
	for i, w := range c.Argv {
		words[i] = shellQuote(w)
	}
	return strings.Join(words, " ")
}

// shellQuote returns w as one POSIX shell word.
func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// VerifyPlan returns the verify commands of a rule of kind "verify" for an
// op, in the rule's order. A template is words separated by white space
// (no shell syntax); a word {test} becomes the op's test files, one argument
// each (the command is left out when the op has none); {benchmark} gives
// one command per benchmark file; {op} and {func} in a word become the op's
// dispatch and function names. It returns nil for a rule of another kind or
// without params.
func VerifyPlan(rule *rules.Rule, op *optable.Op) []VerifyCommand {
	if rule == nil || op == nil {
		return nil
	}
	p, _ := rule.Params.(*VerifyParams)
	if p == nil {
		return nil
	}
	return p.plan(op)
}

func (p *VerifyParams) plan(op *optable.Op) []VerifyCommand {
	if op == nil {
		return nil
	}
	tests := filePaths(op.Tests)
	benchmarks := filePaths(op.Benchmarks)
	var out []VerifyCommand
	for _, c := range p.Commands {
		words := strings.Fields(c.Run)
		if slices.Contains(words, "{test}") && len(tests) == 0 {
			continue
		}
		fill := func(bench string) VerifyCommand {
			vc := VerifyCommand{Optional: c.Optional}
			for _, w := range words {
				switch w {
				case "{test}":
					vc.Argv = append(vc.Argv, tests...)
					continue
				case "{benchmark}":
					vc.Argv = append(vc.Argv, bench)
					continue
				}
				filled := analysis.Expand(w, "{op}", op.Name, "{func}", op.Func)
				if filled != w && strings.HasPrefix(filled, "-") && vc.Err == "" {
					vc.Err = fmt.Sprintf("the argument %q would be read as an option; not run", filled)
				}
				vc.Argv = append(vc.Argv, filled)
			}
			return vc
		}
		if slices.Contains(words, "{benchmark}") {
			for _, b := range benchmarks {
				out = append(out, fill(b))
			}
			continue
		}
		out = append(out, fill(""))
	}
	return out
}

// filePaths returns the paths of files, each made safe to pass as an
// argument: a path that starts with '-' gets a leading "./".
func filePaths(files []*source.File) []string {
	var out []string
	for _, f := range files {
		if f == nil {
			continue
		}
		p := f.Path
		if strings.HasPrefix(p, "-") {
			p = "./" + p
		}
		out = append(out, p)
	}
	return out
}

// VerifyCommands implements VerifyCommander for the driver: VerifyPlan
// rendered for display, an optional command carrying a trailing
// "  # optional" (a shell comment, so the line can still be pasted into a
// shell).
func (p *VerifyParams) VerifyCommands(op *optable.Op) []string {
	var out []string
	for _, c := range p.plan(op) {
		s := c.Cmd()
		if c.Optional {
			s += "  # optional"
		}
		out = append(out, s)
	}
	return out
}

func (p *VerifyParams) Validate() error {
	if len(p.Commands) == 0 {
		return errors.New("commands: want at least one command")
	}
	for i, c := range p.Commands {
		if strings.TrimSpace(c.Run) == "" {
			return fmt.Errorf("commands[%d]: empty run", i)
		}
	}
	return nil
}

// VerifyCommander is implemented by the params of the Step 6 kind: the
// exact commands that verify an op (pytest on its tests, its benchmark,
// the linters).
type VerifyCommander interface {
	VerifyCommands(op *optable.Op) []string
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/completion"
	"github.com/tilegym/tilegym-lint/report"
	"github.com/tilegym/tilegym-lint/scaffold"
)

const completionUsage = `usage: tilegym-lint completion bash|zsh

Prints a shell completion script: the subcommands, the flags, the values of
--format, the rule ids after --select, --ignore and "rules", file names
elsewhere. Load it with
  bash: source <(tilegym-lint completion bash)    (or save it in
        ~/.local/share/bash-completion/completions/tilegym-lint)
  zsh:  tilegym-lint completion zsh > "${fpath[1]}/_tilegym-lint"
`

// subcommands are the words completion offers first.
var subcommands = []string{"completion", "new", "parse", "rules"}

// fileFlags take a file name; the other valued flags take free text.
var fileFlags = map[string]bool{"config": true, "catalog": true, "sarif": true, "summary": true, "root": true}

// runCompletion implements `tilegym-lint completion bash|zsh`.
func runCompletion(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tilegym-lint completion", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, completionUsage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 || fs.Arg(0) != "bash" && fs.Arg(0) != "zsh" {
		fmt.Fprint(stderr, "tilegym-lint completion: want bash or zsh\n"+completionUsage)
		return 2
	}
	cat, err := checks.OpenCatalog("")
	if err != nil {
		fmt.Fprintf(stderr, "tilegym-lint completion: rule catalog:\n%v\n", err)
		return 2
	}
	var ids []string
	for _, r := range cat.Rules {
		ids = append(ids, r.ID)
	}
	sort.Strings(ids)
	script, err := completion.Script(fs.Arg(0), completion.Spec{
		Subcommands: subcommands, Flags: checkFlagList(), NewFlags: flagList(newFlagSet(&scaffold.Options{}, io.Discard)),
		FileFlags: fileFlags, Formats: report.Formats, Rules: ids,
	})
	if err == nil {
		_, err = io.WriteString(stdout, script)
	}
	if err != nil {
		fmt.Fprintf(stderr, "tilegym-lint completion: %v\n", err)
		return 2
	}
	return 0
}

// checkFlagList lists the check command's flags, sorted by name.
func checkFlagList() []completion.Flag {
	var f checkFlags
	return flagList(newCheckFlagSet(&f, io.Discard))
}

// flagList lists the flags of a flag set, sorted by name.
func flagList(fs *flag.FlagSet) []completion.Flag {
	var out []completion.Flag
	fs.VisitAll(func(fl *flag.Flag) {
		b, ok := fl.Value.(interface{ IsBoolFlag() bool })
		out = append(out, completion.Flag{Name: fl.Name, Usage: fl.Usage, Bool: ok && b.IsBoolFlag()})
	})
	return out
}

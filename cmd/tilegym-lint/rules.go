package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/rules"
)

const rulesUsage = `usage: tilegym-lint rules [--format text|json] [RULE...]

Without RULE, lists the catalog: id, step, requirement, severity, whether
--fix fixes it ("fix"), title.
With RULE (e.g. TG301), prints its documentation: what it checks, why it
matters, how to fix it, an example.
`

// runRules implements `tilegym-lint rules`.
func runRules(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tilegym-lint rules", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, rulesUsage) }
	format := fs.String("format", "text", "text or json")
	catalog := fs.String("catalog", "", "use this rules.toml instead of the built-in catalog")
	ids, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "tilegym-lint rules: --format %q: want text or json\n", *format)
		return 2
	}
	cat, err := checks.OpenCatalog(*catalog)
	if err != nil {
		fmt.Fprintf(stderr, "tilegym-lint: rule catalog:\n%v\n", err)
		return 2
	}
	sel := cat.Rules
	if len(ids) > 0 {
		sel = nil
		for _, id := range ids {
			r := cat.Rule(strings.ToUpper(id))
			if r == nil {
				fmt.Fprintf(stderr, "tilegym-lint rules: no rule %s (tilegym-lint rules lists them)\n", id)
				return 2
			}
			sel = append(sel, r)
		}
	}
	if *format == "json" {
		if err := rules.WriteJSON(stdout, sel); err != nil {
			fmt.Fprintf(stderr, "tilegym-lint: %v\n", err)
			return 2
		}
		return 0
	}
	if len(ids) == 0 {
		if err := rules.WriteTable(stdout, sel); err != nil {
			return 2
		}
		return 0
	}
	rules.WriteDocs(stdout, sel)
	return 0
}

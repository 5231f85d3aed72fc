package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tilegym/tilegym-lint/rules"
)

const rulesUsage = `usage: tilegym-lint rules [--format text|json] [RULE...]

Without RULE, lists the catalog: id, step, requirement, severity, whether
--fix fixes it ("fix"), title.
With RULE (e.g. TG301), prints its documentation: what it checks, why it
matters, how to fix it, an example.
`

type jsonRule struct {
	ID          string   `json:"id"`
	Step        int      `json:"step"`
	Requirement string   `json:"requirement"`
	Severity    string   `json:"severity"`
	Title       string   `json:"title"`
	Kind        string   `json:"kind"`
	Message     string   `json:"message"`
	Files       []string `json:"files,omitempty"`
	Fixable     bool     `json:"fixable"`
	Docs        jsonDocs `json:"docs"`
	Params      any      `json:"params,omitempty"`
}

type jsonDocs struct {
	What    string `json:"what"`
	Why     string `json:"why"`
	Fix     string `json:"fix"`
	Example string `json:"example,omitempty"`
}

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
	cat, err := loadCatalog(*catalog)
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
		out := []jsonRule{}
		for _, r := range sel {
			out = append(out, jsonRule{
				ID: r.ID, Step: r.Step, Requirement: r.Requirement, Severity: string(r.Severity),
				Title: r.Title, Kind: r.Kind, Message: r.Message, Files: r.Files, Fixable: r.Fixable,
				Docs:   jsonDocs{What: trim(r.Docs.What), Why: trim(r.Docs.Why), Fix: trim(r.Docs.Fix), Example: trim(r.Docs.Example)},
				Params: r.Params,
			})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "tilegym-lint: %v\n", err)
			return 2
		}
		return 0
	}
	if len(ids) == 0 {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tSTEP\tREQ\tSEVERITY\tFIX\tTITLE")
		for _, r := range sel {
			fix := "-"
			if r.Fixable {
				fix = "fix"
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", r.ID, r.Step, r.Requirement, r.Severity, fix, r.Title)
		}
		if err := tw.Flush(); err != nil {
			return 2
		}
		return 0
	}
	for i, r := range sel {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		writeRuleDoc(stdout, r)
	}
	return 0
}

func trim(s string) string { return strings.TrimSpace(s) }

func writeRuleDoc(w io.Writer, r *rules.Rule) {
	step := fmt.Sprintf("step %d", r.Step)
	if r.Step == 0 {
		step = "cross-step"
	}
	fmt.Fprintf(w, "%s: %s\n", r.ID, r.Title)
	fmt.Fprintf(w, "  %s, requirement %s, %s, kind %s\n", step, r.Requirement, r.Severity, r.Kind)
	if len(r.Files) > 0 {
		fmt.Fprintf(w, "  files: %s\n", strings.Join(r.Files, ", "))
	}
	if r.Fixable {
		fmt.Fprintln(w, "  fixable: tilegym-lint --fix applies its suggested fix")
	} else {
		fmt.Fprintln(w, "  not fixable by tilegym-lint --fix")
	}
	section := func(title, body string) {
		body = trim(body)
		if body == "" {
			return
		}
		fmt.Fprintf(w, "\n%s\n", title)
		for _, l := range strings.Split(body, "\n") {
			if l == "" {
				fmt.Fprintln(w)
				continue
			}
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	section("What it checks", r.Docs.What)
	section("Why it matters", r.Docs.Why)
	section("How to fix it", r.Docs.Fix)
	section("Example", r.Docs.Example)
}

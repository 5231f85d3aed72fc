package rules

// The catalog as `tilegym-lint rules` prints it: a table, each rule's
// documentation, or JSON.

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

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

// WriteJSON writes the rules as an indented JSON array (an empty one for
// none), their docs trimmed.
func WriteJSON(w io.Writer, rs []*Rule) error {
	out := []jsonRule{}
	for _, r := range rs {
		out = append(out, jsonRule{
			ID: r.ID, Step: r.Step, Requirement: r.Requirement, Severity: string(r.Severity),
			Title: r.Title, Kind: r.Kind, Message: r.Message, Files: r.Files, Fixable: r.Fixable,
			Docs:   jsonDocs{What: trim(r.Docs.What), Why: trim(r.Docs.Why), Fix: trim(r.Docs.Fix), Example: trim(r.Docs.Example)},
			Params: r.Params,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// WriteTable writes one line per rule: id, step, requirement, severity,
// whether --fix fixes it ("fix"), title, in aligned columns under a
// header.
func WriteTable(w io.Writer, rs []*Rule) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTEP\tREQ\tSEVERITY\tFIX\tTITLE")
	for _, r := range rs {
		fix := "-"
		if r.Fixable {
			fix = "fix"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", r.ID, r.Step, r.Requirement, r.Severity, fix, r.Title)
	}
	return tw.Flush()
}

// WriteDocs writes each rule's documentation (writeDoc), a blank line
// between two.
func WriteDocs(w io.Writer, rs []*Rule) {
	for i, r := range rs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		writeDoc(w, r)
	}
}

func trim(s string) string { return strings.TrimSpace(s) }

// writeDoc writes a rule's documentation: its title, step, requirement,
// severity, kind, files and whether --fix fixes it, then what it checks,
// why it matters, how to fix it and an example, each section indented.
func writeDoc(w io.Writer, r *Rule) {
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

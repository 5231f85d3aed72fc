package report

import (
	"encoding/json"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
)

// JSONVersion is the version of the JSON output format.
const JSONVersion = 1

// JSONReport is the JSON output: one document per run.
type JSONReport struct {
	Version     int              `json:"version"`
	Root        string           `json:"root"`
	Ops         []JSONOp         `json:"ops"`
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
}

// JSONOp is one op's verdicts.
type JSONOp struct {
	Op    string     `json:"op"`
	Steps []JSONStep `json:"steps"`
}

// JSONStep is one step's verdict.
type JSONStep struct {
	Step     int            `json:"step"`
	Status   checker.Status `json:"status"`
	Reason   string         `json:"reason,omitempty"`
	Commands []string       `json:"commands,omitempty"`
	Runs     []JSONRun      `json:"runs,omitempty"`
}

// JSONRun is the outcome of one verify command (explicit verify mode).
type JSONRun struct {
	Command  string         `json:"command"`
	Optional bool           `json:"optional,omitempty"`
	Status   checker.Status `json:"status"` // pass or fail
	ExitCode int            `json:"exit_code"`
	Error    string         `json:"error,omitempty"`
	Tail     string         `json:"tail,omitempty"`
}

// JSONDiagnostic is one finding; lines and columns are 1-based, paths are
// slash paths relative to the root, op is null for a finding of no op.
type JSONDiagnostic struct {
	Rule        string        `json:"rule"`
	Family      string        `json:"family"` // the rule's family: "TG", "K", ...
	Requirement string        `json:"requirement"`
	Step        int           `json:"step"`
	Op          *string       `json:"op"`
	Subject     string        `json:"subject,omitempty"` // what a finding of a family without steps is about
	Severity    string        `json:"severity"`
	File        string        `json:"file"`
	Line        int           `json:"line"`
	Column      int           `json:"column"`
	EndLine     int           `json:"end_line"`
	EndColumn   int           `json:"end_column"`
	Message     string        `json:"message"`
	Related     []JSONRelated `json:"related,omitempty"`
	Fixes       []JSONFix     `json:"fixes,omitempty"`
	PreExisting *bool         `json:"pre_existing,omitempty"`
	// Baseline: the baseline records the finding; it does not fail the
	// run (present only when true).
	Baseline bool `json:"baseline,omitempty"`
}

// JSONFix is a suggested fix of a finding: edits applied together (what
// tilegym-lint --fix applies for the rules marked fixable).
type JSONFix struct {
	Message string     `json:"message"`
	Edits   []JSONEdit `json:"edits"`
}

// JSONEdit replaces the text from (start_line, start_column) up to, not
// including, (end_line, end_column) of file with new_text; equal positions
// insert. Lines are 1-based, columns 1-based byte offsets into the line's
// UTF-8 text (as the findings' columns); line count+1, column 1 is the end
// of a file ending with a newline. A "\n" in new_text stands for the file's
// line end.
type JSONEdit struct {
	File        string `json:"file"`
	StartLine   int    `json:"start_line"`
	StartColumn int    `json:"start_column"`
	EndLine     int    `json:"end_line"`
	EndColumn   int    `json:"end_column"`
	NewText     string `json:"new_text"`
}

// JSONRelated is a related position of a finding.
type JSONRelated struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message,omitempty"`
}

// NewJSONReport converts a result; changeMode adds pre_existing to every
// diagnostic.
func NewJSONReport(res *checker.Result, changeMode bool) *JSONReport {
	rep := &JSONReport{Version: JSONVersion, Root: res.Root, Ops: []JSONOp{}, Diagnostics: []JSONDiagnostic{}}
	for _, o := range res.Ops {
		jo := JSONOp{Op: o.Name}
		for _, s := range o.Steps {
			js := JSONStep{Step: s.Step, Status: s.Status, Reason: s.Reason, Commands: s.Commands}
			for _, r := range s.Runs {
				st := checker.StatusPass
				if !r.Passed {
					st = checker.StatusFail
				}
				js.Runs = append(js.Runs, JSONRun{Command: r.Cmd, Optional: r.Optional, Status: st, ExitCode: r.ExitCode, Error: r.Err, Tail: r.Tail})
			}
			jo.Steps = append(jo.Steps, js)
		}
		rep.Ops = append(rep.Ops, jo)
	}
	for _, d := range res.Diagnostics {
		jd := JSONDiagnostic{
			Rule:        d.Rule.ID,
			Family:      familyOf(d.Rule),
			Subject:     d.Subject,
			Requirement: d.Rule.Requirement,
			Step:        d.Rule.Step,
			Severity:    string(d.Severity),
			File:        d.File,
			Line:        d.Pos.Line,
			Column:      d.Pos.Col + 1,
			EndLine:     d.End.Line,
			EndColumn:   d.End.Col + 1,
			Message:     d.Message,
		}
		if jd.Severity == "" {
			jd.Severity = string(d.Rule.Severity)
		}
		if d.Op != "" {
			op := d.Op
			jd.Op = &op
		}
		for _, r := range d.Related {
			jr := JSONRelated{File: r.File, Message: r.Message}
			if r.Pos.Line > 0 {
				jr.Line, jr.Column = r.Pos.Line, r.Pos.Col+1
			}
			jd.Related = append(jd.Related, jr)
		}
		for _, f := range portableFixes(d.Fixes) {
			jf := JSONFix{Message: f.Message, Edits: []JSONEdit{}}
			for _, e := range f.Edits {
				jf.Edits = append(jf.Edits, JSONEdit{File: e.File, StartLine: e.Start.Line, StartColumn: e.Start.Col + 1,
					EndLine: e.End.Line, EndColumn: e.End.Col + 1, NewText: e.NewText})
			}
			jd.Fixes = append(jd.Fixes, jf)
		}
		if changeMode {
			pre := d.PreExisting
			jd.PreExisting = &pre
		}
		jd.Baseline = d.Baseline
		rep.Diagnostics = append(rep.Diagnostics, jd)
	}
	return rep
}

// WriteJSON writes the result as one indented JSON document.
func WriteJSON(w io.Writer, res *checker.Result, changeMode bool) error {
	return encodeJSON(w, NewJSONReport(res, changeMode))
}

// encodeJSON writes v as indented JSON through a LogWriter, whose escapes
// are JSON's: the document decodes to the same values, and no line of it
// is a workflow command when a CI log shows it.
func encodeJSON(w io.Writer, v any) error {
	lw, flush := logWriter(w)
	enc := json.NewEncoder(lw)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	if ferr := flush(); err == nil {
		err = ferr
	}
	return err
}

// portableFixes returns the fixes a JSON document can carry. A fix whose
// new text is not UTF-8 (a line moved with its comment's stray bytes,
// which Python accepts) would reach the reader with U+FFFD in their place
// and change those bytes: it is left out of the JSON and SARIF reports,
// and tilegym-lint --fix still applies it.
func portableFixes(fixes []analysis.SuggestedFix) []analysis.SuggestedFix {
	out := fixes[:0:0]
	for _, f := range fixes {
		if !slices.ContainsFunc(f.Edits, func(e analysis.TextEdit) bool { return !utf8.ValidString(e.NewText) }) {
			out = append(out, f)
		}
	}
	return out
}

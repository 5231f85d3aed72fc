package report

import (
	"fmt"
	"io"
	"sync"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source/regfile"
)

// Formats are the names Emit writes a result in (--format), text first.
var Formats = []string{"text", "checklist", "json", "github", "sarif"}

// Emission says how a check's result is reported: what the command line
// chose.
type Emission struct {
	Format     string      // one of Formats
	Text       TextOptions // the text views' options (ChangeMode and Strict also decide the exit status; Color only the per-op report's)
	Statistics bool        // the text format counts the findings per rule instead
	NotStarted []NewOp     // the ops --op names that do not exist yet (the checklist's)
	Version    string      // the tool's version, for SARIF

	Root     string // the checked root
	Compared string // what a change was compared with ("" for a whole check)

	// Annotate also writes annotations of the new findings, at most
	// GitHubMaxErrors errors and GitHubMaxWarnings warnings (not with the
	// github format, which writes them all).
	Annotate bool
	// AdoptHint, when not empty, is a notice written after the annotations
	// when a whole check fails: how to adopt the tool in a repository with
	// findings (there being no baseline).
	AdoptHint   string
	SARIFFile   string // also write SARIF to this file
	SummaryFile string // also append a Markdown summary to this file

	ExitZero bool // exit 0 even when the run fails
}

// locate is Locate (a variable: a test counts the calls).
var locate = Locate

// Emit writes the result as e says: the format on stdout, then the
// annotations, the SARIF file and the job summary; the check's internal
// errors on stderr. It returns the exit status: 2 after an internal error,
// 1 when the run fails (an op of e.NotStarted has its six steps to do, or
// RunFailed), unless e.ExitZero; else 0.
func Emit(stdout, stderr io.Writer, res *checker.Result, cat *rules.Catalog, e *Emission) (int, error) {
	changeMode := e.Text.ChangeMode
	// Only annotations, SARIF and the summary say where the repository
	// is: locating it runs git up to four times.
	out := sync.OnceValue(func() *Provenance { return locate(e.Root, changeMode, e.Compared) })
	plain := e.Text
	plain.Color = false // only the per-op report is coloured
	var err error
	switch e.Format {
	case "json":
		err = WriteJSON(stdout, res, changeMode)
	case "github":
		err = WriteAnnotations(stdout, res, out().Annotations(0, 0, false))
	case "sarif":
		err = WriteSARIF(stdout, res, cat, out().SARIF(e.Version))
	case "checklist":
		err = WriteChecklist(stdout, res, plain, e.NotStarted...)
	default:
		if e.Statistics {
			err = WriteStatistics(stdout, res, plain)
		} else {
			err = WriteText(stdout, res, e.Text)
		}
	}
	if err != nil {
		return 0, err
	}
	if e.Annotate && e.Format != "github" {
		opt := out().Annotations(GitHubMaxErrors, GitHubMaxWarnings, true)
		opt.Elsewhere = "the log"
		if e.SummaryFile != "" {
			opt.Elsewhere = "the job summary and the log"
		}
		if err := WriteAnnotations(stdout, res, opt); err != nil {
			return 0, err
		}
		if e.AdoptHint != "" && !changeMode && RunFailed(res, false, false) {
			if err := WriteNotice(stdout, e.AdoptHint); err != nil {
				return 0, err
			}
		}
	}
	if e.SARIFFile != "" {
		if err := regfile.Write(e.SARIFFile, false, func(w io.Writer) error {
			return WriteSARIF(w, res, cat, out().SARIF(e.Version))
		}); err != nil {
			return 0, err
		}
	}
	if e.SummaryFile != "" {
		if err := regfile.Write(e.SummaryFile, true, func(w io.Writer) error {
			return WriteSummary(w, res, cat, out().Summary())
		}); err != nil {
			return 0, err
		}
	}
	for _, err := range res.Errors {
		fmt.Fprintf(stderr, "tilegym-lint: internal error: %v\n", err)
	}
	switch {
	case len(res.Errors) > 0:
		return 2, nil
	case e.ExitZero:
		return 0, nil
	case len(e.NotStarted) > 0:
		return 1, nil // its six steps are still to do
	case RunFailed(res, changeMode, e.Text.Strict):
		return 1, nil
	}
	return 0, nil
}

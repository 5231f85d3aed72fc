package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/rules"
)

// WriteGitHub writes the findings as GitHub Actions workflow commands
// (::error / ::warning with file, line and column), which GitHub shows as
// annotations on the pull request, then the summary line. Pre-existing
// findings of change mode are notices.
func WriteGitHub(w io.Writer, res *checker.Result) error {
	prefix := strings.TrimSuffix(res.Root, "/")
	if prefix == "." || prefix == "" {
		prefix = ""
	} else {
		prefix += "/"
	}
	for _, d := range res.Diagnostics {
		level := "warning"
		if d.Severity == rules.Error {
			level = "error"
		}
		if d.PreExisting {
			level = "notice"
		}
		title := d.Rule.ID + " " + d.Rule.Title
		if d.PreExisting {
			title += " (pre-existing)"
		}
		if _, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			level, ghProperty(prefix+d.File), d.Pos.Line, d.Pos.Col+1, d.End.Line, d.End.Col+1,
			ghProperty(title), ghData(d.Message)); err != nil {
			return err
		}
	}
	ops, failed, errs, warns := Counts(res)
	_, err := fmt.Fprintf(w, "%d ops, %d failed, %d errors, %d warnings\n", ops, failed, errs, warns)
	return err
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

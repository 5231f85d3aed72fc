package scaffold

import (
	"fmt"
	"io"
	"strings"
)

// Write says on w what New did, or with dryRun would do: each new file
// (with dryRun its content, indented), each edited file (with dryRun its
// diff), then the next steps.
func (r *Result) Write(w io.Writer, dryRun bool) {
	verb, edited := "created", "edited"
	if dryRun {
		verb, edited = "would create", "would edit"
	}
	for _, f := range r.Created {
		fmt.Fprintf(w, "%s %s\n", verb, f.Path)
		if dryRun {
			for _, line := range strings.SplitAfter(f.Content, "\n") {
				if line != "" {
					fmt.Fprint(w, "    "+line)
				}
			}
		}
	}
	for _, f := range r.Edited {
		fmt.Fprintf(w, "%s %s\n", edited, f.File)
		if dryRun {
			fmt.Fprint(w, f.Diff)
		}
	}
	fmt.Fprintf(w, "\nNext steps for %s:\n", r.Dispatch)
	for _, s := range r.NextSteps {
		fmt.Fprintf(w, "  - %s\n", s)
	}
}

// Package report writes a check's result for machines and for CI systems:
// SARIF 2.1.0 for code scanning, a Markdown summary for a CI job's page, and
// GitHub Actions annotations chosen to fit what a step can display.
//
// Every writer takes the *checker.Result of a check and the rule catalog it
// ran. Paths in a result are relative to the checked root; Options.PathPrefix
// makes them relative to the repository root, which is what code scanning,
// annotations and links need when the checked root is a subdirectory.
package report

import (
	"path"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// Options say how paths and positions are written.
type Options struct {
	// PathPrefix, a slash path ending in "/" or empty, is prepended to every
	// path of the result (relative to the checked root) to make it relative
	// to the repository root.
	PathPrefix string
	// ChangeMode: the result is of a change; findings are new or pre-existing.
	ChangeMode bool
	// ReadFile, when not nil, reads a file by its path relative to the
	// checked root. Writers use it to turn the parser's byte columns into
	// the columns their format counts (UTF-16 code units for SARIF).
	ReadFile func(name string) ([]byte, error)
}

// repoPath returns a result path relative to the repository root.
func (o *Options) repoPath(p string) string {
	if o.PathPrefix == "" {
		return p
	}
	return path.Clean(o.PathPrefix + p)
}

// PathPrefix returns the Options.PathPrefix for a checked root given
// relative to the repository root ("." or "" for the root itself).
func PathPrefix(rel string) string {
	rel = strings.Trim(path.Clean("/"+strings.ReplaceAll(rel, "\\", "/")), "/")
	if rel == "" {
		return ""
	}
	return rel + "/"
}

// severity is a finding's effective severity.
func severity(d *analysis.Diagnostic) rules.Severity {
	if d.Severity != "" {
		return d.Severity
	}
	return d.Rule.Severity
}

// lineCache reads files once, through Options.ReadFile, and splits them into lines.
type lineCache struct {
	read  func(string) ([]byte, error)
	files map[string][][]byte
}

// line returns the text of 1-based line n of file, or nil.
func (c *lineCache) line(file string, n int) []byte {
	if c == nil || c.read == nil || n < 1 {
		return nil
	}
	if c.files == nil {
		c.files = map[string][][]byte{}
	}
	lines, ok := c.files[file]
	if !ok {
		if data, err := c.read(file); err == nil {
			lines = splitLines(data)
		}
		c.files[file] = lines
	}
	if n > len(lines) {
		return nil
	}
	return lines[n-1]
}

// span returns the text from pos to end (1-based lines, 0-based byte
// columns) of file, its lines joined by "\n"; ok is false when the file or
// a line cannot be read.
func (c *lineCache) span(file string, pos, end ast.Pos) (string, bool) {
	var b strings.Builder
	for n := pos.Line; n <= end.Line; n++ {
		text := c.line(file, n)
		if text == nil && (n != end.Line || end.Col > 0) {
			return "", false
		}
		from, to := 0, len(text)
		if n == pos.Line {
			from = min(pos.Col, len(text))
		}
		if n == end.Line {
			to = min(end.Col, len(text))
		}
		if from < to {
			b.Write(text[from:to])
		}
		if n < end.Line {
			b.WriteByte('\n')
		}
	}
	return b.String(), true
}

func splitLines(data []byte) [][]byte {
	var lines [][]byte
	for len(data) > 0 {
		i := 0
		for i < len(data) && data[i] != '\n' && data[i] != '\r' {
			i++
		}
		lines = append(lines, data[:i])
		if i < len(data) && data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		if i < len(data) {
			i++
		}
		data = data[i:]
	}
	return lines
}

// utf16Col converts a 0-based byte column of a line to a 1-based column
// counted in UTF-16 code units. Without the line's text, or past its end
// (the end of a line, one past it), it counts bytes.
func utf16Col(text []byte, col int) int {
	if text == nil || col > len(text) {
		return col + 1
	}
	units := 0
	for _, r := range string(text[:col]) {
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	return units + 1
}

package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// hostileStrings are names and texts a pull request can put in an op name,
// a file name, a comment or a command: workflow commands (at the start of
// a line, after blanks, behind invisible characters, split over a line
// end) and Markdown that would take over the job summary.
var hostileStrings = []string{
	"::stop-commands::pwn",
	"::error file=ops.py,line=1::forged",
	"  ::add-mask::secret",
	"\t::set-output name=x::y",
	"\u200b::warning::zero-width first",
	":\u200b:notice::split by a zero-width space",
	"x\n::error::after a line feed",
	"x\r::error::after a carriage return",
	"x\u2028::error::after a line separator",
	"##[error file=a.py]forged",
	"ok ##[set-output name=x;]y",
	"#\u200d#[add-mask]hidden joiner",
	"##\u00ad[group]soft hyphen",
	"###[warning]three",
	"\u202eevil\u202c bidi",
	"%0A::error::percent-encoded line feed",
	"bad\xff\xfe::utf8",
	":",
	"#",
	"!\n\nAll ops pass. ✅\n\n<!--",
	"<img src=x onerror=alert(1)>",
	"[click](https://evil.example) ![i](https://evil.example/x.png)",
	"a|b|c",
	"`code` ```fence``` ~~~",
	"* item\n# heading\n> quote",
	"&lt; &amp; entity",
	"line\\\nbreak",
	"  \u00a0::nbsp",
}

// hostileResult is a result whose every string from the repository is s:
// an op that fails (with a reason, findings, related locations, a fix and
// a failed verify run), an op that passes with Step 6 to run, an op with a
// skipped step, and a finding of no op.
func hostileResult(s string) *checker.Result {
	r := &rules.Rule{ID: "TG104", Title: "Op function has a docstring", Severity: rules.Error, Step: 1, Fixable: true,
		Message: "{op}: def {func} has no docstring; describe the op"}
	w := &rules.Rule{ID: "TG501", Title: "Benchmark exists", Severity: rules.Warning, Step: 5}
	n := &rules.Rule{ID: "TG001", Title: "File parses", Severity: rules.Error}
	pos := ast.Pos{Line: 2, Col: 4}
	steps := func(st checker.Status) [6]checker.StepResult {
		var out [6]checker.StepResult
		for i := range out {
			out[i] = checker.StepResult{Step: i + 1, Status: checker.StatusPass}
		}
		out[0].Status = st
		out[5] = checker.StepResult{Step: 6, Status: checker.StatusNotRun, Commands: []string{"pytest " + s, s + "  # optional", "pre-commit run -a"}}
		return out
	}
	failing := checker.OpResult{Name: s, Steps: steps(checker.StatusFail)}
	failing.Steps[0].Reason = s
	failing.Steps[5] = checker.StepResult{Step: 6, Status: checker.StatusFail, Runs: []checker.CommandRun{
		{Cmd: s, ExitCode: 1, Tail: s + "\n" + s},
		{Cmd: "pytest " + s, Optional: true, ExitCode: 2, Err: s},
	}}
	passing := checker.OpResult{Name: s + "2", Steps: steps(checker.StatusPass)}
	passing3 := checker.OpResult{Name: s + "3", Steps: steps(checker.StatusPass)}
	skipped := checker.OpResult{Name: s + "4", Steps: steps(checker.StatusSkipped)}
	skipped.Steps[0].Reason = s
	file := "src/tilegym/ops/" + s + ".py"
	return &checker.Result{
		Root: s,
		Ops:  []checker.OpResult{failing, passing, passing3, skipped},
		Diagnostics: []analysis.Diagnostic{
			{Rule: r, Op: s, File: file, Pos: pos, End: pos, Severity: rules.Error,
				Message: s + ": def " + s + " has no docstring; describe the op " + s,
				Related: []analysis.Related{{File: s, Pos: pos, End: pos, Message: s}},
				Fixes: []analysis.SuggestedFix{{Message: s, Edits: []analysis.TextEdit{
					{File: file, Start: pos, End: pos, NewText: s}}}}},
			{Rule: w, Op: s + "2", File: s, Pos: pos, End: pos, Severity: rules.Warning, Message: s + " -- " + s},
			{Rule: w, Op: s, File: s, Pos: pos, End: pos, Severity: rules.Warning, Message: s, PreExisting: true},
			{Rule: n, File: s, Pos: ast.Pos{Line: 1}, End: ast.Pos{Line: 1}, Severity: rules.Error, Message: s},
		},
	}
}

// logOutputs writes res with every writer whose output a CI log shows.
func logOutputs(t testing.TB, res *checker.Result) map[string]string {
	t.Helper()
	cat := &rules.Catalog{Rules: []*rules.Rule{res.Diagnostics[0].Rule, res.Diagnostics[1].Rule}}
	read := func(string) ([]byte, error) { return []byte("x = 1\n    y\n"), nil }
	outs := map[string]string{}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"text": func(b *bytes.Buffer) error { return WriteText(b, res, TextOptions{}) },
		"text --full": func(b *bytes.Buffer) error {
			return WriteText(b, res, TextOptions{Full: true, ChangeMode: true, Width: 40})
		},
		"text --quiet": func(b *bytes.Buffer) error { return WriteText(b, res, TextOptions{Quiet: true}) },
		"text colour":  func(b *bytes.Buffer) error { return WriteText(b, res, TextOptions{Full: true, Color: true}) },
		"checklist":    func(b *bytes.Buffer) error { return WriteChecklist(b, res, TextOptions{ChangeMode: true}) },
		"statistics":   func(b *bytes.Buffer) error { return WriteStatistics(b, res, TextOptions{}) },
		"json":         func(b *bytes.Buffer) error { return WriteJSON(b, res, true) },
		"sarif": func(b *bytes.Buffer) error {
			return WriteSARIF(b, res, cat, SARIFOptions{Options: Options{ReadFile: read}})
		},
		"github": func(b *bytes.Buffer) error {
			return WriteAnnotations(b, res, AnnotationOptions{Options: Options{ChangeMode: true}})
		},
		"github bounds": func(b *bytes.Buffer) error {
			return WriteAnnotations(b, res, AnnotationOptions{MaxErrors: 1, MaxWarnings: 1})
		},
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		outs[name] = b.String()
	}
	return outs
}

// runnerInvisible is what a runner comparing strings as .NET does may skip.
func runnerInvisible(r rune) bool {
	return invisible(r) && r != '\n' && r != '\r'
}

// runnerLines splits output as GitHub's runner reads it: "\n", "\r" and
// "\r\n" end a line.
func runnerLines(out string) []string {
	return strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' })
}

// visible drops what runnerInvisible says a runner may skip.
func visible(s string) string {
	return strings.Map(func(r rune) rune {
		if runnerInvisible(r) {
			return -1
		}
		return r
	}, s)
}

// commandIn returns why a line is a workflow command to a runner, or "":
// "::" first after blanks, or "##[" anywhere, invisible characters skipped.
func commandIn(line string) string {
	v := visible(line)
	if strings.HasPrefix(strings.TrimLeftFunc(v, unicode.IsSpace), "::") {
		return "starts with ::"
	}
	if strings.Contains(v, "##[") {
		return "holds ##["
	}
	return ""
}

// ownCommand reports whether line is an annotation WriteAnnotations writes:
// "::LEVEL file=...,line=N...,title=...::message" or its closing notice,
// with no "##[" anywhere and the properties free of "::".
func ownCommand(line string) bool {
	var props string
	switch {
	case strings.HasPrefix(line, "::error file="), strings.HasPrefix(line, "::warning file="), strings.HasPrefix(line, "::notice file="):
		rest := line[strings.Index(line, " ")+1:]
		end := strings.Index(rest, "::")
		if end < 0 {
			return false
		}
		props = rest[:end]
		if !strings.Contains(props, ",line=") || !strings.Contains(props, ",title=") {
			return false
		}
	case strings.HasPrefix(line, "::notice title=tilegym-lint::"):
	default:
		return false
	}
	return !strings.Contains(visible(line), "##[") && !hasInvisibleRune(line)
}

func hasInvisibleRune(s string) bool {
	for _, r := range s {
		if r != utf8.RuneError && runnerInvisible(r) && r != '\t' {
			return true
		}
	}
	return false
}

// checkLogOutputs fails the test when an output line is a workflow
// command (an annotation writer's own commands aside) or when the JSON
// outputs are not valid JSON.
func checkLogOutputs(t testing.TB, s string, outs map[string]string) {
	t.Helper()
	for name, out := range outs {
		for _, line := range runnerLines(out) {
			if strings.HasPrefix(name, "github") && ownCommand(line) {
				continue
			}
			if why := commandIn(line); why != "" {
				t.Errorf("%s of %q: line %s: %q", name, s, why, line)
			}
		}
		if name == "json" || name == "sarif" {
			var v any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Errorf("%s of %q: not JSON: %v", name, s, err)
			}
		}
	}
}

func TestWritersNoWorkflowCommand(t *testing.T) {
	for _, s := range hostileStrings {
		checkLogOutputs(t, s, logOutputs(t, hostileResult(s)))
	}
}

// The JSON writers' escapes are JSON's: what the repository wrote decodes
// back as it was.
func TestJSONKeepsHostileText(t *testing.T) {
	for _, s := range hostileStrings {
		if !utf8.ValidString(s) {
			continue // JSON carries U+FFFD instead
		}
		var b bytes.Buffer
		if err := WriteJSON(&b, hostileResult(s), false); err != nil {
			t.Fatal(err)
		}
		var rep JSONReport
		if err := json.Unmarshal(b.Bytes(), &rep); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if rep.Ops[0].Op != s || rep.Root != s {
			t.Errorf("JSON of %q: op %q, root %q", s, rep.Ops[0].Op, rep.Root)
		}
	}
}

func TestLogWriter(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text\n", "plain text\n"},
		{"softmax: FAIL\n", "softmax: FAIL\n"},
		{"::stop-commands::x\n", `\u003a:stop-commands::x` + "\n"},
		{"ok\n  ::error::x\r::warning::y", "ok\n  " + `\u003a:error::x` + "\r" + `\u003a:warning::y`},
		{":\u200b:x\n", `\u003a\u200b:x` + "\n"},
		{"a ::b: c\n", "a ::b: c\n"},
		{": one colon\n", ": one colon\n"},
		{"x ##[error]y ###[z\n", `x ##\u005berror]y ###\u005bz` + "\n"},
		{"#\u200b#[", `#\u200b#\u005b`},
		{"\x1b[1m##\x1b[0m: FAIL\n", "\x1b[1m##\x1b" + `\u005b0m: FAIL` + "\n"},
		{"\x1b[31mred\x1b[0m\tcol\n", "\x1b[31mred\x1b[0m\tcol\n"},
		{"bidi \u202e and tag \U000E0041\n", `bidi \u202e and tag \udb40\udc41` + "\n"},
		{"bad \xff byte\n", "bad \xff byte\n"},
		{"pytest tests/test_x.py::test_y\n", "pytest tests/test_x.py::test_y\n"},
	} {
		var b bytes.Buffer
		l := NewLogWriter(&b)
		// Byte by byte: a line split over writes is escaped as a whole.
		for i := 0; i < len(c.in); i++ {
			if _, err := l.Write([]byte{c.in[i]}); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("LogWriter(%q) = %q, want %q", c.in, b.String(), c.want)
		}
	}
}

// A writer of this package called with a LogWriter writes through it (its
// annotations as commands, the rest escaped), and one called with a plain
// writer flushes its own.
func TestLogWriterShared(t *testing.T) {
	res := hostileResult("::x")
	var b bytes.Buffer
	l := NewLogWriter(&b)
	l.Write([]byte("partial line"))
	if err := WriteAnnotations(l, res, AnnotationOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteText(l, res, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	l.Flush()
	lines := strings.Split(b.String(), "\n")
	if lines[0] != "partial line" || !strings.HasPrefix(lines[1], "::error file=") {
		t.Errorf("a command after a partial line starts its own: %q", lines[:2])
	}
	checkLogOutputs(t, "::x", map[string]string{"github+text": b.String()})
}

// FuzzWriters: no string from the repository, in any field, makes a writer
// whose output a CI log shows print a workflow command, the JSON writers
// print invalid JSON, or the Markdown summary change shape.
func FuzzWriters(f *testing.F) {
	for _, s := range hostileStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return // an op has a name; "" is the op of the findings of no op
		}
		checkLogOutputs(t, s, logOutputs(t, hostileResult(s)))
		checkSummary(t, s)
	})
}

// countingWriter counts the writes it is given.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

// A LogWriter passes on the lines of one Write in one write, escaped as
// line by line, and the text writer writes a report in large writes: one
// write per line made a system call per line of a report.
func TestLogWriterWritesOnce(t *testing.T) {
	var text strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&text, "line %d ::x ##[y\n::error::z\r", i)
	}
	text.WriteString("last ##[")
	var byLine bytes.Buffer
	l := NewLogWriter(&byLine)
	for _, line := range strings.SplitAfter(text.String(), "\n") {
		l.Write([]byte(line))
	}
	l.Flush()
	var c countingWriter
	l = NewLogWriter(&c)
	l.Write([]byte(text.String()))
	if c.writes != 1 {
		t.Errorf("one Write of 2,000 lines made %d writes, want 1", c.writes)
	}
	l.Flush()
	if c.String() != byLine.String() || c.writes != 2 {
		t.Errorf("written at once (then flushed, %d writes): %.80q..., line by line: %.80q...", c.writes, c.String(), byLine.String())
	}

	res := hostileResult("::x")
	var want bytes.Buffer
	if err := WriteText(&want, res, TextOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	c = countingWriter{}
	if err := WriteText(&c, res, TextOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(want.String(), "\n"); c.writes != 1 || lines < 5 {
		t.Errorf("the text report of %d lines made %d writes, want 1", lines, c.writes)
	}
}

// appendLogSafe's fast path (no '#', no invisible character, no ':' or
// non-ASCII character first after spaces) writes what the character by
// character escaping writes.
func TestAppendLogSafeFastPath(t *testing.T) {
	parts := []string{"", " ", "  ", ":", "::", "#", "##[", "[", "a", "\"op\": \"x\",", "\u00a0", "\u2003", "\u200b", "\t", "\x1b[1m", "\xff", "é", "x::y"}
	var lines []string
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				lines = append(lines, a+b+c)
			}
		}
	}
	lines = append(lines, hostileStrings...)
	for _, line := range lines {
		for _, atStart := range []bool{true, false} {
			got := appendLogSafe(nil, []byte(line), atStart)
			want := appendLogEscaped(nil, []byte(line), atStart)
			if !bytes.Equal(got, want) {
				t.Errorf("appendLogSafe(%q, %v) = %q, character by character %q", line, atStart, got, want)
			}
		}
	}
}

package baseline

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

var (
	tg104 = &rules.Rule{ID: "TG104", Severity: rules.Error}
	tg009 = &rules.Rule{ID: "TG009", Severity: rules.Warning, Message: "the baseline entry {entry} {problem}; write it again"}
)

func diag(op, file, line string, n int) analysis.Diagnostic {
	return analysis.Diagnostic{Rule: tg104, Op: op, File: file, Pos: ast.Pos{Line: n}, Severity: rules.Error,
		Fingerprint: analysis.Fingerprint(line)}
}

// TestWriteRead: what Write writes, Read reads back: sorted, counted,
// odd names quoted; a finding of no op is "-".
func TestWriteRead(t *testing.T) {
	res := &checker.Result{Diagnostics: []analysis.Diagnostic{
		diag("softmax", "b.py", "def softmax(x):", 3),
		diag("", "a.py", "x", 1),
		diag("-", "tab\there.py", "y", 1),
		diag("softmax", "b.py", "def softmax(x):", 9),
	}}
	var buf bytes.Buffer
	if err := Write(&buf, res); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 4 || lines[0] != Header ||
		!strings.HasPrefix(lines[1], "TG104\t-\ta.py\t") ||
		!strings.HasPrefix(lines[2], "TG104\tsoftmax\tb.py\t") || !strings.HasSuffix(lines[2], "\t2") ||
		!strings.HasPrefix(lines[3], "TG104\t\"-\"\t\"tab\\there.py\"\t") {
		t.Fatalf("baseline:\n%s", buf.String())
	}
	b, err := Read(buf.Bytes(), "base")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) != 3 || b.Entries[0].Op != "" || b.Entries[1].Count != 2 || b.Entries[2].Op != "-" || b.Entries[2].File != "tab\there.py" {
		t.Errorf("entries %+v", b.Entries)
	}
	// A repeated line adds up.
	b, err = Read([]byte(lines[2]+"\n"+lines[2]+"\n"), "base")
	if err != nil || len(b.Entries) != 1 || b.Entries[0].Count != 4 {
		t.Errorf("repeated line: %+v %v", b, err)
	}
}

// TestReadErrors: a malformed line is an error naming the file and line.
func TestReadErrors(t *testing.T) {
	for _, text := range []string{
		"TG104\tsoftmax\tb.py\t0123456789abcdef\n",
		"TG104\tsoftmax\tb.py\tnothex\t1\n",
		"TG104\tsoftmax\tb.py\t0123456789abcdef\t0\n",
		"\tsoftmax\tb.py\t0123456789abcdef\t1\n",
	} {
		_, err := Read([]byte("# header\n"+text), "base")
		if err == nil || !strings.Contains(err.Error(), "base:2") {
			t.Errorf("%q: error %v, want one at base:2", text, err)
		}
	}
}

// TestApply: recorded findings are baselined, one more is not; entries
// no finding matches are reported where the check judged them.
func TestApply(t *testing.T) {
	var buf bytes.Buffer
	Write(&buf, &checker.Result{Diagnostics: []analysis.Diagnostic{
		diag("softmax", "b.py", "def softmax(x):", 3),
		diag("softmax", "b.py", "def softmax(x):", 4),
		diag("relu", "c.py", "def relu(x):", 3),
	}})
	b, err := Read(buf.Bytes(), "base")
	if err != nil {
		t.Fatal(err)
	}
	// softmax: one of its two findings is fixed; relu's is fixed; gelu's
	// is new.
	res := &checker.Result{Diagnostics: []analysis.Diagnostic{
		diag("softmax", "b.py", "def softmax(x):", 13),
		diag("gelu", "c.py", "def gelu(x):", 30),
	}}
	b.Apply(res, Scope{Whole: true, Rule: tg009, Severity: rules.Warning, File: "base"})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Rule.ID+" "+d.Op+" "+map[bool]string{true: "baselined", false: "new"}[d.Baseline]+" "+d.Message)
	}
	want := []string{
		"TG104 softmax baselined ",
		"TG009  new the baseline entry TG104 softmax b.py counts 2 findings, of which 1 is left: set its count to 1; write it again",
		"TG009  new the baseline entry TG104 relu c.py matches no finding any more; write it again",
		"TG104 gelu new ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A check of softmax only judges softmax's entry.
	res = &checker.Result{}
	b.Apply(res, Scope{Ops: map[string]bool{"softmax": true}, Rule: tg009, File: "base"})
	if len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "softmax") {
		t.Errorf("--op softmax: %v", res.Diagnostics)
	}
}

// TestBuiltinMessage: the catalog's TG009 fills every placeholder its kind
// declares (the fixtures, which find no TG009, cannot show it).
func TestBuiltinMessage(t *testing.T) {
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	r := cat.Rule("TG009")
	if r == nil || r.Kind != checks.BaselineAnalyzer.Name {
		t.Fatalf("TG009: %+v", r)
	}
	b, err := Read([]byte("TG104\tsoftmax\tb.py\t0123456789abcdef\t1\n"), ".tilegym-lint-baseline")
	if err != nil {
		t.Fatal(err)
	}
	res := &checker.Result{}
	b.Apply(res, Scope{Whole: true, Rule: r, Severity: r.Severity, File: ".tilegym-lint-baseline"})
	if len(res.Diagnostics) != 1 {
		t.Fatalf("findings %v", res.Diagnostics)
	}
	msg := res.Diagnostics[0].Message
	if strings.Contains(msg, "{") || !strings.Contains(msg, "TG104 softmax b.py") || !strings.Contains(msg, "--write-baseline .tilegym-lint-baseline") {
		t.Errorf("message %q", msg)
	}
	for _, p := range checks.BaselineAnalyzer.Placeholders {
		if p != "op" && !strings.Contains(r.Message, "{"+p+"}") && p != "file" {
			t.Errorf("TG009's message does not use {%s}", p)
		}
	}
}

// TestWriteFileRefusesFiles: --write-baseline of a check of some files
// would record part of the findings; WriteFile refuses it and writes
// nothing.
func TestWriteFileRefusesFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline.txt")
	res := &checker.Result{Diagnostics: []analysis.Diagnostic{diag("softmax", "b.py", "def softmax(x):", 3)}}
	err := WriteFile(path, res, &checker.Target{Root: ".", Files: []string{"b.py"}}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "not files") {
		t.Errorf("WriteFile of files: %v, want a refusal", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the baseline was written: %v", err)
	}
	var out bytes.Buffer
	if err := WriteFile(path, res, &checker.Target{Root: "."}, &out); err != nil || !strings.Contains(out.String(), "wrote 1 finding of 1 ops") {
		t.Errorf("WriteFile of the root: %v, %q", err, out.String())
	}
}

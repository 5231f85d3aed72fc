package rules

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var renderRules = []*Rule{
	{ID: "TG301", Step: 3, Requirement: "S3.1", Severity: Error, Title: "the module is imported", Kind: "init-import",
		Message: "{op}: no import", Fixable: true, Files: []string{"src/**/__init__.py"},
		Docs: Docs{What: "\n  What.\n", Why: "Why.", Fix: "Fix:\n\nadd it", Example: "from . import x"}},
	{ID: "TG001", Requirement: "X.2", Severity: Warning, Title: "cross", Kind: "k", Docs: Docs{What: "W"}},
}

// TestWriteDocs: a rule's documentation has its header lines and each
// non-empty section indented, a blank line kept, an empty section left
// out; two rules are separated by a blank line.
func TestWriteDocs(t *testing.T) {
	var b bytes.Buffer
	WriteDocs(&b, renderRules)
	want := `TG301: the module is imported
  step 3, requirement S3.1, error, kind init-import
  files: src/**/__init__.py
  fixable: tilegym-lint --fix applies its suggested fix

What it checks
    What.

Why it matters
    Why.

How to fix it
    Fix:

    add it

Example
    from . import x

TG001: cross
  cross-step, requirement X.2, warning, kind k
  not fixable by tilegym-lint --fix

What it checks
    W
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestWriteTable: a header, then a line per rule with "fix" or "-".
func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTable(&b, renderRules); err != nil {
		t.Fatal(err)
	}
	want := "ID     STEP  REQ   SEVERITY  FIX  TITLE\n" +
		"TG301  3     S3.1  error     fix  the module is imported\n" +
		"TG001  0     X.2   warning   -    cross\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestWriteJSON: every field, docs trimmed, files left out when empty; no
// rule is an empty array, not null.
func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, renderRules); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0]["id"] != "TG301" || got[0]["fixable"] != true || got[0]["docs"].(map[string]any)["what"] != "What." {
		t.Errorf("got %v", got)
	}
	if _, ok := got[1]["files"]; ok {
		t.Errorf("TG001 has files: %v", got[1])
	}
	b.Reset()
	if err := WriteJSON(&b, nil); err != nil || strings.TrimSpace(b.String()) != "[]" {
		t.Errorf("no rule: %q, %v", b.String(), err)
	}
}

package checkstest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/rules"
)

// recorder is a testing.TB that records errors instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Error(args ...any)         { r.errs = append(r.errs, fmt.Sprint(args...)) }
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }
func (r *recorder) Logf(string, ...any)       {}

func TestCompareFindings(t *testing.T) {
	wants, err := fixtureset.ParseWants("ops.py", []byte("\ndef softmax(  # want: TG104 \"must accept \\*\\*kwargs\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	diag := func(line int, id, msg string) analysis.Diagnostic {
		d := analysis.Diagnostic{File: "ops.py", Rule: &rules.Rule{ID: id}, Message: msg}
		d.Pos.Line = line
		return d
	}
	for _, c := range []struct {
		name  string
		diags []analysis.Diagnostic
		errs  []string // substrings of the errors, in order
	}{
		{"match", []analysis.Diagnostic{diag(2, "TG104", "softmax: def softmax must accept **kwargs")}, nil},
		{"other words", []analysis.Diagnostic{diag(2, "TG104", "softmax: takes no **kwargs")}, []string{`the finding there says "softmax: takes no **kwargs"`}},
		{"other line", []analysis.Diagnostic{diag(3, "TG104", "must accept **kwargs")}, []string{"ops.py:2: want TG104", "ops.py:3: unexpected finding TG104"}},
		{"other rule", []analysis.Diagnostic{diag(2, "TG105", "must accept **kwargs")}, []string{"ops.py:2: unexpected finding TG105", "ops.py:2: want TG104"}},
		{"none", nil, []string{"ops.py:2: want TG104"}},
		{"twice", []analysis.Diagnostic{diag(2, "TG104", "must accept **kwargs"), diag(2, "TG104", "must accept **kwargs")}, []string{"unexpected finding TG104"}},
	} {
		r := &recorder{TB: t}
		CompareFindings(r, wants, c.diags)
		if len(r.errs) != len(c.errs) {
			t.Errorf("%s: errors %q, want %d", c.name, r.errs, len(c.errs))
			continue
		}
		for i, e := range c.errs {
			if !strings.Contains(r.errs[i], e) {
				t.Errorf("%s: error %q lacks %q", c.name, r.errs[i], e)
			}
		}
	}
}

// TestCheckMatchesWants: Check runs one rule over a tree in memory and
// holds its findings to the tree's "# want:" comments of that rule: a
// wanted finding passes, an unwanted one and a want without its finding
// are errors, and wants of other rules are not its business.
func TestCheckMatchesWants(t *testing.T) {
	tree := func(comment string) map[string]string {
		return map[string]string{
			"src/tilegym/ops/ops.py": "from tilegym.backend import dispatch\n\n\n@dispatch(\"k\")\ndef k(x):" + comment + "\n    raise NotImplementedError\n\n\n@dispatch(\"j\")\ndef j(x, **kwargs):  # want: TG106 \"docstring\"\n    raise NotImplementedError\n",
		}
	}
	rule := Rule(t, "TG104", nil)
	for _, c := range []struct {
		name    string
		comment string
		errs    []string
	}{
		{"wanted", `  # want: TG104 "k: def k must accept \*\*kwargs"`, nil},
		{"not wanted", "", []string{`ops.py:5: unexpected finding TG104 "k: def k must accept **kwargs`}},
		{"other words", `  # want: TG104 "must take \*args"`, []string{`ops.py:5: want TG104 matching "must take \\*args", got no such finding; the finding there says "k: def k must accept **kwargs`}},
	} {
		r := &recorder{TB: t}
		ds := Check(r, LoadFiles(t, tree(c.comment)), rule)
		if len(ds) != 1 || ds[0].Op != "k" {
			t.Errorf("%s: findings %v, want one of op k", c.name, ds)
		}
		if len(r.errs) != len(c.errs) {
			t.Errorf("%s: errors %q, want %d", c.name, r.errs, len(c.errs))
			continue
		}
		for i, e := range c.errs {
			if !strings.Contains(r.errs[i], e) {
				t.Errorf("%s: error %q lacks %q", c.name, r.errs[i], e)
			}
		}
	}
}

// Package checkstest runs one check kind over a small tree and compares
// its findings with the tree's "# want:" comments, as x/tools'
// analysistest does for go/analysis: a kind's tests sit beside it in
// checks and say, in the fixture, what must be reported.
//
// The tree is a directory (a fixture, written out with
// fixtureset.Materialize) or files in memory; it is loaded with the built-in
// catalog's layout. A comment
//
//	def softmax(  # want: TG104 "accept \*\*kwargs"
//
// on a line wants a finding of that rule there whose message matches the
// regexp (fixtureset.ParseWants). Check fails the test on every finding
// no want matches and every want of the rules run that no finding matches;
// wants of other rules are left to their own tests.
package checkstest

import (
	"fmt"
	"sort"
	"testing"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// Rule returns a copy of the catalog's rule id; with params not nil, with
// those params instead of the catalog's.
func Rule(t testing.TB, id string, params any) *rules.Rule {
	t.Helper()
	for _, r := range testrepo.Catalog(t).Rules {
		if r.ID == id {
			c := *r
			if params != nil {
				c.Params = params
			}
			return &c
		}
	}
	t.Fatalf("no rule %s in the catalog", id)
	return nil
}

// Load loads the tree at dir with the catalog's layout.
func Load(t testing.TB, dir string) *optable.Repo {
	t.Helper()
	return load1(t, &source.DiskSource{Dir: dir})
}

// LoadFiles loads a tree given as its files' contents by slash path.
func LoadFiles(t testing.TB, files map[string]string) *optable.Repo {
	t.Helper()
	return load1(t, &testrepo.MapSource{Dir: "mem", Files: files})
}

func load1(t testing.TB, src source.Source) *optable.Repo {
	t.Helper()
	repo, err := load.Load(src, config.NewSetup(testrepo.Catalog(t), nil))
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

// Run runs the kind of rs (one kind, one or more of its rules) over repo,
// with the op table it requires, and returns its findings in the order
// reported.
func Run(t testing.TB, repo *optable.Repo, rs ...*rules.Rule) []analysis.Diagnostic {
	t.Helper()
	if len(rs) == 0 {
		t.Fatal("checkstest.Run: no rule")
	}
	a := checks.Kind(rs[0].Kind)
	if a == nil {
		t.Fatalf("no check kind %q", rs[0].Kind)
	}
	for _, r := range rs[1:] {
		if r.Kind != a.Name {
			t.Fatalf("checkstest.Run: rules of kinds %s and %s", a.Name, r.Kind)
		}
	}
	var got []analysis.Diagnostic
	pass := &checks.Pass{Analyzer: a, Repo: repo, Rules: rs,
		ResultOf: map[*checks.Analyzer]any{optable.OpTableAnalyzer: optable.BuildOpTable(repo)},
		Report:   func(d analysis.Diagnostic) { got = append(got, d) }}
	if _, err := a.Run(pass); err != nil {
		t.Fatalf("%s: %v", a.Name, err)
	}
	return got
}

// Check runs rs over repo (as Run) and compares the findings with the
// "# want:" comments of the repository's files for the rules run; it
// returns the findings.
func Check(t testing.TB, repo *optable.Repo, rs ...*rules.Rule) []analysis.Diagnostic {
	t.Helper()
	diags := Run(t, repo, rs...)
	ids := map[string]bool{}
	for _, r := range rs {
		ids[r.ID] = true
	}
	var wants []fixtureset.Want
	for _, p := range repo.Paths {
		f := repo.Files[p]
		if f == nil {
			continue
		}
		ws, err := fixtureset.ParseWants(p, f.Src)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range ws {
			if ids[w.Rule] {
				wants = append(wants, w)
			}
		}
	}
	CompareFindings(t, wants, diags)
	return diags
}

// Format formats a finding as FILE:LINE:COL: RULE message (1-based column).
func Format(d analysis.Diagnostic) string {
	return fmt.Sprintf("%s:%d:%d: %s %s", d.File, d.Pos.Line, d.Pos.Col+1, d.Rule.ID, d.Message)
}

// CompareFindings reports, as test errors, each finding no want matches
// (same file, line and rule, the message matching the regexp) and each want
// no finding matches.
func CompareFindings(t testing.TB, wants []fixtureset.Want, diags []analysis.Diagnostic) {
	t.Helper()
	used := make([]bool, len(wants))
	var extra []analysis.Diagnostic
	for _, d := range diags {
		found := false
		for i, w := range wants {
			if !used[i] && w.File == d.File && w.Line == d.Pos.Line && w.Rule == d.Rule.ID && w.Re.MatchString(d.Message) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			extra = append(extra, d)
		}
	}
	var errs []string
	for i, w := range wants {
		if used[i] {
			continue
		}
		// A finding of that rule on that line with other words?
		hint := ""
		for j, d := range extra {
			if d.File == w.File && d.Pos.Line == w.Line && d.Rule.ID == w.Rule {
				hint = fmt.Sprintf("; the finding there says %q", d.Message)
				extra = append(extra[:j], extra[j+1:]...)
				break
			}
		}
		errs = append(errs, fmt.Sprintf("%s:%d: want %s matching %q, got no such finding%s", w.File, w.Line, w.Rule, w.Pattern, hint))
	}
	for _, d := range extra {
		errs = append(errs, fmt.Sprintf("%s:%d: unexpected finding %s %q", d.File, d.Pos.Line, d.Rule.ID, d.Message))
	}
	sort.Strings(errs)
	for _, e := range errs {
		t.Error(e)
	}
	if len(errs) > 0 {
		for _, d := range diags {
			t.Logf("  got %s", Format(d))
		}
	}
}

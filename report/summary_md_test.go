package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/tilegym/tilegym-lint/rules"
)

// markdownShape parses a summary as GitHub does (CommonMark with GFM's
// tables, autolinks, strikethrough and task lists, by goldmark) and returns
// its nodes' kinds in document order, text aside: what a string from the
// repository must not change.
func markdownShape(md string) []string {
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader([]byte(md)))
	var shape []string
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindText, ast.KindString:
			return ast.WalkContinue, nil
		case ast.KindHeading:
			shape = append(shape, fmt.Sprintf("Heading%d", n.(*ast.Heading).Level))
		default:
			shape = append(shape, n.Kind().String())
		}
		return ast.WalkContinue, nil
	})
	return shape
}

func hostileSummary(t testing.TB, s string) string {
	t.Helper()
	res := hostileResult(s)
	cat := &rules.Catalog{Rules: []*rules.Rule{res.Diagnostics[0].Rule, res.Diagnostics[1].Rule}}
	var b bytes.Buffer
	opt := SummaryOptions{Options: Options{ChangeMode: true}, BlobURL: "https://github.com/o/r/blob/1234/", Compared: "origin/main " + s}
	if err := WriteSummary(&b, res, cat, opt); err != nil {
		t.Fatal(err)
	}
	opt.BlobURL = ""
	if err := WriteSummary(&b, res, cat, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// checkSummary fails the test when the summary of a result whose every
// repository string is s parses to another shape than with a plain name,
// or does not show an op name as written.
func checkSummary(t testing.TB, s string) {
	t.Helper()
	md := hostileSummary(t, s)
	want := markdownShape(hostileSummary(t, "plain"))
	if got := markdownShape(md); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("summary of %q: Markdown shape\n%v\nwant\n%v\n%s", s, got, want, md)
	}
	if !strings.Contains(md, mdCode(s)) {
		t.Errorf("summary of %q: no %s", s, mdCode(s))
	}
}

func TestSummaryMarkdownEscaped(t *testing.T) {
	for _, s := range hostileStrings {
		checkSummary(t, s)
	}
	// The fix hint is ours: its command is code, the op names in it escaped
	// as any (checkSummary), the rest plain text.
	if md := hostileSummary(t, "plain"); !strings.Contains(md, " fixable with `tilegym-lint --fix --op plain` \\(marked \\[\\*\\]\\).\n") {
		t.Errorf("fix hint not as code:\n%s", md)
	}
}

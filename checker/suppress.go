package checker

import (
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/directive"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// suppression is one suppressing comment of a line.
type suppression struct {
	file      string
	comment   ast.Comment
	codes     []string // upper case; nil for a bare # noqa (every rule)
	directive bool     // our ignore directive, not a # noqa
	reason    string   // the directive's reason
	used      map[string]bool
	usedAny   bool
	// shared holds the codes of findings on the line that no comment
	// silences (analysis.Diagnostic.Shared).
	shared map[string]bool
}

// suppresses reports whether the comment silences rule id.
func (s *suppression) suppresses(id string) bool {
	if s.directive && s.reason == "" {
		return false // a directive without a reason does not count
	}
	return s.codes == nil || suppresses(s.codes, id)
}

// suppressions holds the suppressing comments of the files a check read,
// by file and line, and which findings each silenced.
type suppressions struct {
	repo      *optable.Repo
	directive string
	byFile    map[string]map[int][]*suppression
	// parsed, when not nil, is every file whose comments byFile holds that
	// parsed: the files a check in batches read, in one batch or another
	// (see add). Else they are the parsed files of repo.
	parsed map[string]bool
}

// add takes the suppressions of the files parsed in batch, a check of part
// of the same snapshot, with the findings each silenced: a file's comments
// are read in the first batch that parses it, and a code silencing a
// finding in any batch is used.
func (s *suppressions) add(batch *suppressions) {
	if s.parsed == nil {
		s.parsed = map[string]bool{}
	}
	for path, f := range batch.repo.Files {
		if f == nil || f.AST == nil {
			continue
		}
		lines := batch.of(path)
		have, ok := s.byFile[path]
		if !ok {
			s.byFile[path] = lines
			s.parsed[path] = true
			continue
		}
		for n, list := range lines {
			for i, sp := range list {
				h := have[n][i]
				h.usedAny = h.usedAny || sp.usedAny
				for code := range sp.used {
					h.used[code] = true
				}
				for code := range sp.shared {
					h.shared[code] = true
				}
			}
		}
	}
}

// readable reports whether path was read and parsed.
func (s *suppressions) readable(path string) bool {
	if s.parsed != nil {
		return s.parsed[path]
	}
	f := s.repo.Files[path]
	return f != nil && f.AST != nil
}

func newSuppressions(repo *optable.Repo) *suppressions {
	return &suppressions{repo: repo, directive: layout.LayoutNames(repo.Layout).Directive, byFile: map[string]map[int][]*suppression{}}
}

func (s *suppressions) of(file string) map[int][]*suppression {
	if m, ok := s.byFile[file]; ok {
		return m
	}
	f := s.repo.File(file)
	if f == nil {
		return nil // not read (yet, in a check in batches): nothing kept
	}
	m := map[int][]*suppression{}
	s.byFile[file] = m
	if f.AST == nil {
		return m
	}
	for _, c := range f.AST.Comments {
		if codes, ok := directive.Noqa(c.Text); ok {
			m[c.Pos.Line] = append(m[c.Pos.Line], &suppression{file: file, comment: c, codes: codes, used: map[string]bool{}, shared: map[string]bool{}})
		}
		if s.directive != "" {
			if codes, reason, ok := directive.Ignore(s.directive, c.Text); ok {
				m[c.Pos.Line] = append(m[c.Pos.Line], &suppression{file: file, comment: c, codes: codes, directive: true, reason: reason, used: map[string]bool{}, shared: map[string]bool{}})
			}
		}
	}
	return m
}

// mark records that the finding d is on a line whose comments silence it,
// and reports whether one does. None silences a finding on a line that
// several ops' findings share: it would silence every op's.
func (s *suppressions) mark(d analysis.Diagnostic) bool {
	hit := false
	for _, sp := range s.of(d.File)[d.Pos.Line] {
		if d.Shared {
			if sp.suppresses(d.Rule.ID) {
				sp.shared[d.Rule.ID] = true
			}
			continue
		}
		if sp.suppresses(d.Rule.ID) {
			hit = true
			sp.usedAny = true
			sp.used[d.Rule.ID] = true
		}
	}
	return hit
}

// suppressionScope says which suppressions a check can judge unused.
type suppressionScope struct {
	rules   []*rules.Rule   // the enabled rules whose kind judges suppressions (Analyzer.Suppressions)
	enabled map[string]bool // the enabled rule ids
	known   map[string]bool // every rule id of the catalog
	focus   map[string]bool // the ops the check reported on (nil: all)
	table   *optable.OpTable
	failed  bool // an analyzer failed: its findings are missing
}

// findings returns the findings of the suppression rules over the files
// the check read, in a deterministic order. A code is judged unused only
// when the check reporting it ran over the whole line: its rule is
// enabled, no analyzer failed, and in a check of some ops, the file
// belongs to checked ops only (a shared file, such as a dispatch file or
// a cuTile __init__.py, may hold findings of ops that were not checked).
func (s *suppressions) findings(sc suppressionScope) []analysis.Diagnostic {
	if len(sc.rules) == 0 {
		return nil
	}
	owners := map[string][]string{}
	if sc.table != nil {
		for _, op := range sc.table.Ops {
			for f := range OpFiles(sc.table, op) {
				owners[f] = append(owners[f], op.Name)
			}
		}
	}
	judgeable := func(file string) bool {
		if sc.focus == nil {
			return true
		}
		if len(owners[file]) == 0 {
			return false
		}
		for _, op := range owners[file] {
			if !sc.focus[op] {
				return false
			}
		}
		return true
	}
	var out []analysis.Diagnostic
	for _, path := range s.repo.Paths {
		if !s.readable(path) {
			continue
		}
		lines := s.of(path)
		if len(lines) == 0 {
			continue
		}
		op := ""
		if o := owners[path]; len(o) == 1 {
			op = o[0]
		}
		// Once per file: a dispatch file's owners are all its ops, and
		// asking per comment made the check quadratic in them.
		fileJudgeable := judgeable(path)
		nums := make([]int, 0, len(lines))
		for n := range lines {
			nums = append(nums, n)
		}
		sort.Ints(nums)
		for _, n := range nums {
			for _, sp := range lines[n] {
				for _, rule := range sc.rules {
					p, _ := rule.Params.(*checks.SuppressionParams)
					if p == nil {
						continue
					}
					switch p.Check {
					case "reason":
						if sp.directive && sp.reason == "" {
							out = append(out, s.diag(rule, op, sp, "", ""))
						}
					case "unused":
						if sc.failed || !fileJudgeable || sp.codes == nil || sp.directive && sp.reason == "" {
							continue
						}
						for _, code := range sp.codes {
							if !strings.HasPrefix(code, "TG") || sp.used[code] {
								continue
							}
							why := "no " + code + " finding is reported on this line; remove " + code + " from the comment"
							switch {
							case sp.shared[code]:
								why = "the " + code + " findings on this line are every op's that the file lacks an entry of, and a comment cannot silence one op's; add the entry, or skip the op's step in writing ([tool.tilegym-lint.skip.<op>]), and remove " + code + " from the comment"
							case !sc.known[code]:
								why = "tilegym-lint has no rule " + code + " (tilegym-lint rules lists them); fix or remove the code"
							case !sc.enabled[code]:
								continue // the rule did not run
							}
							out = append(out, s.diag(rule, op, sp, code, why))
						}
					}
				}
			}
		}
	}
	return out
}

func (s *suppressions) diag(rule *rules.Rule, op string, sp *suppression, code, why string) analysis.Diagnostic {
	c := sp.comment
	// The suppression alone (a comment may hold several: "# noqa: TG104
	// # type: ignore").
	key := "noqa"
	if sp.directive {
		key = s.directive
	}
	start, end := directive.Span(c.Text, key)
	text := strings.TrimSpace(c.Text[start:end])
	return analysis.Diagnostic{
		Rule: rule, Op: op, File: sp.file,
		Pos: ast.Pos{Line: c.Pos.Line, Col: c.Pos.Col + start}, End: ast.Pos{Line: c.Pos.Line, Col: c.Pos.Col + start + len(text)},
		Message: analysis.Render(rule.Message, op, map[string]string{"file": sp.file, "code": code, "comment": text, "why": why}),
	}
}

func suppresses(codes []string, id string) bool {
	if codes == nil {
		return true
	}
	for _, c := range codes {
		if c == id {
			return true
		}
	}
	return false
}

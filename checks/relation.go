package checks

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// RelationAnalyzer implements kind "relation".
var RelationAnalyzer = &Analyzer{
	Name:         "relation",
	Placeholders: []string{"op", "subject", "file", "what", "fix", "match"},
	Doc: `Checks what must (require) or must not (forbid) go with each subject.

A subject is a file or directory a path glob matches ("subject", with
{captures} binding a path part: julia/kernels/{op}.jl), a match of a
Python pattern in the rule's files ("pattern", its metavariables captured:
$B is {B}), or a value of a JSON or TOML key in the rule's files ("key",
the value captured as {value}, split into more captures by "split"). A rule
with none has one subject, the repository. Each check of require and
forbid is a file glob ("file"), a regular expression on the text of files
("text", in the files "in" names: Rust, Julia, YAML, any file; with
"part-of", only a match whose first group is part of a text counts), a Python
pattern ("pattern"), a JSON or TOML key ("key", its values matching
"value"), or a capture ("capture", matching "value"); the captures are
substituted in all of them ({op}; quoted in regular expressions, {x:dash}
with _ as -). A require that fails is reported at the subject; a forbid
at what it found. The rule's valid and invalid snippets (txtar archives of
small repositories) run as tests. See docs/rules-language.md.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(RelationParams) },
	Run:      runRelation,
	Whole:    true,
}

// RelationParams are the params of kind "relation".
type RelationParams struct {
	Subject string            `toml:"subject"` // a path glob with {captures}; ending in "/": directories
	Pattern string            `toml:"pattern"` // or: the matches of a Python pattern in the rule's files
	Where   map[string]*Where `toml:"where"`   // with pattern: constraints on its metavariables
	Inside  []string          `toml:"inside"`  // with pattern: contexts a match must be in
	Key     string            `toml:"key"`     // or: the values of a JSON / TOML key in the rule's files
	Split   string            `toml:"split"`   // with key: a regexp whose named groups capture parts of the value
	Name    string            `toml:"name"`    // what {subject} says (default: the op, else the capture, else the path)
	Exclude []string          `toml:"exclude"` // globs of subject paths left alone
	Require []*Relation       `toml:"require"` // what must go with each subject
	Forbid  []*Relation       `toml:"forbid"`  // what must not
	When    []*Relation       `toml:"when"`    // the rule applies only to a repository where all of these hold
	Unless  []*Relation       `toml:"unless"`  // ... and none of these
	Valid   []string          `toml:"valid"`   // txtar archives with no finding
	Invalid []string          `toml:"invalid"` // txtar archives with a finding each
	sub     *PatternParams    // Pattern, Where and Inside, parsed
	subject *capGlob          // Subject, compiled
	split   *regexp.Regexp
	_       struct{}
}

// ListNames implements rules.ListUser: the lists of the subject
// pattern's constraints.
func (p *RelationParams) ListNames() []string {
	return (&PatternParams{Where: p.Where}).ListNames()
}

// BindLists implements rules.ListUser.
func (p *RelationParams) BindLists(lists map[string]*rules.List) {
	if p.sub != nil {
		p.sub.lists = lists
	}
}

// Validate checks the params' shape and compiles what does not depend on
// a subject's captures.
func (p *RelationParams) Validate() error {
	var errs []error
	n := 0
	for _, s := range []string{p.Subject, p.Pattern, p.Key} {
		if s != "" {
			n++
		}
	}
	if n > 1 {
		errs = append(errs, errors.New("give at most one of subject, pattern and key"))
	}
	if len(p.Require)+len(p.Forbid) == 0 {
		errs = append(errs, errors.New("give require or forbid"))
	}
	if (len(p.Where) > 0 || len(p.Inside) > 0) && p.Pattern == "" {
		errs = append(errs, errors.New("where and inside go with pattern"))
	}
	if p.Split != "" && p.Key == "" {
		errs = append(errs, errors.New("split goes with key"))
	}
	if p.Subject != "" {
		p.subject = compileCapGlob(p.Subject)
		if p.subject.err != nil {
			errs = append(errs, fmt.Errorf("subject: %v", p.subject.err))
		}
	}
	if p.Pattern != "" {
		p.sub = &PatternParams{Pattern: p.Pattern, Where: p.Where, Inside: p.Inside, binds: true}
		errs = append(errs, p.sub.Validate())
	}
	if p.Split != "" {
		var err error
		if p.split, err = regexp.Compile(p.Split); err != nil {
			errs = append(errs, fmt.Errorf("split: %v", err))
		}
	}
	for i, r := range append(slices.Clone(p.Require), p.Forbid...) {
		what := "require"
		if i >= len(p.Require) {
			what, i = "forbid", i-len(p.Require)
		}
		if err := r.validate(); err != nil {
			errs = append(errs, fmt.Errorf("%s[%d]: %v", what, i, err))
		}
	}
	errs = append(errs, validateWhen("when", p.When), validateWhen("unless", p.Unless))
	return errors.Join(errs...)
}

// Find returns the findings of the rule on a tree, sorted.
func (p *RelationParams) Find(t *Tree, files []string) []RelationFinding {
	if !t.Applies(p.When, p.Unless) {
		return nil
	}
	var out []RelationFinding
	for _, s := range p.subjects(t, files) {
		for _, r := range p.Require {
			out = append(out, r.check(t, s, true)...)
		}
		for _, r := range p.Forbid {
			out = append(out, r.check(t, s, false)...)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// subjects returns the rule's subjects; files are the rule's file globs.
func (p *RelationParams) subjects(t *Tree, files []string) []*relSubject {
	var out []*relSubject
	excluded := func(q string) bool { _, no := layout.MatchAny(p.Exclude, q); return no }
	switch {
	case p.subject != nil:
		paths, caps := t.files(p.subject)
		for i, q := range paths {
			if excluded(q) {
				continue
			}
			s := &relSubject{path: q, file: q, dir: p.subject.dir, caps: maps.Clone(caps[i]), name: onlyCapture(caps[i])}
			if s.dir {
				// A directory's findings are at its first file.
				if fs := t.list(q); len(fs) > 0 {
					s.file = fs[0]
				}
			}
			out = append(out, s)
		}
	case p.sub != nil || p.Key != "":
		if len(files) == 0 {
			files = []string{"src/**/*.py"}
		}
		for _, g := range files {
			paths, caps := t.files(t.glob(g))
			for i, q := range paths {
				if excluded(q) {
					continue
				}
				if p.sub != nil {
					f := t.python(q)
					if f == nil {
						continue
					}
					for _, m := range t.subjectMatches(p.sub, f) {
						c := map[string]string{}
						for k, v := range caps[i] {
							c[k] = v
						}
						for k, v := range m.Binds {
							c[k] = v
						}
						out = append(out, &relSubject{path: q, file: q, node: m.At, caps: c})
					}
					continue
				}
				d, err := t.doc(q)
				if err != nil {
					continue
				}
				vs, _ := keyValues(d, strings.Split(p.Key, "."), nil)
				for _, kv := range vs {
					v := kv.v
					c := map[string]string{}
					for k, x := range caps[i] {
						c[k] = x
					}
					c["value"] = scalar(v)
					if p.split != nil {
						m := p.split.FindStringSubmatch(c["value"])
						if m == nil {
							continue
						}
						for j, name := range p.split.SubexpNames() {
							if name != "" {
								c[name] = m[j]
							}
						}
					}
					out = append(out, &relSubject{path: q, file: q, line: keyLine(t.text(q), kv.path, c["value"]), caps: c, name: c["value"]})
				}
			}
		}
	default:
		out = append(out, &relSubject{caps: map[string]string{}})
	}
	for _, s := range out {
		if s.path != "" {
			s.caps["path"] = s.path
			s.caps["dir"] = path.Dir(s.path)
		}
		switch {
		case p.Name != "":
			s.name = expandCaps(p.Name, s.caps, false)
		case s.node != nil:
			s.name = subjectOf(t.table, t.python(s.file), s.node)
		case s.name == "":
			s.name = s.path
		}
		if s.name == "" {
			s.name = "the repository"
		}
	}
	return out
}

// subjectFiles returns the files a rule with a subject pattern finds its
// subjects in, each once; files are the rule's file globs.
func (p *RelationParams) subjectFiles(t *Tree, files []string) []string {
	if len(files) == 0 {
		files = []string{"src/**/*.py"}
	}
	var out []string
	for _, g := range files {
		paths, _ := t.files(t.glob(g))
		for _, q := range paths {
			if _, no := layout.MatchAny(p.Exclude, q); !no {
				out = append(out, q)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// onlyCapture is the value of a glob's one capture, or "".
func onlyCapture(caps map[string]string) string {
	if len(caps) != 1 {
		return ""
	}
	for _, v := range caps {
		return v
	}
	return ""
}

func runRelation(pass *Pass) (any, error) {
	t := NewTree(pass.Repo)
	t.table, _ = pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	var rs []*rules.Rule
	for _, rule := range pass.Rules {
		if _, ok := rule.Params.(*RelationParams); ok {
			rs = append(rs, rule)
		}
	}
	t.matchAhead(rs)
	// The rules run on every processor over one tree (they share its
	// files, parses and matches); their findings are reported in the
	// rules' order.
	found := make([][]RelationFinding, len(rs))
	source.ForEachWorker(len(rs), func() func(int) {
		return func(i int) { found[i] = rs[i].Params.(*RelationParams).Find(t, rs[i].Files) }
	})
	for i, rule := range rs {
		for _, f := range found[i] {
			d := analysis.Diagnostic{Rule: rule, File: f.File, Subject: f.Vars["subject"], Message: analysis.Render(rule.Message, "", f.Vars)}
			if f.Node != nil {
				d.Pos, d.End = f.Node.Pos(), f.Node.End()
			} else {
				d.Pos, d.End = ast.Pos{Line: f.Line}, ast.Pos{Line: f.Line}
			}
			if d.File == "" {
				d.File = "."
			}
			pass.Report(d)
		}
	}
	return nil, nil
}

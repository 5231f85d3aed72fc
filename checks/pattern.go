package checks

import (
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/requires"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// PatternAnalyzer implements kind "pattern".
var PatternAnalyzer = &Analyzer{
	Name:         "pattern",
	Placeholders: []string{"op", "file", "subject", "match", "value", "name"},
	Doc: `Reports the matches of a Python structural pattern in the files of a rule.

A pattern is Python with metavariables ($X), "..." for any expression or
run of arguments or statements, and fully qualified dotted names that match
through the file's imports (cuda.tile.launch matches ct.launch). A match is
reported when it is inside every context of "inside" and none of
"not-inside" (a named context -- kernel, function, module, cache-miss,
"@name" for a function so decorated, "after:pattern" after a statement of
the function holding a match -- or a pattern of an enclosing node),
and its metavariables meet the constraints of "where". With "require",
every file of the rule (or, with a pattern too, every file with a match)
must hold a match of it. The rule's valid and invalid snippets are run as
tests. See docs/rules-language.md.`,
	Requires: []*Analyzer{optable.OpTableAnalyzer},
	Params:   func() any { return new(PatternParams) },
	Run:      runPattern,
}

func runPattern(pass *Pass) (any, error) {
	tab, _ := pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	// Each file is walked once for all the rules that look at it.
	var rs []*rules.Rule
	var ps []*PatternParams
	var tree *Tree // for the rules with a "when" or "unless", made when first needed
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*PatternParams)
		if p == nil {
			continue
		}
		if len(p.When)+len(p.Unless) > 0 {
			if tree == nil {
				tree = NewTree(pass.Repo)
			}
			if !tree.Applies(p.When, p.Unless) {
				continue
			}
		}
		rs = append(rs, rule)
		ps = append(ps, p)
	}
	on := map[string][]bool{} // by file: which rules look at it
	var order []string
	files := map[string][]*source.File{} // by globs: most rules look at src/**/*.py
	for i, p := range ps {
		globs := strings.Join(rs[i].Files, "\x00") + "\x01" + strings.Join(p.Exclude, "\x00")
		if files[globs] == nil {
			files[globs] = ruleFiles(pass, rs[i].Files, p.Exclude)
		}
		for _, f := range files[globs] {
			if on[f.Path] == nil {
				on[f.Path] = make([]bool, len(ps))
				order = append(order, f.Path)
			}
			on[f.Path][i] = true
		}
	}
	sort.Strings(order)
	decl := newDeclared(pass.Repo)
	found := make([][][]PatternMatch, len(order))
	source.ForEachWorker(len(order), func() func(int) {
		ix := newPatternIndex(ps) // a worker's own: an index is built as keys are met
		return func(j int) {
			found[j] = findAll(pass.Repo.Files[order[j]], ix, on[order[j]], decl.admitted(order[j]))
		}
	})
	for j, path := range order {
		f := pass.Repo.Files[path]
		for i, ms := range found[j] {
			for _, m := range ms {
				reportFamily(pass, tab, rs[i], f, m.At, m.Vars)
			}
		}
	}
	return nil, nil
}

// Find returns the findings of the rule's pattern in a parsed file, for a
// project that declares no version of its dependencies.
func (p *PatternParams) Find(f *source.File) []PatternMatch {
	return findAll(f, newPatternIndex([]*PatternParams{p}), nil, nil)[0]
}

// SnippetRequires returns the requirements a snippet declares in its
// first lines, comments "# requires: cuda-tile>=1.3" (one each): a valid
// or invalid snippet of a rule that a gated list decides is checked as in
// a repository that declares them. Those that do not parse constrain
// nothing, as in a packaging file.
func SnippetRequires(src string) []requires.Declaration {
	var out []requires.Declaration
	for i, line := range strings.Split(src, "\n") {
		r, ok := strings.CutPrefix(line, "# requires:")
		if !ok {
			break
		}
		req, err := requires.ParseRequirement(r)
		out = append(out, requires.Declaration{Requirement: req, File: "snippet", Line: i + 1, Err: err})
	}
	return out
}

// FindDeclaring is Find in a project that declares decls.
func (p *PatternParams) FindDeclaring(f *source.File, decls []requires.Declaration) []PatternMatch {
	return findAll(f, newPatternIndex([]*PatternParams{p}), nil, func(dep string) requires.Range {
		r, _ := requires.Admitted(decls, dep)
		return r
	})[0]
}

package checks

// A Python pattern rule's params: the pattern kind's, and what the
// relation kind matches its pattern subjects and checks with.

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/tilegym/tilegym-lint/python/pattern"
	"github.com/tilegym/tilegym-lint/rules"
)

// PatternParams are the params of kind "pattern".
type PatternParams struct {
	Pattern   string                 `toml:"pattern"`    // the pattern reported
	Any       []string               `toml:"any"`        // or: any of these
	Nodes     []string               `toml:"nodes"`      // or: any node of these types ("Try", "ListComp")
	Exclude   []string               `toml:"exclude"`    // globs of files the rule does not look at
	Inside    []string               `toml:"inside"`     // contexts every match must be in
	NotInside []string               `toml:"not-inside"` // contexts no match may be in
	Where     map[string]*Where      `toml:"where"`      // constraints on metavariables
	Report    string                 `toml:"report"`     // the metavariable the finding points at (default: the match)
	Require   string                 `toml:"require"`    // a pattern the file must hold
	Valid     []string               `toml:"valid"`      // snippets with no finding
	Invalid   []string               `toml:"invalid"`    // snippets with a finding each
	When      []*Relation            `toml:"when"`       // the rule applies only to a repository where all of these hold (as a relation's)
	Unless    []*Relation            `toml:"unless"`     // ... and none of these
	lists     map[string]*rules.List // the catalog's [lists]
	pats      []*pattern.Pattern     // Pattern and Any, parsed
	inside    []*context             // Inside, parsed
	notInside []*context             // NotInside, parsed
	require   *pattern.Pattern       // Require, parsed
	atWhere   []string               // the metavariables whose constraints may move where a match is reported (Where.givesAt), sorted
	kinds     map[string]bool        // the node types a match can have (nil: any)
	ctxFirst  bool                   // the contexts ask only about the enclosing defs: looked at before matching (match)
	binds     bool                   // Find returns the metavariables' text (a relation's subject)
	_         struct{}               // keeps the literal form keyed
}

// ListNames implements rules.ListUser.
func (p *PatternParams) ListNames() []string {
	var out []string
	for _, w := range p.Where {
		for _, n := range []string{w.In, w.NotIn} {
			if n != "" {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// BindLists implements rules.ListUser.
func (p *PatternParams) BindLists(lists map[string]*rules.List) { p.lists = lists }

// Validate parses the patterns and contexts.
func (p *PatternParams) Validate() error {
	var errs []error
	if p.Pattern == "" && len(p.Any) == 0 && len(p.Nodes) == 0 && p.Require == "" {
		errs = append(errs, errors.New("give pattern, any, nodes or require"))
	}
	for _, n := range p.Nodes {
		if !knownNode(n) {
			errs = append(errs, fmt.Errorf("nodes: %q is not a node type of Python's ast module", n))
		}
	}
	srcs := p.Any
	if p.Pattern != "" {
		srcs = append([]string{p.Pattern}, p.Any...)
	}
	vars := map[string]bool{}
	p.pats, p.kinds = nil, map[string]bool{}
	for _, s := range srcs {
		pt, err := pattern.Parse(s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.pats = append(p.pats, pt)
		for _, v := range pt.Vars() {
			vars[v] = true
		}
		ks := pt.Kinds()
		if ks == nil {
			// A metavariable's own constraint may say (A09: `$F` is a
			// name, an attribute or an import's name).
			if w := p.Where[pt.Root()]; w != nil && len(w.Kinds) > 0 {
				ks = w.Kinds
			}
		}
		if ks == nil || p.kinds == nil {
			p.kinds = nil
		} else {
			for _, k := range ks {
				p.kinds[k] = true
			}
		}
	}
	if p.Require != "" {
		pt, err := pattern.Parse(p.Require)
		errs = append(errs, err)
		p.require = pt
	}
	var err error
	p.inside, err = parseContexts(p.Inside)
	errs = append(errs, err)
	p.notInside, err = parseContexts(p.NotInside)
	errs = append(errs, err)
	p.ctxFirst = len(p.inside)+len(p.notInside) > 0 &&
		!slices.ContainsFunc(p.inside, dearContext) && !slices.ContainsFunc(p.notInside, dearContext)
	p.atWhere = nil
	for _, name := range slices.Sorted(maps.Keys(p.Where)) {
		if p.Where[name].givesAt() {
			p.atWhere = append(p.atWhere, name)
		}
	}
	for name, w := range p.Where {
		if !vars[name] {
			errs = append(errs, fmt.Errorf("where.%s: the pattern has no $%s", name, name))
		}
		errs = append(errs, w.compile(name))
	}
	if p.Report != "" && !vars[p.Report] {
		errs = append(errs, fmt.Errorf("report: the pattern has no $%s", p.Report))
	}
	errs = append(errs, validateWhen("when", p.When), validateWhen("unless", p.Unless))
	return errors.Join(errs...)
}

// knownNode reports whether name is a node type of package ast.
func knownNode(name string) bool {
	return slices.Contains([]string{"FunctionDef", "AsyncFunctionDef", "ClassDef", "Return", "Delete", "Assign",
		"AugAssign", "AnnAssign", "For", "AsyncFor", "While", "If", "With", "AsyncWith", "Match", "Raise", "Try",
		"TryStar", "Assert", "Import", "ImportFrom", "Global", "Nonlocal", "ExprStmt", "Pass", "Break", "Continue",
		"BoolOp", "NamedExpr", "BinOp", "UnaryOp", "Lambda", "IfExp", "Dict", "Set", "ListComp", "SetComp",
		"DictComp", "GeneratorExp", "Await", "Yield", "YieldFrom", "Compare", "Call", "JoinedStr", "Constant",
		"Attribute", "Subscript", "Starred", "Name", "List", "Tuple", "Slice"}, name)
}

// compile parses a pattern given with no other params.
func (p *PatternParams) compile() (*PatternParams, error) {
	return p, p.Validate()
}

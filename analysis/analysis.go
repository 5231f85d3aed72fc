// Package analysis is the framework the checks of tilegym-lint are written
// in, after golang.org/x/tools/go/analysis: an Analyzer is a named unit of
// analysis with a Doc, the analyzers it Requires and a Run function over a
// Pass. Analyzers that compute shared facts return a result that the
// analyzers requiring them read from Pass.ResultOf; analyzers that implement
// a check kind receive the rules of that kind from the catalog in
// Pass.Rules and report Diagnostics. Severity, suppression and output are
// policy of the driver, not of the analyzers.
//
// The unit a pass analyzes is the type parameter R (the driver's repository
// model); the framework knows rules and findings, not what a repository is.
package analysis

import (
	"fmt"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// An Analyzer is one analysis over units of type R: a check kind or a
// producer of shared facts.
type Analyzer[R any] struct {
	// Name is the analyzer's name; for a check kind it is the kind name used
	// by `kind = "..."` in rules.toml.
	Name string
	// Doc: the first sentence is a one-line title, the rest documents it.
	Doc string
	// Requires lists the analyzers whose results this one reads.
	Requires []*Analyzer[R]
	// Params, for a check kind with parameters, returns a pointer to a new
	// zero value of its parameter struct; a rule's params table is decoded
	// into it (unknown keys are errors). Nil when the kind takes none.
	Params func() any
	// Placeholders are the {names} this kind fills in its rules' messages,
	// always including "op" and "file"; loading a catalog rejects a rule
	// whose message uses another (see checkPlaceholders). Nil leaves the
	// kind's messages unchecked (TestPlaceholders requires it set).
	Placeholders []string
	// Texts are the names of the texts ([rule.texts]) the kind renders
	// into a placeholder of its message (or a related position's) when
	// the words depend on the case (RenderText), with the kind's
	// Placeholders only. A rule of the kind defines each text the kind
	// asks of it (TextsFor), and no other: loading a catalog refuses a
	// rule that lacks one, so no finding's words are ever empty.
	Texts []string
	// TextsFor, when set, returns the texts of Texts that the kind asks of
	// one rule, for kinds whose rules take different paths by their params
	// (the stubless rule of impl-orphan renders none of the other's
	// texts); nil asks every rule for all of Texts.
	TextsFor func(*rules.Rule) []string
	// Run applies the analyzer to a pass. Its result is available to the
	// analyzers that require it.
	Run func(*Pass[R]) (any, error)

	// What the driver does with a kind's findings beyond reporting them.
	// ParseErrors marks the kind that reports the files that do not parse:
	// the driver drops every other finding in or related to such a file
	// and charges the parse error to the steps of the ops they were of.
	ParseErrors bool
	// Suppressions marks the kind whose findings are about the suppression
	// comments themselves: the driver computes them, once every other
	// finding has marked the comments that silenced it; Run reports none.
	Suppressions bool
	// Undeclared marks the kind whose findings of no op are registrations
	// of a name no dispatch stub declares: change mode matches them across
	// its two snapshots by name (each parses every registration of the
	// name), and gives them to the op when the change deleted its stub.
	Undeclared bool
	// Whole marks a kind that is not op-scoped: it reads the repository
	// itself (lists and parses the files it needs through the snapshot's
	// source, whatever files the driver parsed) and reports findings of no
	// op, which depend on the op table only for whose file is whose. A
	// check in batches of ops runs it once, with the op table of every
	// batch, rather than in every batch.
	Whole bool
}

func (a *Analyzer[R]) String() string { return a.Name }

// A Pass is one analyzer applied to one repository.
type Pass[R any] struct {
	Analyzer *Analyzer[R]
	Repo     R
	// Rules are the enabled rules whose kind is this analyzer, in catalog order.
	Rules []*rules.Rule
	// ResultOf holds the results of the analyzers in Requires.
	ResultOf map[*Analyzer[R]]any
	// Report records a diagnostic.
	Report func(Diagnostic)
	// Focus, when not nil, holds the only ops whose findings the check
	// reports (a check of some ops, or of a change). Report drops the
	// others' findings, and an analyzer may skip their checks (see Wants).
	Focus map[string]bool
	// Elsewhere, when not nil with Focus, names the ops checked by other
	// passes (the other batches of a whole check in batches): the findings
	// of a name that is in neither, an op used but dispatched nowhere, are
	// reported too.
	Elsewhere map[string]bool
}

// Wants reports whether the findings of an op are reported: an analyzer
// may skip the checks of an op it does not want, when they report findings
// of that op only.
func (p *Pass[R]) Wants(op string) bool {
	return p.Focus == nil || p.Focus[op] || p.Elsewhere != nil && !p.Elsewhere[op]
}

// Diagnostic is one finding. Positions use the parser's convention (line
// 1-based, column 0-based byte offset); the driver converts for output.
type Diagnostic struct {
	Rule *rules.Rule
	Op   string // the op the finding belongs to; "" for none
	// Subject is what a finding of a family without steps is about: the
	// op where there is one, else the kernel, function, model package or
	// file. A TG finding has none (its op says it).
	Subject string
	File    string // slash path relative to the repository root
	Pos     ast.Pos
	End     ast.Pos
	Message string
	Related []Related
	Fixes   []SuggestedFix
	// Shared says that the finding's line stands for an absence of several
	// ops at once (the backend block of a cuTile __init__.py, its
	// __all__): a comment there would silence every op's finding, so none
	// does (see checker's suppressions).
	Shared bool

	// Set by the driver, not by analyzers:
	// Severity is the effective severity (the rule's, or the configuration's override).
	Severity rules.Severity
	// PreExisting, in change mode, says that the op already had this finding
	// at the base revision.
	PreExisting bool
	// Fingerprint is the fingerprint of the line the finding is anchored
	// on (see Fingerprint, Identity).
	Fingerprint string
	// Baseline says that the baseline records this finding: it is
	// reported, and does not fail the run.
	Baseline bool
}

// Related is a secondary position that helps explain a finding, such as the
// file where something is expected.
type Related struct {
	File    string
	Pos     ast.Pos
	End     ast.Pos
	Message string
}

// SuggestedFix is a set of non-overlapping text edits that fix a finding.
type SuggestedFix struct {
	Message string
	Edits   []TextEdit
}

// TextEdit replaces the bytes [Start, End) of File with NewText; Start ==
// End inserts.
type TextEdit struct {
	File    string
	Start   ast.Pos
	End     ast.Pos
	NewText string
}

// RenderText fills the text name of a rule (Rule.Texts) as Render does.
func RenderText(r *rules.Rule, name, op string, vars map[string]string) string {
	return Render(r.Texts[name], op, vars)
}

// Render fills a message template: {op} is the op, {name} any key of vars
// (a key "op" wins over the op). An unknown placeholder is left as it is.
// Keys hold no "}" (the placeholder is what lies between a "{" and the
// next "}").
func Render(tmpl, op string, vars map[string]string) string {
	return fill(tmpl, func(rest string) (string, int) {
		j := strings.IndexByte(rest, '}')
		if j < 0 {
			return "", 0
		}
		k := rest[1:j]
		if v, ok := vars[k]; ok {
			return v, j + 1
		}
		if k == "op" {
			return op, j + 1
		}
		return "", 0
	})
}

// Expand fills a template with pairs old, new, ...: each old starts with
// "{" ("{func}", or "{{op}}" in a template of Python code, where single
// braces are the code's). At each "{" the first old in argument order that
// starts there is replaced by its new; an unknown placeholder is left as
// it is. It is strings.NewReplacer(pairs...).Replace for such olds,
// without building a replacer per call (templates are filled per op and
// file, and the replacers were a tenth of a check's allocations).
func Expand(tmpl string, pairs ...string) string {
	return fill(tmpl, func(rest string) (string, int) {
		for k := 0; k+1 < len(pairs); k += 2 {
			if strings.HasPrefix(rest, pairs[k]) {
				return pairs[k+1], len(pairs[k])
			}
		}
		return "", 0
	})
}

// fill is the one template filler under Render and Expand: one scan, left
// to right; at each "{", match returns the text of the placeholder that
// starts there and its length (0: none, the "{" is kept); replaced text
// is not scanned again.
func fill(tmpl string, match func(rest string) (string, int)) string {
	i := strings.IndexByte(tmpl, '{')
	if i < 0 {
		return tmpl
	}
	var b strings.Builder
	b.Grow(len(tmpl))
	for ; i >= 0; i = strings.IndexByte(tmpl, '{') {
		b.WriteString(tmpl[:i])
		tmpl = tmpl[i:]
		if v, n := match(tmpl); n > 0 {
			b.WriteString(v)
			tmpl = tmpl[n:]
		} else {
			b.WriteByte('{')
			tmpl = tmpl[1:]
		}
	}
	b.WriteString(tmpl)
	return b.String()
}

// Validate checks an analyzer graph: names are unique and non-empty, every
// analyzer has a Doc and a Run, and Requires has no cycle.
func Validate[R any](analyzers []*Analyzer[R]) error {
	names := map[string]*Analyzer[R]{}
	state := map[*Analyzer[R]]int{} // 1 visiting, 2 done
	var visit func(a *Analyzer[R], path []string) error
	visit = func(a *Analyzer[R], path []string) error {
		switch state[a] {
		case 1:
			return fmt.Errorf("analyzer cycle: %s", strings.Join(append(path, a.Name), " -> "))
		case 2:
			return nil
		}
		if a.Name == "" {
			return fmt.Errorf("analyzer with no name")
		}
		if other, ok := names[a.Name]; ok && other != a {
			return fmt.Errorf("two analyzers named %q", a.Name)
		}
		names[a.Name] = a
		if strings.TrimSpace(a.Doc) == "" {
			return fmt.Errorf("analyzer %q has no Doc", a.Name)
		}
		if a.Run == nil {
			return fmt.Errorf("analyzer %q has no Run", a.Name)
		}
		state[a] = 1
		for _, r := range a.Requires {
			if err := visit(r, append(path, a.Name)); err != nil {
				return err
			}
		}
		state[a] = 2
		return nil
	}
	for _, a := range analyzers {
		if err := visit(a, nil); err != nil {
			return err
		}
	}
	return nil
}

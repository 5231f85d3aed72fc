package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/rules"
)

// SARIF 2.1.0 (OASIS): the subset tilegym-lint writes.

const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// srcRoot is the uriBaseId of every artifact location: the repository root.
	srcRoot = "SRCROOT"
	// FingerprintKey names tilegym-lint's entry of partialFingerprints: a
	// digest of the finding's identity (analysis.Identity: rule, op, file,
	// fingerprint of its line), which neither line numbers nor the
	// message's wording change (see fingerprints). v1 digested the message.
	FingerprintKey = "tilegymLintFinding/v2"
	// InformationURI is the tool's home page.
	InformationURI = "https://github.com/tilegym/tilegym-lint"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	VersionControl     []sarifVCS                  `json:"versionControlProvenance,omitempty"`
	Invocations        []sarifInvocation           `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                      `json:"columnKind"`
	Results            []sarifResult               `json:"results"`
	Properties         map[string]any              `json:"properties,omitempty"`
}

type sarifVCS struct {
	RepositoryURI string            `json:"repositoryUri"`
	RevisionID    string            `json:"revisionId,omitempty"`
	Branch        string            `json:"branch,omitempty"`
	MappedTo      *sarifArtifactLoc `json:"mappedTo,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	SemanticVer    string      `json:"semanticVersion,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifMessage   `json:"shortDescription"`
	FullDescription      sarifMessage   `json:"fullDescription"`
	Help                 sarifMessage   `json:"help"`
	HelpURI              string         `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConf  `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties"`
}

type sarifRuleConf struct {
	Level string `json:"level"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int           `json:"startLine"`
	StartColumn int           `json:"startColumn,omitempty"`
	EndLine     int           `json:"endLine,omitempty"`
	EndColumn   int           `json:"endColumn,omitempty"`
	Snippet     *sarifMessage `json:"snippet,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
	ContextRegion    *sarifRegion     `json:"contextRegion,omitempty"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifMessage `json:"message,omitempty"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifMessage       `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	BaselineState       string             `json:"baselineState,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Fixes               []sarifFix         `json:"fixes,omitempty"`
	Properties          map[string]any     `json:"properties"`
}

// sarifSuppression says that a result is accepted: a baselined finding.
type sarifSuppression struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion   `json:"deletedRegion"`
	InsertedContent *sarifMessage `json:"insertedContent,omitempty"`
}

// SARIFOptions add to Options what only SARIF says.
type SARIFOptions struct {
	Options
	// Version is the tool's version (the module version).
	Version string
	// RootURI, when not empty, is the absolute file: URI of the repository
	// root, ending in "/": the value of SRCROOT.
	RootURI string
	// RepositoryURI, RevisionID and Branch, when RepositoryURI is not
	// empty, say which commit of which repository was checked
	// (versionControlProvenance).
	RepositoryURI, RevisionID, Branch string
}

// WriteSARIF writes the result as a SARIF 2.1.0 log with one run: the
// catalog's every rule in tool.driver.rules, and a result per finding.
func WriteSARIF(w io.Writer, res *checker.Result, cat *rules.Catalog, opt SARIFOptions) error {
	return encodeJSON(w, NewSARIF(res, cat, opt))
}

// NewSARIF builds the SARIF log WriteSARIF writes.
func NewSARIF(res *checker.Result, cat *rules.Catalog, opt SARIFOptions) *sarifLog {
	// A version starts with a number: "1.2.0" for the module's v1.2.0,
	// "0.0.0-devel" for a build in a checkout.
	version := strings.TrimPrefix(opt.Version, "v")
	if version == "" || version[0] < '0' || version[0] > '9' {
		version = "0.0.0-devel"
	}
	driver := sarifDriver{
		Name:           "tilegym-lint",
		Version:        version,
		InformationURI: InformationURI,
		Rules:          []sarifRule{},
	}
	docRev := "main"
	if isSemver(version) {
		driver.SemanticVer = version
		if !strings.ContainsAny(version, "-+") {
			docRev = opt.Version
		}
	}
	helpURI := func(r *rules.Rule) string {
		if r.Line <= 0 || cat.File != "rules.toml" {
			return ""
		}
		return fmt.Sprintf("%s/blob/%s/rules.toml#L%d", InformationURI, docRev, r.Line)
	}
	index := map[string]int{}
	for i, r := range cat.Rules {
		index[r.ID] = i
		sr := sarifRuleOf(r)
		sr.HelpURI = helpURI(r)
		driver.Rules = append(driver.Rules, sr)
	}
	run := sarifRun{
		Tool:       sarifTool{Driver: driver},
		ColumnKind: "utf16CodeUnits",
		Results:    []sarifResult{},
		Properties: map[string]any{"catalogVersion": cat.Version},
	}
	if opt.RootURI != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{srcRoot: {URI: opt.RootURI}}
	}
	if opt.RepositoryURI != "" {
		run.VersionControl = []sarifVCS{{
			RepositoryURI: opt.RepositoryURI, RevisionID: opt.RevisionID, Branch: opt.Branch,
			MappedTo: &sarifArtifactLoc{URI: "", URIBaseID: srcRoot},
		}}
	}
	inv := sarifInvocation{ExecutionSuccessful: len(res.Errors) == 0}
	for _, e := range res.Errors {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications,
			sarifNotification{Level: "error", Message: sarifMessage{Text: e.Error()}})
	}
	run.Invocations = []sarifInvocation{inv}

	lines := &lineCache{read: opt.ReadFile}
	prints := fingerprints(res.Diagnostics, &opt.Options)
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		ri, ok := index[d.Rule.ID]
		if !ok {
			// A rule the catalog does not hold (it cannot happen with the
			// catalog the check ran); give the result its own entry.
			ri = len(run.Tool.Driver.Rules)
			index[d.Rule.ID] = ri
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(d.Rule))
		}
		r := sarifResult{
			RuleID:              d.Rule.ID,
			RuleIndex:           ri,
			Level:               sarifLevel(severity(d)),
			Message:             sarifMessage{Text: d.Message},
			Locations:           []sarifLocation{{PhysicalLocation: opt.physical(lines, d.File, d.Pos, d.End, true)}},
			PartialFingerprints: map[string]string{FingerprintKey: prints[i]},
			Properties: map[string]any{
				"requirement": d.Rule.Requirement,
				"family":      familyOf(d.Rule),
			},
		}
		if d.Rule.Step != 0 {
			r.Properties["step"] = d.Rule.Step // a family without steps has none
		}
		if d.Op != "" {
			r.Properties["op"] = d.Op
		}
		if d.Subject != "" {
			r.Properties["subject"] = d.Subject
		}
		if opt.ChangeMode {
			r.BaselineState = "new"
			if d.PreExisting {
				r.BaselineState = "unchanged"
			}
		}
		if d.Baseline {
			// Accepted debt: code scanning and SARIF viewers show a
			// suppressed result as closed, not as an open alert, and it
			// stays in the log. (baselineState compares two runs, which
			// code scanning does itself from partialFingerprints.)
			r.Suppressions = []sarifSuppression{{Kind: "external", Status: "accepted",
				Justification: "recorded in tilegym-lint's baseline"}}
		}
		for j, rel := range d.Related {
			id := j + 1
			loc := sarifLocation{ID: &id, PhysicalLocation: opt.physical(lines, rel.File, rel.Pos, rel.End, false)}
			if rel.Message != "" {
				loc.Message = &sarifMessage{Text: rel.Message}
			}
			r.RelatedLocations = append(r.RelatedLocations, loc)
		}
		for _, f := range portableFixes(d.Fixes) {
			r.Fixes = append(r.Fixes, opt.fix(lines, f))
		}
		run.Results = append(run.Results, r)
	}
	return &sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
}

func sarifLevel(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Warning:
		return "warning"
	}
	return "note"
}

// sarifRuleOf describes a catalog rule: its title is the short description,
// its docs the full description and the help.
func sarifRuleOf(r *rules.Rule) sarifRule {
	what := strings.TrimSpace(r.Docs.What)
	if what == "" {
		what = r.Title
	}
	text, md := ruleHelp(r)
	tags := []string{"tilegym"}
	if f := familyOf(r); f != rules.TG {
		tags = append(tags, "family-"+f)
	} else if r.Step > 0 {
		tags = append(tags, "step-"+strconv.Itoa(r.Step))
	} else {
		tags = append(tags, "cross-step")
	}
	sr := sarifRule{
		ID:                   r.ID,
		Name:                 pascalName(r.Title),
		ShortDescription:     sarifMessage{Text: sentence(r.Title)},
		FullDescription:      sarifMessage{Text: sentence(unwrap(what))},
		Help:                 sarifMessage{Text: text, Markdown: md},
		DefaultConfiguration: sarifRuleConf{Level: sarifLevel(r.Severity)},
		Properties: map[string]any{
			"requirement": r.Requirement,
			"family":      familyOf(r),
			"kind":        r.Kind,
			"tags":        tags,
		},
	}
	if r.Step != 0 {
		sr.Properties["step"] = r.Step // a cross-step rule, or a family without steps, has none
	}
	return sr
}

// ruleHelp renders a rule's documentation (what, why, how to fix, an
// example) as plain text and as Markdown.
func ruleHelp(r *rules.Rule) (text, md string) {
	var t, m strings.Builder
	section := func(title, body string) {
		body = strings.TrimSpace(body)
		if body == "" {
			return
		}
		if t.Len() > 0 {
			t.WriteString("\n\n")
			m.WriteString("\n\n")
		}
		t.WriteString(title + ":\n" + body)
		m.WriteString("**" + title + "**\n\n" + body)
	}
	section("What it checks", r.Docs.What)
	section("Why", r.Docs.Why)
	section("How to fix", r.Docs.Fix)
	if ex := strings.Trim(r.Docs.Example, "\n"); strings.TrimSpace(ex) != "" {
		t.WriteString("\n\nExample:\n" + ex)
		m.WriteString("\n\n**Example**\n\n```python\n" + ex + "\n```")
	}
	if t.Len() == 0 {
		return r.Title, r.Title
	}
	return t.String(), m.String()
}

// unwrap joins the lines of a paragraph-wrapped text.
func unwrap(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// sentence ends a description with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}

// pascalName turns a title into a rule name in Pascal case: its words
// capitalized and joined, articles and a possessive 's left out ("The op's
// function is listed in __all__" is OpFunctionIsListedInAll).
func pascalName(title string) string {
	var b strings.Builder
	words := strings.FieldsFunc(strings.ReplaceAll(title, "'s ", " "), func(c rune) bool {
		return !unicode.IsLetter(c) && !unicode.IsDigit(c)
	})
	for _, w := range words {
		switch strings.ToLower(w) {
		case "a", "an", "the":
			continue
		}
		rs := []rune(strings.ToLower(w))
		rs[0] = unicode.ToUpper(rs[0])
		b.WriteString(string(rs))
	}
	return b.String()
}

func isSemver(v string) bool {
	core := v
	if i := strings.IndexAny(core, "-+"); i >= 0 {
		core = core[:i]
	}
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" {
			return false
		}
		for _, c := range p {
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

// region converts a parser span (1-based lines, 0-based byte columns) of a
// file. A span of line 0 is the whole file (no region); an empty or
// inverted end is left out.
func (o *SARIFOptions) region(lines *lineCache, file string, pos, end ast.Pos) *sarifRegion {
	if pos.Line < 1 {
		return nil
	}
	r := &sarifRegion{StartLine: pos.Line, StartColumn: utf16Col(lines.line(file, pos.Line), pos.Col)}
	if end.Line > pos.Line || end.Line == pos.Line && end.Col > pos.Col {
		r.EndLine = end.Line
		r.EndColumn = utf16Col(lines.line(file, end.Line), end.Col)
	}
	return r
}

// physical is a location in a file; with snippets, when the file can be
// read, its region carries the text it spans and a context region the
// whole lines around it.
func (o *SARIFOptions) physical(lines *lineCache, file string, pos, end ast.Pos, snippets bool) sarifPhysical {
	p := sarifPhysical{
		ArtifactLocation: sarifArtifactLoc{URI: uriPath(o.repoPath(file)), URIBaseID: srcRoot},
		Region:           o.region(lines, file, pos, end),
	}
	if !snippets || p.Region == nil || lines.line(file, pos.Line) == nil {
		return p
	}
	if end.Line < pos.Line || end.Line == pos.Line && end.Col < pos.Col {
		end = pos
	}
	if text, ok := lines.span(file, pos, end); ok && text != "" {
		p.Region.Snippet = &sarifMessage{Text: text}
	}
	first, last := max(pos.Line-1, 1), max(end.Line, pos.Line)+1
	for lines.line(file, last) == nil && last > pos.Line {
		last--
	}
	var b strings.Builder
	for n := first; n <= last; n++ {
		b.Write(lines.line(file, n))
		b.WriteByte('\n')
	}
	p.ContextRegion = &sarifRegion{StartLine: first, EndLine: last, Snippet: &sarifMessage{Text: b.String()}}
	return p
}

// fix converts a suggested fix: its edits grouped by file, in order.
func (o *SARIFOptions) fix(lines *lineCache, f analysis.SuggestedFix) sarifFix {
	sf := sarifFix{Description: sarifMessage{Text: f.Message}, ArtifactChanges: []sarifArtifactChange{}}
	byFile := map[string]int{}
	for _, e := range f.Edits {
		i, ok := byFile[e.File]
		if !ok {
			i = len(sf.ArtifactChanges)
			byFile[e.File] = i
			sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{
				ArtifactLocation: sarifArtifactLoc{URI: uriPath(o.repoPath(e.File)), URIBaseID: srcRoot},
			})
		}
		del := sarifRegion{
			StartLine: e.Start.Line, StartColumn: utf16Col(lines.line(e.File, e.Start.Line), e.Start.Col),
			EndLine: e.End.Line, EndColumn: utf16Col(lines.line(e.File, e.End.Line), e.End.Col),
		}
		rep := sarifReplacement{DeletedRegion: del}
		if e.NewText != "" {
			rep.InsertedContent = &sarifMessage{Text: e.NewText}
		}
		sf.ArtifactChanges[i].Replacements = append(sf.ArtifactChanges[i].Replacements, rep)
	}
	return sf
}

// fingerprints returns for each finding a digest of its identity (with
// the file's path from the repository's root) and its rank among the
// findings with the same identity: a line inserted above a finding, or
// anywhere else, and a message worded otherwise leave it the same.
func fingerprints(ds []analysis.Diagnostic, o *Options) []string {
	seen := map[string]int{}
	out := make([]string, len(ds))
	for i := range ds {
		key := analysis.IdentityOf(&ds[i], o.repoPath(ds[i].File)).Key()
		n := seen[key]
		seen[key] = n + 1
		sum := sha256.Sum256([]byte(key))
		out[i] = hex.EncodeToString(sum[:16]) + ":" + strconv.Itoa(n+1)
	}
	return out
}

// uriPath writes a slash path as the path of a relative URI reference
// (RFC 3986): every byte but the unreserved characters and '/'
// percent-encoded, so that a file name with a space, '#', '?', '%' or ':'
// (which would read as a scheme) stays one path, and a name that is not
// UTF-8 keeps its bytes (%FF) instead of turning into U+FFFD.
func uriPath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == '/':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

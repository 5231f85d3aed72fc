package checks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

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

// A Relation is one check of require or forbid: exactly one of file,
// text, pattern, key and capture.
type Relation struct {
	File    string `toml:"file"`    // a file (or, ending in "/", a directory) this glob matches
	Text    string `toml:"text"`    // a regexp (multi-line: ^ and $ match at lines) on the text of the files of in
	Pattern string `toml:"pattern"` // a Python pattern in the files of in
	Key     string `toml:"key"`     // a dotted key of the JSON / TOML files of in ("*": any key)
	Capture string `toml:"capture"` // a capture of the subject
	Value   string `toml:"value"`   // with key or capture: a regexp its value (each element of a list) matches
	PartOf  string `toml:"part-of"` // with text: only a match whose first group (else whole) is part of this text counts
	In      string `toml:"in"`      // the files looked in (a glob; default: the subject's file)
	What    string `toml:"what"`    // the problem, for {what} (default: said from the check)
	Fix     string `toml:"fix"`     // the action, for {fix}
	_       struct{}
}

// Validate checks the params' shape and compiles what does not depend on
// a subject's captures.
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

// validateWhen checks a rule's "when" or "unless": checks of the
// repository, so a file, or a text, pattern or key with the files to look
// in.
func validateWhen(name string, when []*Relation) error {
	var errs []error
	for i, r := range when {
		err := r.validate()
		if err == nil && r.Capture != "" {
			err = fmt.Errorf("a capture needs a subject; %s has none", name)
		}
		if err == nil && r.File == "" && r.In == "" {
			err = errors.New("give in: the files to look in")
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s[%d]: %v", name, i, err))
		}
	}
	return errors.Join(errs...)
}

// Applies reports whether a rule applies to the repository: every check
// of its "when" holds and none of its "unless" (a file that exists, a
// text, pattern or key value found in the files of in). A rule whose
// premise a repository does not meet yet (the helper module it names, the
// dependency version whose API it asks for), or whose repository writes
// down another convention, does not apply there.
func (t *Tree) Applies(when, unless []*Relation) bool {
	repo := &relSubject{caps: map[string]string{}}
	for _, r := range when {
		if len(r.check(t, repo, true)) > 0 {
			return false
		}
	}
	for _, r := range unless {
		if len(r.check(t, repo, true)) == 0 {
			return false
		}
	}
	return true
}

func (r *Relation) validate() error {
	n := 0
	for _, s := range []string{r.File, r.Text, r.Pattern, r.Key, r.Capture} {
		if s != "" {
			n++
		}
	}
	if n != 1 {
		return errors.New("give exactly one of file, text, pattern, key and capture")
	}
	if r.Value != "" && r.Key == "" && r.Capture == "" {
		return errors.New("value goes with key or capture")
	}
	if r.Capture != "" && r.Value == "" {
		return errors.New("capture needs value")
	}
	if r.PartOf != "" && r.Text == "" {
		return errors.New("part-of goes with text")
	}
	if r.In != "" && (r.File != "" || r.Capture != "") {
		return errors.New("in goes with text, pattern or key")
	}
	// The parts that take no capture must compile now: a catalog error
	// is found when the catalog loads, not on some repository.
	for _, s := range []string{r.Text, r.Value} {
		if s != "" && !strings.Contains(s, "{") {
			if _, err := regexp.Compile(s); err != nil {
				return err
			}
		}
	}
	if r.Pattern != "" && !strings.Contains(r.Pattern, "{") {
		if _, err := (&PatternParams{Pattern: r.Pattern}).compile(); err != nil {
			return err
		}
	}
	return nil
}

// compile parses a pattern given with no other params.
func (p *PatternParams) compile() (*PatternParams, error) {
	return p, p.Validate()
}

// A capGlob is a path glob with {captures}: "*" and "?" match within a
// path segment, "**" any number of segments, "{name}" binds a non-empty
// part of one segment (a name used twice must bind the same text).
type capGlob struct {
	src    string
	re     *regexp.Regexp
	names  []string // the group of each capture, in order
	prefix string   // the literal directory the glob is under
	dir    bool     // ends in "/": matches directories
	err    error
}

var capRE = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)(?::([a-z]+))?\}`)

func compileCapGlob(g string) *capGlob {
	c := &capGlob{src: g}
	if strings.HasSuffix(g, "/") {
		c.dir = true
		g = strings.TrimSuffix(g, "/")
	}
	if g == "" || strings.HasPrefix(g, "/") || strings.Contains(g, "\\") {
		c.err = fmt.Errorf("invalid glob %q: want a slash glob relative to the root", c.src)
		return c
	}
	var b strings.Builder
	b.WriteString("^")
	segs := strings.Split(g, "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		if seg == "**" {
			if last {
				b.WriteString(".*")
			} else {
				b.WriteString("(?:[^/]+/)*")
			}
			continue
		}
		for j := 0; j < len(seg); {
			switch {
			case seg[j] == '*':
				b.WriteString("[^/]*")
				j++
			case seg[j] == '?':
				b.WriteString("[^/]")
				j++
			case seg[j] == '{':
				m := capRE.FindStringSubmatchIndex(seg[j:])
				if m == nil || m[0] != 0 {
					c.err = fmt.Errorf("glob %q: a { opens no {capture}", c.src)
					return c
				}
				c.names = append(c.names, seg[j+m[2]:j+m[3]])
				b.WriteString("([^/]+?)")
				j += m[1]
			default:
				b.WriteString(regexp.QuoteMeta(seg[j : j+1]))
				j++
			}
		}
		if !last {
			b.WriteString("/")
		}
	}
	b.WriteString("$")
	c.re, c.err = regexp.Compile(b.String())
	c.prefix = layout.GlobPrefix(g)
	if !strings.ContainsAny(g, "*?{") {
		c.prefix = path.Dir(g)
		if c.prefix == "." {
			c.prefix = ""
		}
	}
	return c
}

// match matches a path, returning its captures.
func (c *capGlob) match(p string) (map[string]string, bool) {
	m := c.re.FindStringSubmatch(p)
	if m == nil {
		return nil, false
	}
	caps := map[string]string{}
	for i, name := range c.names {
		if v, ok := caps[name]; ok && v != m[i+1] {
			return nil, false
		}
		caps[name] = m[i+1]
	}
	return caps, true
}

// expandCaps substitutes captures in s: {name} by its value (quoted for a
// regexp when quote), {name:dash} with "_" as "-". Braces that name no
// capture are left alone ({2,3} of a regexp, a capture bound later).
func expandCaps(s string, caps map[string]string, quote bool) string {
	if !strings.Contains(s, "{") {
		return s
	}
	return capRE.ReplaceAllStringFunc(s, func(m string) string {
		sm := capRE.FindStringSubmatch(m)
		v, ok := caps[sm[1]]
		if !ok {
			return m
		}
		if sm[2] == "dash" {
			v = strings.ReplaceAll(v, "_", "-")
		}
		if quote {
			v = regexp.QuoteMeta(v)
		}
		return v
	})
}

// A Tree is what a relation reads of a repository: the paths of its files
// (any type, listed under a directory when asked), their text, the parsed
// Python files, and decoded JSON / TOML documents; each read once.
type Tree struct {
	repo    *optable.Repo
	src     source.Source
	all     []string
	listed  bool
	under   map[string][]string
	data    map[string][]byte
	py      map[string]*source.File
	docs    map[string]any
	docErrs map[string]error
	table   *optable.OpTable        // names a subject in an op's file after the op
	decl    *declared               // what the projects declare, read when a subject pattern asks
	texts   map[string]*textRE      // the text regexps compiled, by source (nil: it does not compile)
	pats    map[string]*treePattern // the pattern checks compiled, by source (nil: it does not compile)
}

// NewTree returns the tree of a repository model (its Source, else its
// parsed files alone).
func NewTree(repo *optable.Repo) *Tree {
	return &Tree{repo: repo, src: repo.Source, under: map[string][]string{}, data: map[string][]byte{},
		py: map[string]*source.File{}, docs: map[string]any{}, docErrs: map[string]error{}, texts: map[string]*textRE{},
		pats: map[string]*treePattern{}}
}

// A treePattern is a pattern check of the relation kind, compiled once
// per source, with one index for every file and its matches in each file
// it was asked about: subjects that share a pattern and a file (a check
// of the whole repository, an op's files) match it once.
type treePattern struct {
	p     *PatternParams
	ix    *patternIndex
	found map[*source.File][]PatternMatch
}

// pattern returns a pattern check compiled (nil when it does not compile).
func (t *Tree) pattern(src string) *treePattern {
	tp, ok := t.pats[src]
	if !ok {
		if p, err := (&PatternParams{Pattern: src}).compile(); err == nil {
			tp = &treePattern{p: p, ix: newPatternIndex([]*PatternParams{p}), found: map[*source.File][]PatternMatch{}}
		}
		t.pats[src] = tp
	}
	return tp
}

// find returns the matches of the pattern in a parsed file, as
// PatternParams.Find does (shared: callers do not modify them).
func (tp *treePattern) find(f *source.File) []PatternMatch {
	ms, ok := tp.found[f]
	if !ok {
		ms = findAll(f, tp.ix, nil, nil)[0]
		tp.found[f] = ms
	}
	return ms
}

// textRE returns a text regexp compiled, once per source however many
// subjects and rules use it (nil when it does not compile).
func (t *Tree) textRE(src string) *textRE {
	re, ok := t.texts[src]
	if !ok {
		re, _ = compileTextRE(src)
		t.texts[src] = re
	}
	return re
}

// list returns the sorted paths under a directory ("": all).
func (t *Tree) list(dir string) []string {
	if out, ok := t.under[dir]; ok {
		return out
	}
	var out []string
	if dl, ok := t.src.(source.DirLister); ok && dir != "" && !t.listed {
		out, _ = dl.ListUnder([]string{dir})
	} else {
		if !t.listed {
			t.listed = true
			if t.src != nil {
				t.all, _ = t.src.List()
			}
			// The parsed files are the snapshot's own, whatever the source
			// lists (a check from a map of files in tests).
			t.all = append(t.all, t.repo.Paths...)
			sort.Strings(t.all)
			t.all = slices.Compact(t.all)
		}
		for _, p := range t.all {
			if dir == "" || strings.HasPrefix(p, dir+"/") {
				out = append(out, p)
			}
		}
	}
	t.under[dir] = out
	return out
}

// files returns the files a glob matches, with their captures.
func (t *Tree) files(g *capGlob) ([]string, []map[string]string) {
	var paths []string
	var caps []map[string]string
	if g.dir {
		seen := map[string]bool{}
		for _, p := range t.list(g.prefix) {
			for d := path.Dir(p); d != "." && d != "" && !seen[d]; d = path.Dir(d) {
				seen[d] = true
				if c, ok := g.match(d); ok {
					paths = append(paths, d)
					caps = append(caps, c)
				}
			}
		}
		sort.Sort(byPath{paths, caps})
		return paths, caps
	}
	for _, p := range t.list(g.prefix) {
		if c, ok := g.match(p); ok {
			paths = append(paths, p)
			caps = append(caps, c)
		}
	}
	return paths, caps
}

type byPath struct {
	p []string
	c []map[string]string
}

func (b byPath) Len() int           { return len(b.p) }
func (b byPath) Less(i, j int) bool { return b.p[i] < b.p[j] }
func (b byPath) Swap(i, j int)      { b.p[i], b.p[j] = b.p[j], b.p[i]; b.c[i], b.c[j] = b.c[j], b.c[i] }

// text returns a file's content (nil when it cannot be read).
func (t *Tree) text(p string) []byte {
	if f := t.repo.Files[p]; f != nil {
		return f.Src
	}
	if d, ok := t.data[p]; ok {
		return d
	}
	var d []byte
	if t.src != nil {
		d, _ = t.src.ReadFile(p)
		if len(d) > source.MaxFileBytes {
			d = d[:source.MaxFileBytes]
		}
	}
	t.data[p] = d
	return d
}

// python returns a Python file parsed, or nil when it does not parse.
func (t *Tree) python(p string) *source.File {
	if f := t.repo.Files[p]; f != nil {
		if f.AST == nil || f.AST.Module == nil {
			return nil
		}
		return f
	}
	if f, ok := t.py[p]; ok {
		return f
	}
	var f *source.File
	if strings.HasSuffix(p, ".py") {
		if d := t.text(p); d != nil {
			f = source.ParseFile(p, d)
			if f.AST == nil || f.AST.Module == nil {
				f = nil
			}
		}
	}
	t.py[p] = f
	return f
}

// doc returns a JSON or TOML file decoded (by its extension), or an error.
func (t *Tree) doc(p string) (any, error) {
	if d, ok := t.docs[p]; ok {
		return d, t.docErrs[p]
	}
	var v any
	var err error
	data := t.text(p)
	switch path.Ext(p) {
	case ".json":
		err = json.Unmarshal(data, &v)
	case ".toml":
		var m map[string]any
		_, err = toml.Decode(string(data), &m)
		v = m
	default:
		err = fmt.Errorf("not a .json or .toml file")
	}
	if err != nil {
		err = fmt.Errorf("%s: %v", p, err)
		v = nil
	}
	t.docs[p], t.docErrs[p] = v, err
	return v, err
}

// A keyValue is a value found at a key, with the key's concrete path (a
// "*" replaced by the key it stood for).
type keyValue struct {
	path []string
	v    any
}

// keyValues returns the values at a dotted key of a decoded document ("*"
// any key; a list on the way is gone through element by element), and
// whether the key is there; a list at the end gives its elements.
func keyValues(v any, key, at []string) ([]keyValue, bool) {
	if len(key) == 0 {
		var l []any
		switch x := v.(type) {
		case []any:
			l = x
		case []map[string]any:
			for _, e := range x {
				l = append(l, e)
			}
		default:
			return []keyValue{{at, v}}, true
		}
		out := make([]keyValue, len(l))
		for i, e := range l {
			out[i] = keyValue{at, e}
		}
		return out, true
	}
	var out []keyValue
	found := false
	var list []any
	switch x := v.(type) {
	case map[string]any:
		var ks []string
		if key[0] == "*" {
			ks = slices.Sorted(mapKeys(x))
		} else if _, ok := x[key[0]]; ok {
			ks = []string{key[0]}
		}
		for _, k := range ks {
			vs, ok := keyValues(x[k], key[1:], append(slices.Clip(at), k))
			out = append(out, vs...)
			found = found || ok
		}
		return out, found
	case []any:
		list = x
	case []map[string]any:
		for _, e := range x {
			list = append(list, e)
		}
	}
	for _, e := range list {
		vs, ok := keyValues(e, key, at)
		out = append(out, vs...)
		found = found || ok
	}
	return out, found
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// scalar is a key's value as text (a table or list: its JSON).
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	case map[string]any, []any:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return fmt.Sprint(v)
}

// keyLine finds the line of a key's last part in a JSON or TOML file's
// text (after its earlier parts, when they are found): 1 if not found.
func keyLine(data []byte, key []string, value string) int {
	off := 0
	for i, k := range key {
		q := regexp.QuoteMeta(k)
		re := regexp.MustCompile(`(?m)(?:"` + q + `"\s*:|^\s*` + q + `\s*=|^\s*\[(?:[^\]]*\.)?` + q + `\]|\b` + q + `\s*=)`)
		loc := re.FindIndex(data[off:])
		if loc == nil {
			break
		}
		off += loc[0]
		if i == len(key)-1 && value != "" {
			if j := bytes.Index(data[off:], []byte(value)); j >= 0 {
				off += j
			}
		}
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// A relSubject is one subject of a relation rule.
type relSubject struct {
	path string // the file or directory it is, or the file it is in
	file string // the file its findings are at (a directory's first file)
	dir  bool
	node ast.Node // a pattern match: where it is
	line int      // a key's value: its line
	caps map[string]string
	name string
}

// A RelationFinding is one finding of a relation rule.
type RelationFinding struct {
	File string
	Line int
	Node ast.Node // when in a Python file, the node
	Vars map[string]string
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
			s := &relSubject{path: q, file: q, dir: p.subject.dir, caps: caps[i], name: onlyCapture(caps[i])}
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
		var ix *patternIndex // p.sub's, for every file
		for _, g := range files {
			paths, caps := t.files(compileCapGlob(g))
			for i, q := range paths {
				if excluded(q) {
					continue
				}
				if p.sub != nil {
					f := t.python(q)
					if f == nil {
						continue
					}
					if t.decl == nil {
						t.decl = newDeclared(t.repo)
					}
					if ix == nil {
						ix = newPatternIndex([]*PatternParams{p.sub})
					}
					for _, m := range findAll(f, ix, nil, t.decl.admitted(q))[0] {
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

// in returns the files a check looks in for a subject.
func (r *Relation) in(t *Tree, s *relSubject) []string {
	if r.In == "" {
		if s.path == "" || s.dir {
			return nil
		}
		return []string{s.file}
	}
	paths, _ := t.files(compileCapGlob(expandCaps(r.In, s.caps, false)))
	return paths
}

// finding makes a finding of a check at a place.
func (r *Relation) finding(s *relSubject, file string, line int, node ast.Node, what, match string) RelationFinding {
	vars := map[string]string{"subject": s.name, "file": file, "match": match}
	caps := maps2(s.caps, map[string]string{"file": file, "match": match})
	vars["what"] = what
	if r.What != "" {
		vars["what"] = expandCaps(r.What, caps, false)
	}
	vars["fix"] = "fix it"
	if r.Fix != "" {
		vars["fix"] = expandCaps(r.Fix, caps, false)
	}
	if line < 1 {
		line = 1
	}
	return RelationFinding{File: file, Line: line, Node: node, Vars: vars}
}

func maps2(a, b map[string]string) map[string]string {
	out := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// at is where a failed require is reported: the subject.
func (s *relSubject) at() (string, int, ast.Node) {
	if s.node != nil {
		return s.file, s.node.Pos().Line, s.node
	}
	return s.file, s.line, nil
}

// check runs one check for a subject: a require (want true) reports when
// nothing is found, a forbid each thing found.
func (r *Relation) check(t *Tree, s *relSubject, want bool) []RelationFinding {
	sf, sl, sn := s.at()
	miss := func(what string) []RelationFinding {
		return []RelationFinding{r.finding(s, sf, sl, sn, what, "")}
	}
	switch {
	case r.File != "":
		g := compileCapGlob(expandCaps(r.File, s.caps, false))
		if g.err != nil {
			return nil
		}
		paths, _ := t.files(g)
		if want {
			if len(paths) == 0 {
				return miss(fmt.Sprintf("there is no %s", expandCaps(r.File, s.caps, false)))
			}
			return nil
		}
		var out []RelationFinding
		for _, q := range paths {
			at := q
			if g.dir {
				if fs := t.list(q); len(fs) > 0 {
					at = fs[0]
				}
			}
			out = append(out, r.finding(s, at, 1, nil, q+" must not be committed", q))
		}
		return out

	case r.Text != "":
		re := t.textRE("(?m)" + expandCaps(r.Text, s.caps, true))
		if re == nil {
			return nil
		}
		files := r.in(t, s)
		// With part-of, a match counts when its first group (else the
		// whole match) is a substring of the text: a listed prefix or
		// substring that names the subject.
		partOf := expandCaps(r.PartOf, s.caps, false)
		counts := func(data []byte, loc []int) bool {
			if r.PartOf == "" {
				return true
			}
			a, b := loc[0], loc[1]
			if len(loc) >= 4 && loc[2] >= 0 {
				a, b = loc[2], loc[3]
			}
			return b > a && strings.Contains(partOf, string(data[a:b]))
		}
		var out []RelationFinding
		for _, q := range files {
			data := t.text(q)
			if !re.mayMatch(data) {
				continue // lacks a literal every match has: no match
			}
			if want && r.PartOf == "" {
				if re.re.Match(data) {
					return nil
				}
				continue
			}
			var locs [][]int
			if r.PartOf == "" {
				locs = re.re.FindAllIndex(data, -1)
			} else {
				locs = re.re.FindAllSubmatchIndex(data, -1)
			}
			if want {
				for _, loc := range locs {
					if counts(data, loc) {
						return nil
					}
				}
				continue
			}
			for _, loc := range locs {
				if !counts(data, loc) {
					continue
				}
				line := bytes.Count(data[:loc[0]], []byte("\n")) + 1
				m := strings.TrimSpace(string(data[loc[0]:loc[1]]))
				if i := strings.IndexByte(m, '\n'); i >= 0 {
					m = m[:i]
				}
				out = append(out, r.finding(s, q, line, nil, fmt.Sprintf("%s has `%s`", q, m), m))
			}
		}
		if want {
			return miss(fmt.Sprintf("no line of %s matches `%s`", r.inName(s), r.Text))
		}
		return out

	case r.Pattern != "":
		tp := t.pattern(expandCaps(r.Pattern, s.caps, false))
		if tp == nil {
			return nil
		}
		pp := tp.p
		var out []RelationFinding
		for _, q := range r.in(t, s) {
			f := t.python(q)
			if f == nil {
				continue
			}
			ms := tp.find(f)
			if want {
				if len(ms) > 0 {
					return nil
				}
				continue
			}
			for _, m := range ms {
				out = append(out, r.finding(s, q, m.At.Pos().Line, m.At, fmt.Sprintf("%s has %s", q, m.Vars["match"]), m.Vars["match"]))
			}
		}
		if want {
			return miss(fmt.Sprintf("%s has no %s", r.inName(s), pp.Pattern))
		}
		return out

	case r.Key != "":
		var vre *regexp.Regexp
		if r.Value != "" {
			var err error
			if vre, err = regexp.Compile(expandCaps(r.Value, s.caps, true)); err != nil {
				return nil
			}
		}
		key := strings.Split(expandCaps(r.Key, s.caps, false), ".")
		var out []RelationFinding
		found := false
		for _, q := range r.in(t, s) {
			d, err := t.doc(q)
			if err != nil {
				out = append(out, r.finding(s, q, 1, nil, fmt.Sprintf("%s cannot be read as %s", q, strings.TrimPrefix(path.Ext(q), ".")), ""))
				continue
			}
			vs, ok := keyValues(d, key, nil)
			if !ok {
				continue
			}
			found = true
			for _, kv := range vs {
				txt := scalar(kv.v)
				bad := vre != nil && !vre.MatchString(txt)
				if !want {
					bad = vre == nil || vre.MatchString(txt)
				}
				if bad {
					out = append(out, r.finding(s, q, keyLine(t.text(q), kv.path, txt), nil,
						fmt.Sprintf("%s of %s is %s", strings.Join(kv.path, "."), q, txt), txt))
				}
			}
		}
		if want && !found && len(out) == 0 {
			return miss(fmt.Sprintf("%s has no key %s", r.inName(s), strings.Join(key, ".")))
		}
		return out

	case r.Capture != "":
		re, err := regexp.Compile(expandCaps(r.Value, s.caps, true))
		if err != nil {
			return nil
		}
		v := s.caps[r.Capture]
		if re.MatchString(v) != want {
			return miss(fmt.Sprintf("%s is %q", r.Capture, v))
		}
	}
	return nil
}

// inName says which files a check looked in.
func (r *Relation) inName(s *relSubject) string {
	if r.In == "" {
		return s.path
	}
	return expandCaps(r.In, s.caps, false)
}

func runRelation(pass *Pass) (any, error) {
	t := NewTree(pass.Repo)
	t.table, _ = pass.ResultOf[optable.OpTableAnalyzer].(*optable.OpTable)
	for _, rule := range pass.Rules {
		p, _ := rule.Params.(*RelationParams)
		if p == nil {
			continue
		}
		for _, f := range p.Find(t, rule.Files) {
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

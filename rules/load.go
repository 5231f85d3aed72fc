package rules

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/tilegym/tilegym-lint/layout"
)

// Catalog is a loaded rules.toml.
type Catalog struct {
	File    string // the name it was loaded from, for messages
	Version int
	Rules   []*Rule // in file order
	ByID    map[string]*Rule
	Layout  layout.Layout
	// Families are the rule families, in file order ([[family]]; a
	// catalog that declares none has the family TG alone).
	Families []*Family
	// Lists are the named lists rules refer to ([lists]: the names of
	// cuda.tile, ...), by name.
	Lists map[string]*List
	// LayoutLines locates the keys of the [layout] table (paths relative
	// to it, e.g. "scope.0.tests"), for messages about layout values.
	LayoutLines KeyLines
}

// Rule returns the rule with the given ID, or nil.
func (c *Catalog) Rule(id string) *Rule { return c.ByID[id] }

// Requirements returns the requirement IDs of the workflow, in the order of
// docs/requirements.md (read into the generated catalog_gen.go).
func Requirements() []string {
	return slices.Clone(requirementIDs)
}

// LoadError is one problem of a catalog or configuration file, at a line.
type LoadError struct {
	File string
	Line int // 1-based; 0 when unknown
	Msg  string
}

func (e *LoadError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// ErrorList is every problem found in one file, sorted by line.
type ErrorList []*LoadError

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

func (l ErrorList) err() error {
	if len(l) == 0 {
		return nil
	}
	l.Sort()
	return l
}

// Sort orders the errors by line, then message, so that messages do not
// depend on map order.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		if l[i].Line != l[j].Line {
			return l[i].Line < l[j].Line
		}
		return l[i].Msg < l[j].Msg
	})
}

// ParseTOML decodes a TOML document into a generic table with
// BurntSushi/toml and scans the lines of its keys. A syntax error is
// returned as an *LoadError naming the line.
func ParseTOML(data []byte, filename string) (map[string]any, KeyLines, error) {
	if line, what := tooDeep(data); line > 0 {
		return nil, nil, &LoadError{File: filename, Line: line, Msg: fmt.Sprintf("invalid TOML: %s nested more than %d deep; a configuration needs a few levels", what, MaxTOMLDepth)}
	}
	var m map[string]any
	if _, err := toml.Decode(string(data), &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg := pe.Message
			if pe.Usage != "" {
				msg += " (" + strings.TrimSpace(strings.SplitN(pe.Usage, "\n", 2)[0]) + ")"
			}
			line := pe.Position.Line
			if st := pe.Position.Start; st >= 0 && st <= len(data) {
				// The lexer counts a line when it reads the newline, so an
				// error at a newline ("got '\n'") would name the next line.
				line = 1 + bytes.Count(data[:st], []byte("\n"))
			}
			return nil, nil, &LoadError{File: filename, Line: line, Msg: "invalid TOML: " + boundedMessage(msg)}
		}
		return nil, nil, &LoadError{File: filename, Msg: "invalid TOML: " + boundedMessage(err.Error())}
	}
	return m, ScanKeyLines(data), nil
}

// DecodeTable strictly decodes table (found at path prefix in the file) into
// v, adding an error for every unknown key (suggesting the nearest known
// key, also among also: the keys of table the caller decodes itself) and
// for a value of the wrong type. It reports whether decoding succeeded
// without error.
func DecodeTable(table map[string]any, v any, prefix []string, kl KeyLines, filename string, errs *ErrorList, also ...string) bool {
	unknown, known, typeErrs := strictDecode(table, v)
	for _, e := range typeErrs {
		path := append(slices.Clone(prefix), e.key...)
		*errs = append(*errs, &LoadError{File: filename, Line: kl.Line(path...), Msg: strings.Join(path, ".") + ": " + e.msg})
	}
	for i, k := range unknown {
		path := append(slices.Clone(prefix), k...)
		cands := known[i]
		if len(k) == 1 {
			cands = append(slices.Clone(cands), also...)
		}
		*errs = append(*errs, &LoadError{File: filename, Line: kl.Line(path...),
			Msg: fmt.Sprintf("unknown key %q", strings.Join(path, ".")) + DidYouMean(k[len(k)-1], cands)})
	}
	return len(typeErrs) == 0 && len(unknown) == 0
}

// rawRule is a [[rule]] table without its params.
type rawRule struct {
	ID          string            `toml:"id"`
	Step        *int              `toml:"step"`
	Requirement string            `toml:"requirement"`
	Severity    string            `toml:"severity"`
	Title       string            `toml:"title"`
	Message     string            `toml:"message"`
	Kind        string            `toml:"kind"`
	Files       []string          `toml:"files"`
	Fixable     bool              `toml:"fixable"`
	Docs        *rawDocs          `toml:"docs"`
	Texts       map[string]string `toml:"texts"`
}

type rawDocs struct {
	What    string `toml:"what"`
	Why     string `toml:"why"`
	Fix     string `toml:"fix"`
	Example string `toml:"example"`
}

// Validator is implemented by a kind's params struct that checks its values
// beyond their types; Load reports its error at the rule's params.
type Validator interface {
	Validate() error
}

//go:generate go run ./internal/gencatalog -toml ../rules.toml -requirements ../docs/requirements.md -o catalog_gen.go

// LoadBuiltin validates the built-in catalog, rules.toml as decoded at build
// time into catalog_gen.go, and decodes each rule's params as Load does.
func LoadBuiltin(kinds func(kind string) (params func() any, ok bool)) (*Catalog, error) {
	return load(builtinDocument(), builtinKeyLines(), "rules.toml", kinds)
}

// Load reads and validates a rule catalog. kinds resolves a kind name to the
// constructor of its params struct (nil when the kind takes none) and
// reports whether the kind exists. Every error names filename and a line.
func Load(data []byte, filename string, kinds func(kind string) (params func() any, ok bool)) (*Catalog, error) {
	m, kl, err := ParseTOML(data, filename)
	if err != nil {
		return nil, err
	}
	return load(m, kl, filename, kinds)
}

// load validates a decoded catalog whose keys are on the lines kl gives.
func load(m map[string]any, kl KeyLines, filename string, kinds func(string) (func() any, bool)) (*Catalog, error) {
	var errs ErrorList
	cat := &Catalog{File: filename, ByID: map[string]*Rule{}, LayoutLines: KeyLines{}}
	add := func(line int, format string, args ...any) {
		errs = append(errs, &LoadError{File: filename, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	if fv, ok := m["family"]; ok {
		cat.Families = loadFamilies(fv, kl, filename, &errs)
	}
	if cat.Family(TG) == nil {
		cat.Families = append([]*Family{defaultFamily()}, cat.Families...)
	}
	if lv, ok := m["lists"]; ok {
		cat.Lists = loadLists(lv, kl, filename, &errs)
	}

	for key, val := range m {
		switch key {
		case "version":
			v, ok := val.(int64)
			if !ok || v != 1 {
				add(kl.Line("version"), "version: want 1, got %v", val)
			}
			cat.Version = int(v)
		case "layout":
			t, ok := val.(map[string]any)
			if !ok {
				add(kl.Line("layout"), "layout: want a table")
				continue
			}
			DecodeLayout(t, &cat.Layout, []string{"layout"}, kl, filename, &errs)
			for k, l := range kl {
				if rest, ok := strings.CutPrefix(k, "layout."); ok {
					cat.LayoutLines[rest] = l
				}
			}
		case "family", "lists":
			// decoded above: the rules need them
		case "rule":
			list, ok := val.([]map[string]any)
			if !ok {
				add(kl.Line("rule"), "rule: want an array of tables ([[rule]])")
				continue
			}
			for i, t := range list {
				if r := loadRule(t, i, kl, filename, kinds, cat, &errs); r != nil {
					cat.Rules = append(cat.Rules, r)
				}
			}
		default:
			add(kl.Line(key), "unknown key %q%s", key, DidYouMean(key, []string{"version", "layout", "family", "lists", "rule"}))
		}
	}
	if _, ok := m["version"]; !ok {
		add(1, "missing key \"version\"")
	}

	known := map[string]bool{}
	for _, r := range Requirements() {
		known[r] = true
	}
	for _, r := range cat.Rules {
		if prev, ok := cat.ByID[r.ID]; ok {
			add(r.Line, "duplicate rule id %s (first defined on line %d)", r.ID, prev.Line)
			continue
		}
		cat.ByID[r.ID] = r
		if r.Family != TG {
			continue // its family's requirements were checked
		}
		if r.Requirement != "" && !known[r.Requirement] {
			add(r.Line, "rule %s: unknown requirement %q (see docs/requirements.md)", r.ID, r.Requirement)
		}
	}
	for _, r := range cat.Rules {
		lu, ok := r.Params.(ListUser)
		if !ok {
			continue
		}
		for _, n := range lu.ListNames() {
			if _, ok := cat.Lists[n]; !ok {
				add(r.Line, "rule %s: no list %q in [lists]", r.ID, n)
			}
		}
		lu.BindLists(cat.Lists)
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return cat, nil
}

func loadRule(t map[string]any, i int, kl KeyLines, filename string, kinds func(string) (func() any, bool), cat *Catalog, errs *ErrorList) *Rule {
	prefix := []string{"rule", strconv.Itoa(i)}
	line := kl.Line(prefix...)
	params, hasParams := t["params"]
	rest := make(map[string]any, len(t))
	for k, v := range t {
		if k != "params" {
			rest[k] = v
		}
	}
	var raw rawRule
	n := len(*errs)
	if !DecodeTable(rest, &raw, prefix, kl, filename, errs) && raw.ID == "" {
		return nil
	}
	name := "rule"
	if raw.ID != "" {
		name = "rule " + raw.ID
	}
	add := func(key string, format string, args ...any) {
		l := line
		if key != "" {
			if kl2 := kl.Line(append(prefix, key)...); kl2 > 0 {
				l = kl2
			}
		}
		*errs = append(*errs, &LoadError{File: filename, Line: l, Msg: name + ": " + fmt.Sprintf(format, args...)})
	}
	for _, f := range []struct{ key, val string }{
		{"id", raw.ID}, {"requirement", raw.Requirement}, {"severity", raw.Severity},
		{"title", raw.Title}, {"message", raw.Message}, {"kind", raw.Kind},
	} {
		if strings.TrimSpace(f.val) == "" {
			add("", "missing %s", f.key)
		}
	}
	fam := cat.FamilyOf(raw.ID)
	steps := fam == nil || fam.Steps
	if raw.Step == nil && steps {
		add("", "missing step")
	}
	if raw.Docs == nil {
		add("", "missing [rule.docs] (what, why, fix)")
	} else {
		for _, f := range []struct{ key, val string }{{"what", raw.Docs.What}, {"why", raw.Docs.Why}, {"fix", raw.Docs.Fix}} {
			if strings.TrimSpace(f.val) == "" {
				add("docs", "missing docs.%s", f.key)
			}
		}
	}
	if !steps {
		// checkFamilyRule checks the id, step and requirement.
	} else if raw.ID != "" && !validID(raw.ID) {
		add("id", "invalid id %q: want TG, the step digit (0 for cross-step) and two digits, e.g. TG301", raw.ID)
	} else if raw.ID != "" && raw.Step != nil && int(raw.ID[2]-'0') != *raw.Step {
		add("step", "step %d does not match the step digit of id %s", *raw.Step, raw.ID)
	}
	if raw.Step != nil && (*raw.Step < 0 || *raw.Step > 6) {
		add("step", "step %d out of range 0..6", *raw.Step)
	}
	switch Severity(raw.Severity) {
	case Error, Warning, "":
	default:
		add("severity", "invalid severity %q: want error or warning", raw.Severity)
	}
	r := &Rule{
		ID: raw.ID, Requirement: raw.Requirement, Severity: Severity(raw.Severity),
		Title: raw.Title, Message: raw.Message, Files: raw.Files, Kind: raw.Kind, Line: line,
		Fixable: raw.Fixable, Texts: raw.Texts,
	}
	if raw.Step != nil {
		r.Step = *raw.Step
	}
	if raw.ID != "" {
		checkFamilyRule(cat, r, raw.Step != nil, func(_ int, format string, args ...any) {
			*errs = append(*errs, &LoadError{File: filename, Line: line, Msg: fmt.Sprintf(format, args...)})
		})
	}
	if raw.Docs != nil {
		r.Docs = Docs{What: raw.Docs.What, Why: raw.Docs.Why, Fix: raw.Docs.Fix, Example: raw.Docs.Example}
	}
	for _, f := range raw.Files {
		if f == "" || strings.HasPrefix(f, "/") || strings.Contains(f, "\\") {
			add("files", "invalid file pattern %q: want a slash glob relative to the root", f)
		}
	}
	if raw.Kind != "" {
		newParams, ok := kinds(raw.Kind)
		switch {
		case !ok:
			add("kind", "unknown kind %q", raw.Kind)
		case newParams == nil && hasParams:
			add("params", "kind %q takes no params", raw.Kind)
		case newParams != nil:
			p := newParams()
			pt, isTable := params.(map[string]any)
			if hasParams && !isTable {
				add("params", "params: want a table")
			} else if pt == nil {
				pt = map[string]any{}
			}
			if isTable || !hasParams {
				if DecodeTable(pt, p, append(prefix, "params"), kl, filename, errs) {
					if v, ok := p.(Validator); ok {
						if err := v.Validate(); err != nil {
							add("params", "params: %v", err)
						}
					}
				}
			}
			r.Params = p
		}
	}
	if len(*errs) > n {
		return r // keep it for duplicate checks; Load fails anyway
	}
	return r
}

func validID(id string) bool {
	if len(id) != 5 || id[0] != 'T' || id[1] != 'G' {
		return false
	}
	if id[2] < '0' || id[2] > '6' {
		return false
	}
	return id[3] >= '0' && id[3] <= '9' && id[4] >= '0' && id[4] <= '9'
}

// DecodeLayout strictly decodes a [layout] table found at prefix, each
// [[layout.scope]] on its own so that errors name its line, and validates it.
func DecodeLayout(t map[string]any, l *layout.Layout, prefix []string, kl KeyLines, filename string, errs *ErrorList) {
	rest := make(map[string]any, len(t))
	for k, v := range t {
		if k != "scope" {
			rest[k] = v
		}
	}
	DecodeTable(rest, l, prefix, kl, filename, errs)
	if sc, ok := t["scope"]; ok {
		list, ok := sc.([]map[string]any)
		if !ok {
			*errs = append(*errs, &LoadError{File: filename, Line: kl.Line(append(prefix, "scope")...), Msg: "layout.scope: want an array of tables ([[layout.scope]])"})
		}
		for i, st := range list {
			s := &layout.Scope{}
			DecodeTable(st, s, append(append([]string(nil), prefix...), "scope", strconv.Itoa(i)), kl, filename, errs)
			l.Scopes = append(l.Scopes, s)
		}
	}
	checkLayout(l, prefix, kl, filename, errs)
}

// checkLayout validates a layout table: every scope named once, with its
// paths relative slash globs.
func checkLayout(l *layout.Layout, prefix []string, kl KeyLines, filename string, errs *ErrorList) {
	names := map[string]bool{}
	for i, s := range l.Scopes {
		p := append(append([]string(nil), prefix...), "scope", strconv.Itoa(i))
		add := func(key, format string, args ...any) {
			*errs = append(*errs, &LoadError{File: filename, Line: kl.Line(append(p, key)...), Msg: fmt.Sprintf(format, args...)})
		}
		if s.Name == "" {
			add("name", "layout scope %d: missing name", i+1)
		} else if names[s.Name] {
			add("name", "layout scope %q defined twice", s.Name)
		}
		names[s.Name] = true
		check := func(key, g string) {
			if err := CheckGlob(g); err != nil {
				add(key, "layout scope %q: %s: %v", s.Name, key, err)
			}
		}
		for _, g := range s.Dispatch {
			check("dispatch", g)
		}
		for _, g := range s.Tests {
			check("tests", g)
		}
		for _, g := range s.Benchmarks {
			check("benchmarks", g)
		}
		if s.CuTile != "" {
			check("cutile", s.CuTile)
		}
	}
	for _, g := range append(append([]string(nil), l.Exclude...), l.Include...) {
		if err := CheckGlob(g); err != nil {
			*errs = append(*errs, &LoadError{File: filename, Line: kl.Line(prefix...), Msg: fmt.Sprintf("layout: %v", err)})
		}
	}
}

// CheckGlob reports whether g is a usable slash glob: relative, no
// backslashes, no empty or "." / ".." segments, "**" only as a whole
// segment, "{...}" only as "{suite}".
func CheckGlob(g string) error {
	if g == "" {
		return fmt.Errorf("empty pattern")
	}
	if strings.HasPrefix(g, "/") || strings.Contains(g, "\\") {
		return fmt.Errorf("pattern %q: want a slash path relative to the root", g)
	}
	for _, seg := range strings.Split(g, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("pattern %q: empty, . or .. segment", g)
		}
		if strings.Contains(seg, "**") && seg != "**" {
			return fmt.Errorf("pattern %q: ** must be a whole segment", g)
		}
		rest := strings.ReplaceAll(seg, "{suite}", "")
		if strings.ContainsAny(rest, "{}[]") {
			return fmt.Errorf("pattern %q: only {suite} may appear in braces; [] classes are not supported", g)
		}
	}
	return nil
}

// MaxTOMLDepth bounds the nesting of a TOML file's arrays and inline
// tables, and the parts of one dotted key: the decoder recurses once per
// level, and a file nested a million deep overflowed the stack. The
// catalog and a configuration use three or four levels.
const MaxTOMLDepth = 64

// tooDeep returns the line of the first place data nests brackets or
// braces (outside strings and comments) more than MaxTOMLDepth deep, or
// has a key or table header of more than MaxTOMLDepth dots, and which; 0
// when there is none.
func tooDeep(data []byte) (int, string) {
	line, depth, dots := 1, 0, 0
	header, start := false, true // a table header's line; at the line's start
	for i := 0; i < len(data); i++ {
		c := data[i]
		if start && c != ' ' && c != '\t' {
			header, start = c == '[', false
		}
		switch c {
		case '\n':
			line, dots, start = line+1, 0, true
		case '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			q := string(data[i : i+1])
			if i+2 < len(data) && data[i+1] == c && data[i+2] == c {
				q = strings.Repeat(q, 3)
			}
			i += len(q)
			for i < len(data) && !bytesHasPrefix(data[i:], q) {
				if data[i] == '\n' {
					line++
				}
				if c == '"' && data[i] == '\\' {
					i++
				}
				i++
			}
			i += len(q) - 1
		case '[', '{':
			if depth++; depth > MaxTOMLDepth {
				return line, "arrays or tables"
			}
		case ']', '}':
			depth = max(0, depth-1)
		case '.':
			if depth > 0 && !header {
				break // a float in an array
			}
			if dots++; dots > MaxTOMLDepth {
				return line, "a dotted key"
			}
		}
	}
	return 0, ""
}

func bytesHasPrefix(b []byte, s string) bool { return len(b) >= len(s) && string(b[:len(s)]) == s }

// boundedMessage returns a decoder's error message at most 200 bytes long,
// its control and non-ASCII characters escaped: the message may quote the
// file, and the file may be anything (a secret's first line, terminal
// escapes).
func boundedMessage(msg string) string {
	var b strings.Builder
	for _, r := range msg {
		if b.Len() >= 200 {
			b.WriteString("...")
			break
		}
		if r >= 0x20 && r < 0x7f {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

package checks

// The checks of a repository's tree: a relation rule's require and forbid
// for each subject, and any rule's when and unless.

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/tilegym/tilegym-lint/python/ast"
)

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

// in returns the files a check looks in for a subject.
func (r *Relation) in(t *Tree, s *relSubject) []string {
	if r.In == "" {
		if s.path == "" || s.dir {
			return nil
		}
		return []string{s.file}
	}
	paths, _ := t.files(t.glob(expandCaps(r.In, s.caps, false)))
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
		g := t.glob(expandCaps(r.File, s.caps, false))
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
			if vre = t.valueRE(expandCaps(r.Value, s.caps, true)); vre == nil {
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
		re := t.valueRE(expandCaps(r.Value, s.caps, true))
		if re == nil {
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

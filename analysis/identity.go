package analysis

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
)

// Identity is what makes a finding the same finding across revisions of
// a repository: its rule, its op, its file and a fingerprint of the code
// it is about -- never its line number, never the wording of its message.
// One identity serves change mode (a finding the base had is
// pre-existing), the baseline (a recorded finding is baselined) and
// SARIF's partialFingerprints.
type Identity struct {
	Rule        string // the rule's id
	Op          string // "" for a finding of no op
	File        string // slash path (relative to the root, or as the caller keys it)
	Fingerprint string // Fingerprint of the finding's anchor line
}

// IdentityOf is a finding's identity, with file the path to identify it
// under (change mode gives a finding of the base in a file the change
// moves the file's new path; SARIF the path from the repository's root).
func IdentityOf(d *Diagnostic, file string) Identity {
	return Identity{Rule: d.Rule.ID, Op: d.Op, File: file, Fingerprint: d.Fingerprint}
}

// Fingerprint is the fingerprint of a finding anchored on a line: a digest
// of the line's text with its runs of spaces and tabs made one space and
// its ends trimmed. Lines added or removed elsewhere, the code moved or
// indented differently, and the message's wording leave it the same.
// A finding with no line (a whole file) has the fingerprint of "".
func Fingerprint(line string) string {
	var b strings.Builder
	b.Grow(len(line))
	space := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case ' ', '\t', '\f', '\v', '\r', '\n':
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(c)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

// Lines finds the lines of one source text by number, in constant time
// after one pass over the text (a finding's fingerprint reads its line, and
// a file may have a finding on every line).
type Lines struct {
	src    string
	starts []int // the offset of each line after the first
}

// NewLines indexes the line ends ("\n") of src.
func NewLines(src string) *Lines {
	l := &Lines{src: src}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// Line returns line n (1-based) without its line end, or "" when there is
// none.
func (l *Lines) Line(n int) string {
	if n < 1 || n > len(l.starts)+1 {
		return ""
	}
	start, end := 0, len(l.src)
	if n > 1 {
		start = l.starts[n-2]
	}
	if n <= len(l.starts) {
		end = l.starts[n-1] - 1
	}
	return strings.TrimSuffix(l.src[start:end], "\r")
}

// Key is the identity as one string (for a digest or a map key).
func (id Identity) Key() string {
	return id.Rule + "\x00" + id.Op + "\x00" + id.File + "\x00" + id.Fingerprint
}

// looseKey is the identity without its fingerprint.
type looseKey struct{ rule, op, file string }

func (id Identity) loose() looseKey { return looseKey{id.Rule, id.Op, id.File} }

// Known is a multiset of identities that findings are matched against:
// the findings of a base revision, or a baseline's entries.
//
// Match pairs a finding with a known identity in two passes. First the
// same identity (rule, op, file, fingerprint). Then, among what is left on
// both sides, the same rule, op and file, as many as are left: the code a
// finding is about changed (a test method renamed, its line edited) but
// the op still has as many findings of the rule in the file, so the
// finding is the old one. A finding is new when its op has more findings
// of its rule in its file than were known; the fingerprints decide which
// of them is new.
type Known struct {
	exact map[Identity]int
}

// NewKnown returns an empty multiset.
func NewKnown() *Known { return &Known{exact: map[Identity]int{}} }

// Add records n findings of an identity.
func (k *Known) Add(id Identity, n int) {
	if n > 0 {
		k.exact[id] += n
	}
}

// Match matches ids, in order, against the known identities, consuming
// what each matches, and reports which ones matched.
func (k *Known) Match(ids []Identity) []bool {
	matched := make([]bool, len(ids))
	for i, id := range ids {
		if k.exact[id] > 0 {
			k.exact[id]--
			matched[i] = true
		}
	}
	// What is left, by rule, op and file, in a deterministic order.
	left := map[looseKey][]Identity{}
	for id, n := range k.exact {
		if n > 0 {
			left[id.loose()] = append(left[id.loose()], id)
		}
	}
	for _, l := range left {
		sort.Slice(l, func(i, j int) bool { return l[i].Fingerprint < l[j].Fingerprint })
	}
	for i, id := range ids {
		if matched[i] {
			continue
		}
		l := left[id.loose()]
		for len(l) > 0 && k.exact[l[0]] == 0 {
			l = l[1:]
		}
		left[id.loose()] = l
		if len(l) > 0 {
			k.exact[l[0]]--
			matched[i] = true
		}
	}
	return matched
}

// Left returns the identities no finding matched, with how many of each,
// sorted.
func (k *Known) Left() ([]Identity, []int) {
	var ids []Identity
	for id, n := range k.exact {
		if n > 0 {
			ids = append(ids, id)
		}
	}
	SortIdentities(ids)
	counts := make([]int, len(ids))
	for i, id := range ids {
		counts[i] = k.exact[id]
	}
	return ids, counts
}

// SortIdentities sorts by file, rule, op, fingerprint.
func SortIdentities(ids []Identity) {
	sort.Slice(ids, func(i, j int) bool {
		a, b := ids[i], ids[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		if a.Op != b.Op {
			return a.Op < b.Op
		}
		return a.Fingerprint < b.Fingerprint
	})
}

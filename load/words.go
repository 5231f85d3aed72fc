package load

// Words in source text, found without parsing it: the scans that choose
// which files to parse.

import (
	"bytes"
	"encoding/binary"
	"slices"

	"golang.org/x/text/unicode/norm"
)

// WordSet is a set of Python identifiers looked up in source text.
type WordSet map[string]bool

// wordByte[c]: c is a letter, digit, underscore or non-ASCII byte.
var wordByte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	return t
}()

// Find returns the words of the set that the text has, each once: as a
// whole word (a maximal run of letters, digits, underscores and non-ASCII
// bytes), or, in a run with non-ASCII bytes, anywhere in its NFKC normal
// form (the form the parser gives identifiers).
func (ws WordSet) Find(src []byte) []string {
	if len(ws) == 0 {
		return nil
	}
	return newWordIndex(ws).find(src)
}

// A wordIndex is a WordSet prepared for looking for its words in many
// texts: what it costs per text is then the text's length times the number
// of distinct word lengths, not times the number of words (a check in
// batches looks for each batch's names in every test file).
type wordIndex struct {
	set WordSet
	// lens[c]: bit min(n, 63) is set when a word of n bytes starts with c.
	lens [256]uint64
	// sizes are the distinct lengths of the words, ascending.
	sizes []int
}

func newWordIndex(ws WordSet) *wordIndex {
	x := &wordIndex{set: ws}
	seen := map[int]bool{}
	for w := range ws {
		if w != "" {
			x.lens[w[0]] |= 1 << min(len(w), 63)
		}
		if !seen[len(w)] {
			seen[len(w)] = true
			x.sizes = append(x.sizes, len(w))
		}
	}
	slices.Sort(x.sizes)
	return x
}

// find is WordSet.Find.
func (x *wordIndex) find(src []byte) []string {
	if len(x.set) == 0 {
		return nil
	}
	var found []string
	seen := map[string]bool{}
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			found = append(found, w)
		}
	}
	for i := 0; i < len(src); {
		if !wordByte[src[i]] {
			i++
			continue
		}
		j := i
		ascii := true
		for j < len(src) && wordByte[src[j]] {
			if src[j] >= 0x80 {
				ascii = false
			}
			j++
		}
		w := src[i:j]
		if x.lens[w[0]]&(1<<min(len(w), 63)) != 0 && x.set[string(w)] && !seen[string(w)] {
			add(string(w))
		}
		if !ascii {
			x.within(norm.NFKC.String(string(w)), add)
		}
		i = j
	}
	return found
}

// within calls add with each word of the set that is a substring of s
// (each occurrence).
func (x *wordIndex) within(s string, add func(string)) {
	for _, n := range x.sizes {
		for i := 0; i+n <= len(s); i++ {
			if x.set[s[i:i+n]] {
				add(s[i : i+n])
			}
		}
	}
}

// inside reports whether a word of the set is a substring of s.
func (x *wordIndex) inside(s string) bool {
	hit := false
	for _, n := range x.sizes {
		for i := 0; i+n <= len(s) && !hit; i++ {
			hit = x.set[s[i:i+n]]
		}
	}
	return hit
}

// containsAny reports whether src contains one of the byte strings.
func containsAny(src []byte, subs [][]byte) bool {
	for _, w := range subs {
		if bytes.Contains(src, w) {
			return true
		}
	}
	return false
}

// HasWord reports whether src has w as a whole word: not preceded or
// followed by a letter, digit, underscore or non-ASCII byte.
func HasWord(src []byte, w string) bool {
	return !eachWord(src, w, func(int) bool { return false })
}

// eachWord calls fn with the offset of each place src has w as a whole
// word, in order, while fn returns true; it reports whether every call
// did.
func eachWord(src []byte, w string, fn func(j int) bool) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(w))
		if j < 0 {
			return true
		}
		j += i
		end := j + len(w)
		if (j == 0 || !wordByte[src[j-1]]) && (end == len(src) || !wordByte[src[end]]) && !fn(j) {
			return false
		}
		i = j + 1
	}
}

// hasNonASCII reports whether src has a byte over 0x7f.
func hasNonASCII(src []byte) bool {
	i := 0
	for ; i+8 <= len(src); i += 8 {
		if binary.LittleEndian.Uint64(src[i:])&0x8080808080808080 != 0 {
			return true
		}
	}
	for ; i < len(src); i++ {
		if src[i] >= 0x80 {
			return true
		}
	}
	return false
}

// Package requires reads what a Python project requires of its
// dependencies, statically: PEP 440 versions and version specifiers (the
// subset a linter needs: parse, order, and the range of versions a
// specifier set admits), PEP 508 requirement strings, and the requirements
// a project's packaging files declare (pyproject.toml, setup.cfg,
// requirements.txt). It never runs the project's code. It knows Python
// packaging, not TileGym.
package requires

import (
	"fmt"
	"strconv"
	"strings"
)

// A Version is a PEP 440 version, parsed.
type Version struct {
	Epoch   int
	Release []int // at least one segment
	// Pre is the pre-release phase ("a", "b", "rc"; "" for none) and PreN
	// its number.
	Pre  string
	PreN int
	// Post and Dev are the post- and development-release numbers (-1: none).
	Post, Dev int
	Local     string // after "+", normalized (lower case, "." separators); "" for none
	text      string // as written
}

func (v Version) String() string { return v.text }

// ParseVersion parses a version as PEP 440 spells it, with the
// alternative spellings it normalizes: a leading "v", any case, "-", "_"
// or "." (or nothing) before a pre-, post- or dev-release, "alpha",
// "beta", "c", "pre" and "preview" for a, b and rc, "rev" and "r" for
// post, a missing number (1.0rc = 1.0rc0), and "1.0-1" for 1.0.post1.
func ParseVersion(s string) (Version, error) {
	v := Version{Post: -1, Dev: -1, text: strings.TrimSpace(s)}
	t := strings.ToLower(v.text)
	bad := func(why string) (Version, error) {
		return Version{}, fmt.Errorf("invalid version %q: %s", s, why)
	}
	if t == "" {
		return bad("empty")
	}
	t = strings.TrimPrefix(t, "v")
	if i := strings.IndexByte(t, '+'); i >= 0 {
		loc := t[i+1:]
		t = t[:i]
		if loc == "" {
			return bad("empty local version after +")
		}
		for _, seg := range strings.FieldsFunc(loc, isSep) {
			for _, c := range seg {
				if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
					return bad("a local version holds letters, digits and . - _")
				}
			}
		}
		v.Local = strings.Join(strings.FieldsFunc(loc, isSep), ".")
	}
	if i := strings.IndexByte(t, '!'); i >= 0 {
		n, ok := number(t[:i])
		if !ok {
			return bad("the epoch before ! is not a number")
		}
		v.Epoch = n
		t = t[i+1:]
	}
	// The release: numbers separated by dots.
	i := 0
	for {
		j := i
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j == i {
			return bad("want a release number such as 1.3.0")
		}
		n, ok := number(t[i:j])
		if !ok {
			return bad("a release number is too large")
		}
		v.Release = append(v.Release, n)
		i = j
		if i+1 < len(t) && t[i] == '.' && t[i+1] >= '0' && t[i+1] <= '9' {
			i++
			continue
		}
		break
	}
	rest := t[i:]
	// Pre-release, post-release, development release, in this order.
	if p, n, r, ok := suffix(rest, preWords); ok {
		v.Pre, v.PreN, rest = p, n, r
	}
	if strings.HasPrefix(rest, "-") && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9' {
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		n, ok := number(rest[1:j])
		if !ok {
			return bad("a post-release number is too large")
		}
		v.Post, rest = n, rest[j:]
	} else if _, n, r, ok := suffix(rest, postWords); ok {
		v.Post, rest = n, r
	}
	if _, n, r, ok := suffix(rest, devWords); ok {
		v.Dev, rest = n, r
	}
	if rest != "" {
		return bad(fmt.Sprintf("unexpected %q", rest))
	}
	return v, nil
}

func isSep(r rune) bool { return r == '.' || r == '-' || r == '_' }

func number(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

var (
	preWords  = [][2]string{{"alpha", "a"}, {"a", "a"}, {"beta", "b"}, {"b", "b"}, {"preview", "rc"}, {"pre", "rc"}, {"rc", "rc"}, {"c", "rc"}}
	postWords = [][2]string{{"post", "post"}, {"rev", "post"}, {"r", "post"}}
	devWords  = [][2]string{{"dev", "dev"}}
)

// suffix reads an optional separator, one of words (the first that
// matches, longer spellings first) and an optional separator and number
// from the start of s.
func suffix(s string, words [][2]string) (string, int, string, bool) {
	t := s
	if t != "" && isSep(rune(t[0])) {
		t = t[1:]
	}
	for _, w := range words {
		if !strings.HasPrefix(t, w[0]) {
			continue
		}
		r := t[len(w[0]):]
		digits := r
		if digits != "" && isSep(rune(digits[0])) {
			digits = digits[1:]
		}
		j := 0
		for j < len(digits) && digits[j] >= '0' && digits[j] <= '9' {
			j++
		}
		if j == 0 {
			return w[1], 0, r, true // 1.0rc: rc0
		}
		n, ok := number(digits[:j])
		if !ok {
			return "", 0, s, false
		}
		return w[1], n, digits[j:], true
	}
	return "", 0, s, false
}

// Compare orders two versions as PEP 440 does: -1, 0 or +1. Trailing zeros
// of the release do not count (1.3 == 1.3.0); a development release comes
// before the pre-releases of its release, which come before the release,
// which comes before its post-releases; a local version comes after the
// same public version.
func Compare(a, b Version) int {
	if c := cmpInt(a.Epoch, b.Epoch); c != 0 {
		return c
	}
	n := max(len(a.Release), len(b.Release))
	for i := range n {
		if c := cmpInt(seg(a.Release, i), seg(b.Release, i)); c != 0 {
			return c
		}
	}
	if c := cmpInt(preKey(a), preKey(b)); c != 0 {
		return c
	}
	if c := cmpInt(a.PreN, b.PreN); a.Pre != "" && c != 0 {
		return c
	}
	if c := cmpInt(a.Post, b.Post); c != 0 { // -1: none, first
		return c
	}
	if c := cmpInt(devKey(a), devKey(b)); c != 0 {
		return c
	}
	return cmpLocal(a.Local, b.Local)
}

func seg(r []int, i int) int {
	if i < len(r) {
		return r[i]
	}
	return 0
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// preKey ranks the pre-release phase: a development release of no
// pre-release first, then a, b, rc, then none (the release itself).
func preKey(v Version) int {
	switch v.Pre {
	case "a":
		return 1
	case "b":
		return 2
	case "rc":
		return 3
	}
	if v.Post < 0 && v.Dev >= 0 {
		return 0
	}
	return 4
}

// devKey puts a development release before the same version without one.
func devKey(v Version) int {
	if v.Dev < 0 {
		return int(^uint(0) >> 1)
	}
	return v.Dev
}

// cmpLocal orders local versions: none first, then segment by segment,
// numbers after words, numbers by value.
func cmpLocal(a, b string) int {
	if a == b {
		return 0
	}
	if a == "" {
		return -1
	}
	if b == "" {
		return 1
	}
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		an, aNum := number(as[i])
		bn, bNum := number(bs[i])
		switch {
		case aNum && bNum:
			if c := cmpInt(an, bn); c != 0 {
				return c
			}
		case aNum != bNum:
			if aNum {
				return 1
			}
			return -1
		default:
			if c := strings.Compare(as[i], bs[i]); c != 0 {
				return c
			}
		}
	}
	return cmpInt(len(as), len(bs))
}

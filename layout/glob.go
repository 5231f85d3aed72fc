package layout

import "strings"

// MatchPath reports whether a slash path matches a slash glob of the layout
// and returns the suite name "{suite}" bound to. In a pattern, "*" matches
// any run of characters within a segment, "?" one character, "**" as a
// whole segment any number of segments (zero included), and "{suite}" one
// or more characters within a segment, the same wherever it appears.
// Matching is byte-wise, without regular expressions or allocation on the
// common paths.
func MatchPath(pattern, path string) (suite string, ok bool) {
	var w work
	if !strings.Contains(pattern, "{suite}") {
		return "", matchFixed(pattern, path, "", false, &w)
	}
	bindings(pattern, path, &w, func(s string) bool {
		suite, ok = s, true
		return false
	})
	return suite, ok
}

// Matches reports whether path matches pattern, whatever the suite.
func Matches(pattern, path string) bool {
	_, ok := MatchPath(pattern, path)
	return ok
}

// MatchAny returns the suite bound by the first of patterns that path
// matches.
func MatchAny(patterns []string, path string) (suite string, ok bool) {
	for _, p := range patterns {
		if s, ok := MatchPath(p, path); ok {
			return s, true
		}
	}
	return "", false
}

// ExpandSuite substitutes a suite name for "{suite}" in a pattern.
func ExpandSuite(pattern, suite string) string {
	if suite == "" || !strings.Contains(pattern, "{suite}") {
		return pattern
	}
	return strings.ReplaceAll(pattern, "{suite}", suite)
}

// GlobPrefix returns the literal directory prefix of a pattern, before its
// first wildcard segment: "tests/ops" for "tests/ops/**/test_*.py".
func GlobPrefix(pattern string) string {
	var out []string
	for _, seg := range strings.Split(pattern, "/") {
		if strings.ContainsAny(seg, "*?{") {
			break
		}
		out = append(out, seg)
	}
	if len(out) > 0 && len(out) == len(strings.Split(pattern, "/")) {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "/")
}

// suiteSet is the suites for which a path matches some patterns, from
// boundSuites: it answers MatchBound for every suite at once.
type suiteSet struct {
	patterns []string
	path     string
	all      bool     // a pattern without "{suite}" matches: every suite does
	suites   []string // the suites a "{suite}" pattern binds, without repeats
}

// boundSuites returns the suites for which MatchBound(patterns, suite, p)
// holds, found by one exhaustive match of each pattern instead of one match
// per suite: a pattern may bind several ("{suite}_*" binds "a" and "a_b"
// in "a_b_c").
func boundSuites(patterns []string, p string) suiteSet {
	out := suiteSet{patterns: patterns, path: p}
	for _, pat := range patterns {
		if !strings.Contains(pat, "{suite}") {
			if Matches(pat, p) {
				out.all = true
			}
			continue
		}
		var w work
		bindings(pat, p, &w, func(s string) bool {
			for _, x := range out.suites {
				if x == s {
					return true
				}
			}
			out.suites = append(out.suites, s)
			return true
		})
	}
	return out
}

// has reports whether MatchBound(patterns, suite, path) holds.
func (s suiteSet) has(suite string) bool {
	switch {
	case s.all:
		return true
	case suite == "":
		return len(s.suites) > 0
	case !literal(suite):
		return MatchBound(s.patterns, suite, s.path)
	}
	for _, x := range s.suites {
		if x == suite {
			return true
		}
	}
	return false
}

// literal reports whether a suite name expands into a pattern as itself:
// no wildcard, "{" or "/". Only such suites are among a suiteSet's
// suites; another one is matched by MatchBound.
func literal(suite string) bool { return !strings.ContainsAny(suite, "*?{/") }

// work counts the byte comparisons of one match, to bound the bindings of
// "{suite}" tried (see bindings).
type work struct{ steps int }

// bindingBudget is the most comparisons one match of a pattern with
// "{suite}" makes: its bindings are the substrings of the path's segments,
// far more than any layout's patterns and paths try (a few hundred), but
// a pattern like "**/*{suite}*{suite}*b" over long names would try each.
// A match that exceeds it reports no match.
const bindingBudget = 1 << 22

// segAt returns the segment of s starting at byte pos and the start of the
// next one (len(s)+1 after the last).
func segAt(s string, pos int) (string, int) {
	if i := strings.IndexByte(s[pos:], '/'); i >= 0 {
		return s[pos : pos+i], pos + i + 1
	}
	return s[pos:], len(s) + 1
}

// matchSegFixed matches one segment, with "{suite}" standing for suite
// (a literal; "" only in a pattern without "{suite}"). It is the classic
// two-pointer wildcard match: on a mismatch it resumes after the last
// "*", one byte further, which is enough because what follows a "*" up to
// the next one matches a fixed number of bytes. Its work is at most the
// product of the lengths, not exponential in the stars.
func matchSegFixed(pat, s, suite string, w *work) bool {
	p, i := 0, 0
	starP, starI := -1, 0
	for i < len(s) || p < len(pat) {
		w.steps++
		if p < len(pat) {
			switch {
			case pat[p] == '*':
				for p < len(pat) && pat[p] == '*' {
					p++
				}
				starP, starI = p, i
				continue
			case pat[p] == '?':
				if i < len(s) {
					p, i = p+1, i+1
					continue
				}
			case suite != "" && strings.HasPrefix(pat[p:], "{suite}"):
				if strings.HasPrefix(s[i:], suite) {
					p, i = p+len("{suite}"), i+len(suite)
					continue
				}
			default:
				if i < len(s) && s[i] == pat[p] {
					p, i = p+1, i+1
					continue
				}
			}
		}
		if starP < 0 || starI >= len(s) {
			return false
		}
		starI++
		p, i = starP, starI
	}
	return true
}

// matchFixed matches a whole path, with "{suite}" standing for suite. A
// "**" segment is to segments what "*" is to bytes, and the same
// two-pointer match resumes after the last "**", one segment further.
// "**" as the last segment matches the rest, even nothing; otherwise what
// follows a "**" matches at least one segment, and a pattern that goes on
// when the path ends matches only if the rest is exactly "**" ("a/**"
// matches "a"). With partial, pat and path start inside a segment: the
// first segment of pat is never a "**" segment.
func matchFixed(pat, path, suite string, partial bool, w *work) bool {
	pp, sp := 0, 0
	starPP, starSP := -1, 0
	for {
		if pp > len(pat) {
			if sp > len(path) {
				return true
			}
		} else {
			pseg, pnext := segAt(pat, pp)
			if pseg == "**" && !(partial && pp == 0) {
				if pnext > len(pat) {
					return true
				}
				starPP, starSP, pp = pnext, sp, pnext
				continue
			}
			if sp <= len(path) {
				sseg, snext := segAt(path, sp)
				if matchSegFixed(pseg, sseg, suite, w) {
					if snext <= len(path) || pnext > len(pat) {
						pp, sp = pnext, snext
						continue
					}
					if pat[pnext:] == "**" {
						return true
					}
				}
			}
		}
		if starPP < 0 {
			return false
		}
		_, next := segAt(path, starSP)
		if next > len(path) {
			return false
		}
		starSP, pp, sp = next, starPP, next
	}
}

// bindings calls yield with each suite name that "{suite}" (in pat) can
// bind so that pat matches path, until yield returns false: by segment,
// then by the binding's start and end within it, so the first is the
// leftmost and shortest. The segments where the first "{suite}" can fall
// are those the pattern's segments before it reach; each binding is then
// checked with matchFixed. It stops, yielding nothing more, once w
// exceeds bindingBudget.
func bindings(pat, path string, w *work, yield func(string) bool) {
	tok := strings.Index(pat, "{suite}")
	ks := strings.LastIndexByte(pat[:tok], '/') + 1 // start of the token's segment
	pre, rest := pat[ks:tok], pat[tok+len("{suite}"):]
	whole := pre == "" && (rest == "" || rest[0] == '/') // the token is the whole segment
	// reach[j]: the pattern's segments before the token's reach the path's
	// segment starting at byte j.
	var buf [2 * 64]bool
	cells := buf[:]
	if 2*(len(path)+1) > len(buf) {
		cells = make([]bool, 2*(len(path)+1))
	}
	reach, next := cells[:len(path)+1], cells[len(path)+1:2*(len(path)+1)]
	clear(reach)
	reach[0] = true
	for pp := 0; pp < ks; {
		pseg, pnext := segAt(pat, pp)
		clear(next)
		star := false // a "**" reaches every segment from a reached one on
		for j := 0; j <= len(path); j++ {
			if j > 0 && path[j-1] != '/' {
				continue
			}
			if pseg == "**" {
				star = star || reach[j]
				next[j] = star
				continue
			}
			if !reach[j] {
				continue
			}
			// The token's segment follows: the path must go on.
			if sseg, snext := segAt(path, j); snext <= len(path) && matchSegFixed(pseg, sseg, "", w) {
				next[snext] = true
			}
			if w.steps > bindingBudget {
				return
			}
		}
		reach, next = next, reach
		pp = pnext
	}
	for j := 0; j <= len(path); j++ {
		if !reach[j] || j > 0 && path[j-1] != '/' {
			continue
		}
		seg, _ := segAt(path, j)
		end := j + len(seg)
		for si := j; si < end && (si == j || !whole); si++ {
			if !matchSegFixed(pre, path[j:si], "", w) {
				continue
			}
			e := si + 1
			if whole {
				e = end
			}
			for ; e <= end; e++ {
				if w.steps > bindingBudget {
					return
				}
				if matchFixed(rest, path[e:], path[si:e], true, w) && !yield(path[si:e]) {
					return
				}
			}
		}
	}
}

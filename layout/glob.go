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
	return matchSegs(pattern, path, "")
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

// nextSeg splits s at its first '/'.
func nextSeg(s string) (seg, rest string, more bool) {
	if i := strings.IndexByte(s, '/'); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

func matchSegs(pat, path, suite string) (string, bool) {
	for {
		pseg, prest, pmore := nextSeg(pat)
		if pseg == "**" {
			if !pmore {
				return suite, true // trailing ** matches everything left, even nothing
			}
			// Try the rest of the pattern at every segment boundary of path.
			p := path
			for {
				if s, ok := matchSegs(prest, p, suite); ok {
					return s, true
				}
				_, r, more := nextSeg(p)
				if !more {
					return "", false
				}
				p = r
			}
		}
		sseg, srest, smore := nextSeg(path)
		s, ok := matchSeg(pseg, sseg, suite)
		if !ok {
			return "", false
		}
		suite = s
		if !pmore || !smore {
			if !pmore && !smore {
				return suite, true
			}
			// Pattern "a/**" matches "a" too.
			if pmore && !smore && prest == "**" {
				return suite, true
			}
			return "", false
		}
		pat, path = prest, srest
	}
}

// matchSeg matches one segment; suite is the current binding ("" for none).
func matchSeg(pat, s, suite string) (string, bool) {
	for len(pat) > 0 {
		switch {
		case pat[0] == '*':
			for len(pat) > 0 && pat[0] == '*' {
				pat = pat[1:]
			}
			if pat == "" {
				return suite, true
			}
			for i := 0; i <= len(s); i++ {
				if b, ok := matchSeg(pat, s[i:], suite); ok {
					return b, true
				}
			}
			return "", false
		case pat[0] == '?':
			if s == "" {
				return "", false
			}
			pat, s = pat[1:], s[1:]
		case strings.HasPrefix(pat, "{suite}"):
			pat = pat[len("{suite}"):]
			if suite != "" {
				if !strings.HasPrefix(s, suite) {
					return "", false
				}
				s = s[len(suite):]
				continue
			}
			for i := 1; i <= len(s); i++ {
				if b, ok := matchSeg(pat, s[i:], s[:i]); ok {
					return b, true
				}
			}
			return "", false
		default:
			if s == "" || s[0] != pat[0] {
				return "", false
			}
			pat, s = pat[1:], s[1:]
		}
	}
	if s != "" {
		return "", false
	}
	return suite, true
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
		allSegs(pat, p, "", func(s string) {
			for _, x := range out.suites {
				if x == s {
					return
				}
			}
			out.suites = append(out.suites, s)
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

// allSegs calls yield with every binding of "{suite}" (suite, when bound
// already) under which pat matches path: matchSegs, trying every way.
func allSegs(pat, path, suite string, yield func(string)) {
	pseg, prest, pmore := nextSeg(pat)
	if pseg == "**" {
		if !pmore {
			yield(suite)
			return
		}
		for p := path; ; {
			allSegs(prest, p, suite, yield)
			_, r, more := nextSeg(p)
			if !more {
				return
			}
			p = r
		}
	}
	sseg, srest, smore := nextSeg(path)
	allSeg(pseg, sseg, suite, func(s string) {
		switch {
		case pmore && smore:
			allSegs(prest, srest, s, yield)
		case !pmore && !smore, pmore && prest == "**":
			yield(s)
		}
	})
}

// allSeg is matchSeg trying every way.
func allSeg(pat, s, suite string, yield func(string)) {
	for len(pat) > 0 {
		switch {
		case pat[0] == '*':
			for len(pat) > 0 && pat[0] == '*' {
				pat = pat[1:]
			}
			if pat == "" {
				yield(suite)
				return
			}
			for i := 0; i <= len(s); i++ {
				allSeg(pat, s[i:], suite, yield)
			}
			return
		case pat[0] == '?':
			if s == "" {
				return
			}
			pat, s = pat[1:], s[1:]
		case strings.HasPrefix(pat, "{suite}"):
			pat = pat[len("{suite}"):]
			if suite != "" {
				if !strings.HasPrefix(s, suite) {
					return
				}
				s = s[len(suite):]
				continue
			}
			for i := 1; i <= len(s); i++ {
				allSeg(pat, s[i:], s[:i], yield)
			}
			return
		default:
			if s == "" || s[0] != pat[0] {
				return
			}
			pat, s = pat[1:], s[1:]
		}
	}
	if s == "" {
		yield(suite)
	}
}

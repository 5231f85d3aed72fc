package layout

import "strings"

// The matcher before issue 23 (backtracking: exponential in a segment's
// stars), kept as the reference the linear matcher must agree with.

func refMatchPath(pattern, path string) (string, bool) { return matchSegs(pattern, path, "") }

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

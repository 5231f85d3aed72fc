package checks

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// A textRE is a relation's text regexp with the literals every match
// contains: a file lacking one of them has no match, which bytes.Contains
// finds much faster than the regexp (most files lack the literal: ct.bid(0)
// in a Julia kernel, an op's name in another op's files).
type textRE struct {
	re *regexp.Regexp
	// need holds, for each clause, strings of which a match contains at
	// least one (one string: that string).
	need [][]string
}

// compileTextRE compiles a text regexp and finds its literals.
func compileTextRE(src string) (*textRE, error) {
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, err
	}
	t := &textRE{re: re}
	// The same flags as regexp.Compile's.
	if tree, err := syntax.Parse(src, syntax.Perl); err == nil {
		t.need = requiredLiterals(tree.Simplify())
	}
	return t, nil
}

// mayMatch reports whether data holds every clause's literal (else the
// regexp cannot match it).
func (t *textRE) mayMatch(data []byte) bool {
	for _, clause := range t.need {
		found := false
		for _, s := range clause {
			if bytes.Contains(data, []byte(s)) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// requiredLiterals returns clauses of literals that every match of re
// contains: each clause's strings are alternatives, one of which is in
// the match. Case-folded literals and those holding U+FFFD (which the
// matcher also sees for an invalid byte) give none; nil: nothing known.
func requiredLiterals(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		s := string(re.Rune)
		if s == "" || strings.ContainsRune(s, utf8.RuneError) {
			return nil
		}
		return [][]string{{s}}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		// Adjacent literals make one longer literal.
		var out [][]string
		var run []rune
		flush := func() {
			if len(run) > 0 {
				out = append(out, requiredLiterals(&syntax.Regexp{Op: syntax.OpLiteral, Rune: run})...)
				run = nil
			}
		}
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpLiteral && sub.Flags&syntax.FoldCase == 0 {
				run = append(run, sub.Rune...)
				continue
			}
			flush()
			out = append(out, requiredLiterals(sub)...)
		}
		flush()
		return out
	case syntax.OpAlternate:
		// Each branch's longest single literal; every branch needs one.
		var clause []string
		for _, sub := range re.Sub {
			best := ""
			for _, c := range requiredLiterals(sub) {
				if len(c) == 1 && len(c[0]) > len(best) {
					best = c[0]
				}
			}
			if best == "" {
				return nil
			}
			clause = append(clause, best)
		}
		return [][]string{clause}
	}
	return nil
}

package load

// The reference implementations the fast paths of this package are compared
// with (export_test.go): plain scans, kept beside the tests that use them so
// production code has one algorithm per job.

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// quotedNames returns the names of the related ops between double and
// single quotes: hasQuoted's reference.
func (nd *needs) quotedNames() [][]byte {
	var out [][]byte
	for name := range nd.names {
		out = append(out, []byte(`"`+name+`"`), []byte(`'`+name+`'`))
	}
	return out
}

// findRef is WordSet.Find as a plain scan: every word of the set tried
// against every run (and, in a run with non-ASCII bytes, inside its NFKC
// form).
func findRef(ws WordSet, src []byte) map[string]bool {
	found := map[string]bool{}
	for i := 0; i < len(src); {
		if !wordByte[src[i]] {
			i++
			continue
		}
		j := i
		for j < len(src) && wordByte[src[j]] {
			j++
		}
		run := string(src[i:j])
		nw := norm.NFKC.String(run)
		for w := range ws {
			if w == run || !isASCII(run) && strings.Contains(nw, w) {
				found[w] = true
			}
		}
		i = j
	}
	return found
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// stepRef is needs.step as a plain scan over every target of the scopes
// the path is a test or benchmark of.
func (nd *needs) stepRef(p string, src []byte) bool {
	tests, benchmarks := nd.tests.Match(p), nd.benchmarks.Match(p)
	is := map[int]bool{}
	isTest := map[int]bool{}
	for _, i := range tests {
		is[i], isTest[i] = true, true
	}
	for _, i := range benchmarks {
		is[i] = true
	}
	for i, sw := range nd.uses {
		if !is[i] {
			continue
		}
		found := findRef(sw.words, src)
		var qs []string
		for _, t := range sw.targets {
			if strings.Contains(p, t.last) {
				return true
			}
			if (isTest[i] || !t.testsOnly) && found[t.last] {
				qs = append(qs, t.q)
			}
		}
		if len(qs) > 0 && mayUse(p, src, qs) {
			return true
		}
	}
	return false
}

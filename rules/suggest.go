package rules

import "strings"

// Closest returns the candidate nearest to name, to suggest when name is
// not known ("did you mean ...?"), or "" when none is near enough: at most
// a third of name's length in edits (insertions, deletions, substitutions,
// swaps of neighbours; case ignored), or name as a suffix of a dotted
// candidate ("softmax" for "liger.softmax"). Ties go to the candidate
// first in sorted order, so the answer does not depend on the order given.
func Closest(name string, candidates []string) string {
	best, bestDist := "", -1
	limit := max(1, len([]rune(name))/3)
	lname := strings.ToLower(name)
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := editDistance(lname, strings.ToLower(c))
		if strings.HasSuffix(c, "."+name) {
			d = min(d, 1)
		}
		if d > limit {
			continue
		}
		if bestDist < 0 || d < bestDist || d == bestDist && c < best {
			best, bestDist = c, d
		}
	}
	return best
}

// DidYouMean returns "; did you mean X?" for Closest's answer, or "".
func DidYouMean(name string, candidates []string) string {
	if c := Closest(name, candidates); c != "" {
		return "; did you mean " + quoteIfNeeded(c) + "?"
	}
	return ""
}

func quoteIfNeeded(s string) string {
	return `"` + s + `"`
}

// editDistance is the optimal string alignment distance of a and b, in
// runes: Levenshtein's with a swap of two neighbours counted as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

package optable

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// levenshtein is the textbook table, the reference for EditDistance.
func levenshtein(a, b string) int {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
		t[i][0] = i
	}
	for j := range t[0] {
		t[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			t[i][j] = min(t[i-1][j]+1, t[i][j-1]+1, t[i-1][j-1]+cost)
		}
	}
	return t[len(a)][len(b)]
}

// Closest and EditDistance agree with the full table: the nearest
// candidate within max(2, len/5), ties to the smallest name.
func TestClosestMatchesFullTable(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	word := func() string {
		b := make([]byte, rng.Intn(14))
		for i := range b {
			b[i] = "abc_."[rng.Intn(5)]
		}
		return string(b)
	}
	for n := 0; n < 2000; n++ {
		s := word()
		var cands []string
		for k := rng.Intn(8); k > 0; k-- {
			cands = append(cands, word())
		}
		want, wantD := "", -1
		for _, c := range cands {
			if d := levenshtein(s, c); wantD < 0 || d < wantD || d == wantD && c < want {
				want, wantD = c, d
			}
			if d, ref := EditDistance(s, c), levenshtein(s, c); d != ref {
				t.Fatalf("EditDistance(%q, %q) = %d, want %d", s, c, d, ref)
			}
		}
		if wantD < 0 || wantD > max(2, len(s)/5) {
			want = ""
		}
		if got := Closest(s, cands); got != want {
			t.Fatalf("Closest(%q, %q) = %q, want %q", s, cands, got, want)
		}
	}
}

// Closest runs once per name that matches nothing, against every name of
// the repository: it allocates nothing per candidate.
func TestClosestAllocations(t *testing.T) {
	var names []string
	for i := 0; i < 1000; i++ {
		names = append(names, fmt.Sprintf("suite_%d.op_%d", i%7, i))
	}
	if a := testing.AllocsPerRun(10, func() { Closest("suite_3.op_77x", names) }); a > 1 {
		t.Errorf("closest over %d names: %v allocations", len(names), a)
	}
}

// The banded table answers the full table's distance when it is within
// the limit, and limit+1 otherwise, for every limit.
func TestEditDistanceWithinBand(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	word := func() string {
		b := make([]byte, rng.Intn(30))
		for i := range b {
			b[i] = "ab_"[rng.Intn(3)]
		}
		return string(b)
	}
	for n := 0; n < 5000; n++ {
		a, b, limit := word(), word(), rng.Intn(12)
		want := min(levenshtein(a, b), limit+1)
		if d, _ := editDistanceWithin(a, b, limit, nil); d != want {
			t.Fatalf("editDistanceWithin(%q, %q, %d) = %d, want %d", a, b, limit, d, want)
		}
	}
}

// hostileNames returns n names of length size that share a long prefix
// and differ in a few bytes: each is measured to many rows against each.
func hostileNames(n, size int) []string {
	var names []string
	for i := 0; i < n; i++ {
		s := fmt.Sprintf("_%d", i)
		names = append(names, strings.Repeat("a", size-len(s))+s)
	}
	return names
}

// A repository of many long names that match nothing costs a bounded
// number of table cells per Suggester (before the bound, 2000 names of
// 4 KB, each against all, took minutes), and a long name is neither
// answered nor suggested.
func TestSuggesterWorkIsBounded(t *testing.T) {
	for _, size := range []int{40, 64, 4096} {
		names := hostileNames(2000, size)
		sg := NewSuggester()
		for _, s := range names {
			sg.Closest("b"+s[1:], names)
		}
		if sg.spent > suggesterBudget {
			t.Errorf("names of %d bytes: %d cells, want at most %d", size, sg.spent, suggesterBudget)
		}
		if size > MaxSuggestLen && sg.spent != 0 {
			t.Errorf("names of %d bytes: %d cells measured, want none", size, sg.spent)
		}
	}
	long := strings.Repeat("b", MaxSuggestLen+1)
	if c := Closest(long+"x", []string{long}); c != "" {
		t.Errorf("a name over %d bytes got the suggestion %q", MaxSuggestLen, c)
	}
	// One call alone stays within its own budget, and a near name of an
	// ordinary repository is still found.
	names := hostileNames(100000, 60)
	if c := Closest(names[7]+"x", names[:20]); c != names[7] {
		t.Errorf("Closest = %q, want %q", c, names[7])
	}
	sg := Suggester{limit: closestBudget}
	sg.Closest(names[0]+"x", names)
	if sg.spent > closestBudget {
		t.Errorf("one call over %d names: %d cells, want at most %d", len(names), sg.spent, closestBudget)
	}
}

// BenchmarkSuggesterHostile measures a check's suggestions over 2000
// names of MaxSuggestLen bytes that all nearly match.
func BenchmarkSuggesterHostile(b *testing.B) {
	names := hostileNames(2000, MaxSuggestLen)
	for i := 0; i < b.N; i++ {
		sg := NewSuggester()
		for _, s := range names {
			sg.Closest("b"+s[1:], names)
		}
	}
}

func TestEditDistanceClosest(t *testing.T) {
	if d := EditDistance("sofmax", "softmax"); d != 1 {
		t.Errorf("editDistance = %d", d)
	}
	if c := Closest("sofmax", []string{"relu", "softmax", "matmul"}); c != "softmax" {
		t.Errorf("closest = %q", c)
	}
	if c := Closest("completely_different", []string{"relu"}); c != "" {
		t.Errorf("closest of a far name = %q", c)
	}
}

package optable

import (
	"fmt"
	"math/rand"
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

// closest and editDistance agree with the full table: the nearest
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

// closest runs once per name that matches nothing, against every name of
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

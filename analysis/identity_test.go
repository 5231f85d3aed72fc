package analysis

import (
	"slices"
	"strings"
	"testing"
)

// TestKnownMatch: the same identity first, then what is left by rule, op
// and file, as many as are left; what nothing matched is left.
func TestKnownMatch(t *testing.T) {
	id := func(rule, fp string) Identity {
		return Identity{Rule: rule, Op: "softmax", File: "t.py", Fingerprint: fp}
	}
	k := NewKnown()
	k.Add(id("TG405", "a"), 1)
	k.Add(id("TG405", "b"), 1)
	k.Add(id("TG510", "c"), 2)
	// b is found again; a's code changed (x); a third TG405 (y) is new;
	// one TG510 is gone.
	got := k.Match([]Identity{id("TG405", "x"), id("TG405", "b"), id("TG405", "y"), id("TG510", "c")})
	if want := []bool{true, true, false, true}; !slices.Equal(got, want) {
		t.Errorf("matched %v, want %v", got, want)
	}
	left, counts := k.Left()
	if len(left) != 1 || left[0] != id("TG510", "c") || counts[0] != 1 {
		t.Errorf("left %v %v, want one TG510 c", left, counts)
	}
}

// TestFingerprint: spaces and indentation do not matter, the text does;
// Line gives a line without its end.
func TestFingerprint(t *testing.T) {
	if Fingerprint("    def test_op(self,  m):\r") != Fingerprint("def test_op(self, m):") {
		t.Error("indentation or spacing changed the fingerprint")
	}
	if Fingerprint("def test_op(self, m):") == Fingerprint("def test_op(self, n):") {
		t.Error("different text, same fingerprint")
	}
	src := "a\r\nb\n\nc"
	for n, want := range []string{"", "a", "b", "", "c", ""} {
		if got := NewLines(src).Line(n); got != want {
			t.Errorf("Line(%d) = %q, want %q", n, got, want)
		}
	}
}

// lineScan is the reference Lines.Line is checked against: a scan from the
// start of the text for each line.
func lineScan(src string, n int) string {
	if n < 1 {
		return ""
	}
	for ; n > 1; n-- {
		i := strings.IndexByte(src, '\n')
		if i < 0 {
			return ""
		}
		src = src[i+1:]
	}
	if i := strings.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	return strings.TrimSuffix(src, "\r")
}

func TestLinesMatchesScan(t *testing.T) {
	for _, src := range []string{"", "\n", "a", "a\n", "a\r\n\r\nb\r", "x\ny\n\nz\n\n", "\r\r\n\n\r"} {
		l := NewLines(src)
		for n := -1; n < 8; n++ {
			if got, want := l.Line(n), lineScan(src, n); got != want {
				t.Errorf("NewLines(%q).Line(%d) = %q, want %q", src, n, got, want)
			}
		}
	}
}

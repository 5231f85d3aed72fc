package rules

import "testing"

func TestClosest(t *testing.T) {
	cands := []string{"disable", "severity", "exclude", "exclude-ops", "layout", "skip", "liger.softmax", "softmax"}
	for _, tt := range []struct{ name, want string }{
		{"disabel", "disable"}, // swap
		{"exlude", "exclude"},  // deletion
		{"exclude-op", "exclude-ops"},
		{"Severity", "severity"}, // case
		{"frobnicate", ""},       // nothing near
		{"sofmax", "softmax"},
		{"x", ""},
		{"disable", ""}, // itself is not a suggestion
	} {
		if got := Closest(tt.name, cands); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := Closest("jsd", []string{"liger.jsd", "liger.tvd"}); got != "liger.jsd" {
		t.Errorf("suffix: %q", got)
	}
	// Ties: the first in sorted order, whatever the order given.
	if a, b := Closest("ab", []string{"ac", "aa"}), Closest("ab", []string{"aa", "ac"}); a != "aa" || b != "aa" {
		t.Errorf("tie: %q %q", a, b)
	}
	if got := DidYouMean("disabel", cands); got != `; did you mean "disable"?` {
		t.Errorf("DidYouMean = %q", got)
	}
}

package ast

import "testing"

func TestIsIdentifier(t *testing.T) {
	for s, want := range map[string]bool{
		"softmax": true, "_x1": true, "Softmax": true,
		"": false, "1x": false, "soft max": false, "softmax;import evil": false, "a.b": false,
		"x\"": false, "class": false, "None": false, "nonlocal": false, "héllo": false,
	} {
		if got := IsIdentifier(s); got != want {
			t.Errorf("IsIdentifier(%q) = %v, want %v", s, got, want)
		}
	}
}

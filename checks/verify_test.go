package checks

import (
	"os/exec"
	"testing"
)

// TestShellQuote: a quoted word, read by sh, is the word.
func TestShellQuote(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, w := range []string{"plain/path.py", "", "a b", "it's", "$(touch x)", "`x`", "a;b", "\"q\"", "new\nline", "*", "-v"} {
		out, err := exec.Command("sh", "-c", "printf %s "+shellQuote(w)).Output()
		if err != nil || string(out) != w {
			t.Errorf("shellQuote(%q) = %s: the shell reads %q (%v)", w, shellQuote(w), out, err)
		}
	}
}

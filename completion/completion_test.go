package completion

import (
	"strings"
	"testing"
)

// TestScript: each script completes the flags, formats and rule ids it is
// given, and knows which flags take files; an unknown shell is an error.
func TestScript(t *testing.T) {
	s := Spec{
		Subcommands: []string{"rules"},
		Flags:       []Flag{{Name: "config", Usage: "the [config] file"}, {Name: "fix", Usage: "apply: fixes", Bool: true}},
		FileFlags:   map[string]bool{"config": true},
		Formats:     []string{"text", "json"},
		Rules:       []string{"K01", "TG101"},
	}
	b, err := Script("bash", s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`local flags="--config --fix"`, `local rules="K01 TG101"`, `local formats="text json"`, "    --config)\n        COMPREPLY=($(compgen -f", `compgen -W "rules"`} {
		if !strings.Contains(b, want) {
			t.Errorf("bash script lacks %q", want)
		}
	}
	z, err := Script("zsh", s)
	if err != nil {
		t.Fatal(err)
	}
	// zsh's _arguments specs: a file flag completes files, a boolean takes
	// no value, and brackets and colons in a usage cannot end the spec.
	for _, want := range []string{"'--config=[the (config) file]:file:_files'", "'--fix[apply  fixes]'", "rules=(K01 TG101)"} {
		if !strings.Contains(z, want) {
			t.Errorf("zsh script lacks %q", want)
		}
	}
	if _, err := Script("fish", s); err == nil || !strings.Contains(err.Error(), "want bash or zsh") {
		t.Errorf("fish: %v", err)
	}
}

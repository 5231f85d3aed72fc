package fixtureset

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestParseWants(t *testing.T) {
	ws, err := ParseWants("a.py", []byte("x = 1\ndef f(  # want: TG104 \"accept \\*\\*kwargs\" TG106 \"no \\\"doc\\\"string\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 2 || ws[0].Rule != "TG104" || ws[0].Line != 2 || ws[1].Rule != "TG106" {
		t.Fatalf("%v", ws)
	}
	if !ws[0].Re.MatchString("f must accept **kwargs") || !ws[1].Re.MatchString(`no "doc"string`) {
		t.Errorf("%v", ws)
	}
	// A rule of another family: its prefix and two digits.
	if ws, err := ParseWants("k.py", []byte(`y = ct.sigmoid(x)  # want: K01 "no sigmoid"`)); err != nil || len(ws) != 1 || ws[0].Rule != "K01" {
		t.Errorf("K01: %v, %v", ws, err)
	}
	for _, bad := range []string{
		"# want: TG104",             // no regexp: the wording must be tested
		`# want: TG104 "a" TG105`,   // the same, after a pair
		"# want:",                   // no rule
		`# want: "a"`,               // no rule
		`# want: TG104 "unclosed`,   // unterminated
		`# want: TG104 ""`,          // empty
		`# want: TG104 "(" `,        // bad regexp
		`# want: tg104 "lowercase"`, // not a rule ID
		`# want: K1 "one digit"`,    // not a rule ID
		`# want: KKKK01 "long"`,     // not a rule ID
	} {
		if _, err := ParseWants("a.py", []byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestArchiveRoundTrip(t *testing.T) {
	ar := &Archive{Comment: []byte("c\n"), Files: []File{{Name: "a", Data: []byte("x\n-- not a marker\n")}, {Name: "e"}, {Name: "b/c", Data: []byte("y\n")}}}
	data, err := Format(ar)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Format(back)
	if !bytes.Equal(data, again) || len(back.Files) != 3 || string(back.Files[0].Data) != "x\n-- not a marker\n" || len(back.Files[1].Data) != 0 {
		t.Errorf("round trip:\n%s\n%s", data, again)
	}
	for _, bad := range []File{{Name: "a", Data: []byte("no newline")}, {Name: "a", Data: []byte("-- b --\n")}} {
		if _, err := Format(&Archive{Files: []File{bad}}); err == nil {
			t.Errorf("%q: no error", bad.Data)
		}
	}
}

// TestOverlaysAreSmall checks that every overlay holds only what differs
// from its base: no file identical to the base's, no deletion of a file the
// base lacks, and names no fixture that does not exist.
func TestOverlaysAreSmall(t *testing.T) {
	all, err := List()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range all {
		if f.Overlay == "" {
			continue
		}
		n++
		data, err := os.ReadFile(f.Overlay)
		if err != nil {
			t.Fatal(err)
		}
		ar, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f.Overlay, err)
		}
		baseName := Base
		for _, s := range ar.Files {
			if s.Name == BaseSection {
				baseName = strings.TrimSpace(string(s.Data))
			}
		}
		bf, err := Lookup(baseName)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		base, err := bf.Files()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ar.Files {
			if b, ok := base[s.Name]; ok && bytes.Equal(b, s.Data) {
				t.Errorf("%s: %s is the same as in %s; leave it out", f.Name, s.Name, baseName)
			}
		}
		if _, err := f.Files(); err != nil {
			t.Error(err)
		}
	}
	if n == 0 {
		t.Fatal("no overlays")
	}
}

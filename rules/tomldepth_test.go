package rules

import (
	"strings"
	"testing"
)

// A TOML file nested a million deep (arrays, inline tables, a dotted key)
// is an error naming the line, not a stack overflow in the decoder; the
// usual shapes, floats in a long array included, still decode.
func TestParseTOMLBoundsNesting(t *testing.T) {
	const n = 1 << 20
	for name, data := range map[string]string{
		"arrays":        "x = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n",
		"inline tables": "x = " + strings.Repeat("{a = ", n) + "1" + strings.Repeat("}", n) + "\n",
		"dotted key":    strings.Repeat("a.", n) + "b = 1\n",
		"header":        "[" + strings.Repeat("a.", n) + "b]\n",
	} {
		_, _, err := ParseTOML([]byte("ok = 1\n"+data), "c.toml")
		if err == nil || !strings.Contains(err.Error(), "c.toml:2: invalid TOML") || !strings.Contains(err.Error(), "deep") {
			t.Errorf("%s: error %v", name, err)
		}
	}
	ok := "x = [" + strings.Repeat("1.5, ", 200) + "2.5]\ns = \"" + strings.Repeat("[{.", 100) + "\"\n# " + strings.Repeat("[", 100) + "\n[a.b]\nc = [[1], [2]]\n"
	if _, _, err := ParseTOML([]byte(ok), "c.toml"); err != nil {
		t.Errorf("an ordinary file: %v", err)
	}
}

// A decoder error quoting the file is bounded and escaped: a secret's
// start or a terminal escape is not echoed whole.
func TestParseTOMLErrorIsBounded(t *testing.T) {
	_, _, err := ParseTOML([]byte("SECRET_TOKEN="+strings.Repeat("x", 5000)+"\x1b[31m\n"), "c.toml")
	if err == nil {
		t.Fatal("no error")
	}
	if msg := err.Error(); len(msg) > 300 || strings.Contains(msg, "\x1b") {
		t.Errorf("message of %d bytes: %q", len(msg), msg)
	}
}

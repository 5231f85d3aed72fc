package checks

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSrcLines(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"", []string{""}},
		{"a", []string{"a"}},
		{"a\n", []string{"a", ""}},
		{"a\nb", []string{"a", "b"}},
		{"\n\n", []string{"", "", ""}},
		{"\xef\xbb\xbfx = 1\ny\n", []string{"x = 1", "y", ""}},
		{"a\r\nb\rc\nd", []string{"a", "b", "c", "d"}},
		{"a\r\r\nb\r", []string{"a", "", "b", ""}},
		{"\xef\xbb\xbf\r\n", []string{"", ""}},
	} {
		if got := srcLines(c.src); !cmp.Equal(got, c.want) {
			t.Errorf("srcLines(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

// TestSrcLinesNewlineOnly compares the path of a source whose lines all
// end in "\n" with the one for any line end.
func TestSrcLinesNewlineOnly(t *testing.T) {
	for _, src := range []string{"", "\n", "x", "def f():\n    return 1\n", "a\n\nb\n\n\n", strings.Repeat("y = 2  # é\n", 50) + "z"} {
		if got, want := srcLines(src), splitLineEnds(src); !cmp.Equal(got, want) {
			t.Errorf("srcLines(%q) = %q, splitLineEnds: %q", src, got, want)
		}
	}
}

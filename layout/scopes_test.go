package layout

import "testing"

// TestUnderDir: a path is under a directory when it starts with the
// directory and a slash (the directory may end with one).
func TestUnderDir(t *testing.T) {
	for _, c := range []struct {
		dir, p string
		want   bool
	}{
		{"a/b", "a/b/c.py", true}, {"a/b/", "a/b/c.py", true}, {"a/b", "a/b/", true},
		{"a/b", "a/bc/d.py", false}, {"a/b", "a/b", false}, {"", "a.py", false}, {"/", "/a.py", false},
		{"a/b", "x/a/b/c.py", false},
	} {
		if got := UnderDir(c.dir, c.p); got != c.want {
			t.Errorf("UnderDir(%q, %q) = %v, want %v", c.dir, c.p, got, c.want)
		}
	}
}

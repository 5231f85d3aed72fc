package fix

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hunksOf drops the two header lines of a unified diff.
func hunksOf(d string) string {
	lines := strings.SplitAfterN(d, "\n", 3)
	if len(lines) < 3 {
		return ""
	}
	return lines[2]
}

// gnuDiff runs diff -u (with extra flags) on two files holding a and b.
func gnuDiff(t *testing.T, dir string, a, b []byte, flags ...string) string {
	t.Helper()
	pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(pa, a, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pb, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("diff", append(append([]string{"-u"}, flags...), pa, pb)...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("diff: %v", err)
		}
	}
	return string(out)
}

func TestUnifiedDiffEqual(t *testing.T) {
	if d := UnifiedDiff("x.py", []byte("a\nb\n"), []byte("a\nb\n")); d != "" {
		t.Fatalf("equal contents gave a diff:\n%s", d)
	}
}

func TestUnifiedDiffHeaders(t *testing.T) {
	d := UnifiedDiff("src/x.py", []byte("a\n"), []byte("b\n"))
	want := "--- a/src/x.py\n+++ b/src/x.py\n@@ -1 +1 @@\n-a\n+b\n"
	if d != want {
		t.Fatalf("got\n%q\nwant\n%q", d, want)
	}
	d = UnifiedDiff("new.py", nil, []byte("x\ny\n"))
	want = "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,2 @@\n+x\n+y\n"
	if d != want {
		t.Fatalf("got\n%q\nwant\n%q", d, want)
	}
}

// Cases whose shortest diff is unique: the output must be byte for byte
// what diff -u prints (after its headers).
func TestUnifiedDiffMatchesGNUDiff(t *testing.T) {
	if _, err := exec.LookPath("diff"); err != nil {
		t.Skip("no diff")
	}
	many := func(n int, f func(i int) string) string {
		var sb strings.Builder
		for i := 0; i < n; i++ {
			sb.WriteString(f(i))
		}
		return sb.String()
	}
	num := func(i int) string { return string(rune('a'+i%26)) + strings.Repeat("x", i/26) + "\n" }
	cases := []struct{ name, a, b string }{
		{"insert-middle", "a\nb\nc\n", "a\nb\nX\nc\n"},
		{"delete-first", "a\nb\nc\n", "b\nc\n"},
		{"delete-last", "a\nb\nc\n", "a\nb\n"},
		{"replace", "a\nb\nc\nd\n", "a\nB\nc\nd\n"},
		{"no-newline-old", "a\nb", "a\nb\n"},
		{"no-newline-new", "a\nb\n", "a\nb"},
		{"no-newline-both-changed", "a\nb", "a\nc"},
		{"no-newline-context", "a\nb\nc", "A\nb\nc"},
		{"empty-to-some", "", "a\nb\n"},
		{"some-to-empty", "a\nb\n", ""},
		{"crlf", "a\r\nb\r\nc\r\n", "a\r\nb\r\nX\r\nc\r\n"},
		{"line-end-changed", "a\nb\nc\n", "a\nb\r\nc\n"},
		{"two-hunks", many(40, num), strings.Replace(strings.Replace(many(40, num), "c\n", "C\n", 1), "nx\n", "NX\n", 1)},
		{"merged-hunks-gap-6", many(20, num), strings.Replace(strings.Replace(many(20, num), "c\n", "C\n", 1), "j\n", "J\n", 1)},
		{"split-hunks-gap-7", many(20, num), strings.Replace(strings.Replace(many(20, num), "c\n", "C\n", 1), "k\n", "K\n", 1)},
		{"utf8-tab", "\tdef f():\n\t\treturn 'é'\n", "\tdef f():\n\t\treturn 'è'\n"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		got := hunksOf(UnifiedDiff("f", []byte(c.a), []byte(c.b)))
		want := hunksOf(gnuDiff(t, dir, []byte(c.a), []byte(c.b)))
		if got != want {
			t.Errorf("%s: got\n%s\nwant (diff -u)\n%s", c.name, got, want)
		}
	}
}

// Random cases: where several shortest diffs exist the output may differ
// from diff's, but it must patch a into b and be as short as diff -d's.
func TestUnifiedDiffRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("random cases; skipped with -short")
	}
	if _, err := exec.LookPath("diff"); err != nil {
		t.Skip("no diff")
	}
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("no patch")
	}
	rng := rand.New(rand.NewSource(1))
	dir := t.TempDir()
	alphabet := []string{"a\n", "b\n", "c\n", "d\n", "a\r\n", "\n", "é\n", "\tx\n"}
	gen := func() []byte {
		var b bytes.Buffer
		n := rng.Intn(25)
		for i := 0; i < n; i++ {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		if b.Len() > 0 && rng.Intn(4) == 0 {
			b.Truncate(b.Len() - 1) // no newline at end of file
			if b.Len() > 0 && b.Bytes()[b.Len()-1] == '\r' {
				b.Truncate(b.Len() - 1)
			}
		}
		return b.Bytes()
	}
	count := func(d string) int {
		n := 0
		for _, l := range strings.Split(d, "\n") {
			if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---") {
				n++
			}
		}
		return n
	}
	for i := 0; i < 300; i++ {
		a := gen()
		b := gen()
		if rng.Intn(3) == 0 {
			// a small edit of a
			b = append(append(append([]byte(nil), a[:len(a)/2]...), gen()[:0]...), a[len(a)/2:]...)
			b = append([]byte("new\n"), b...)
		}
		d := UnifiedDiff("f", a, b)
		if bytes.Equal(a, b) {
			if d != "" {
				t.Fatalf("case %d: equal but diff", i)
			}
			continue
		}
		// patch a into b
		pa := filepath.Join(dir, "f")
		if err := os.WriteFile(pa, a, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("patch", "--quiet", "--binary", "-p1", "-d", dir)
		cmd.Stdin = strings.NewReader(d)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch failed: %v\n%s\na=%q\nb=%q\ndiff:\n%s", i, err, out, a, b, d)
		}
		got, err := os.ReadFile(pa)
		if err != nil && !(len(b) == 0 && os.IsNotExist(err)) { // patch removes a file it empties
			t.Fatal(err)
		}
		if !bytes.Equal(got, b) {
			t.Fatalf("case %d: patched a is %q, want %q\ndiff:\n%s", i, got, b, d)
		}
		if g, w := count(d), count(gnuDiff(t, dir, a, b, "-d")); g != w {
			t.Fatalf("case %d: %d changed lines, diff -d has %d\na=%q\nb=%q\n%s", i, g, w, a, b, d)
		}
	}
}

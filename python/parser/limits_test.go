package parser

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// TestDepthLimits checks that the nesting limits agree with CPython 3.11's
// parser stack limit: the largest accepted n for each shape was measured
// with ast.parse.
func TestDepthLimits(t *testing.T) {
	r := strings.Repeat
	cases := []struct {
		name string
		want int
		f    func(int) string
	}{
		{"minus", 2985, func(n int) string { return "x = " + r("-", n) + "1\n" }},
		{"not", 2985, func(n int) string { return "x = " + r("not ", n) + "1\n" }},
		{"lambda", 2983, func(n int) string { return "x = " + r("lambda: ", n) + "1\n" }},
		{"ifexp", 2985, func(n int) string { return "x = " + r("a if b else ", n) + "1\n" }},
		{"pow", 2983, func(n int) string { return "x = " + r("a ** ", n) + "1\n" }},
		{"stmt", 2985, func(n int) string { return r("-", n) + "1" }},
		{"call", 2984, func(n int) string { return "f(" + r("-", n) + "1)" }},
		{"list", 2984, func(n int) string { return "x = [" + r("-", n) + "1]" }},
		{"def", 2984, func(n int) string { return "def f():\n    x = " + r("-", n) + "1" }},
		{"def2", 2983, func(n int) string { return "def f():\n    if x:\n        y = " + r("-", n) + "1" }},
		{"fstr", 2983, func(n int) string { return "x = f'{" + r("-", n) + "1}'" }},
		{"ret", 2984, func(n int) string { return "def f():\n    return " + r("-", n) + "1" }},
		{"sub", 2984, func(n int) string { return "x[" + r("-", n) + "1]" }},
		{"attr", 2984, func(n int) string { return "x = (" + r("-", n) + "1).a" }},
		{"lambda2", 2982, func(n int) string { return "f(" + r("lambda: ", n) + "1)" }},
		{"notcall", 2984, func(n int) string { return "f(" + r("not ", n) + "1)" }},
	}
	for _, c := range cases {
		lo, hi := c.want-50, c.want+50
		for lo < hi {
			m := (lo + hi + 1) / 2
			if _, err := ParseFile("x.py", []byte(c.f(m))); err == nil {
				lo = m
			} else {
				hi = m - 1
			}
		}
		if lo != c.want {
			t.Errorf("%s: largest accepted nesting %d, CPython 3.11 accepts %d", c.name, lo, c.want)
		}
	}
}

// A file denser in tokens than the buffer's estimate (numbers in long
// lists: a token per two bytes) grows the buffer by doubling: tokenizing
// it allocates about twice the final buffer, not the four or five times
// that growing by a quarter (append's rule for large slices) copies.
func TestTokenBufferGrowsByDoubling(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "x%d = [%s]\n", i, strings.Repeat("1, ", 40))
	}
	src := []byte(b.String())
	tz := &tokenizer{filename: "dense.py", src: src, srcStr: b.String(), toks: make([]token, 0, len(src)/5+16)}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	if _, te := tokenizeFile(tz, &tokScratch{}); te != nil {
		t.Fatal(te)
	}
	runtime.ReadMemStats(&m1)
	final := uint64(len(tz.toks)) * uint64(unsafe.Sizeof(token{}))
	if got := m1.TotalAlloc - m0.TotalAlloc; got > 3*final {
		t.Errorf("tokenizing %d tokens allocated %d bytes, %.1f times the final buffer", len(tz.toks), got, float64(got)/float64(final))
	}
}

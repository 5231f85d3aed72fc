package parser

import (
	"testing"

	"github.com/tilegym/tilegym-lint/python/ast"
)

// TestScratchHoldsNoTree checks that the scratch buffers recycled between
// parses keep no pointer into a finished tree or its source.
func TestScratchHoldsNoTree(t *testing.T) {
	src := "# c1\nimport os  # c2\ndef f(a, b=1, *c, **d):\n    return g(a, *c, k=b, **d)\nx = [f(1, 2), f'{x!r:>{w}}', {1: 2}]\n"
	for i := 0; i < 3; i++ {
		if _, err := ParseFile("t.py", []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	// Bailouts in the middle of lists, calls, with items and comments.
	for _, bad := range []string{
		"# c\nf(a, k=1, (b, c, [d, e, *]))\n",
		"with (open(x, k=[1, 2]) as f, g(1, 2, 3 +)): pass\n",
		"x = (1, 2, f(3, *y, z=4)\n# open\n",
		"def f():\n    return [a, b, (c, d, e) ++]\n",
	} {
		if _, err := ParseFile("bad.py", []byte(bad)); err == nil {
			t.Fatalf("%q parsed", bad)
		}
	}
	n := 0
	for {
		var s *scratch
		select {
		case s = <-scratches:
		default:
		}
		if s == nil {
			break
		}
		n++
		for _, e := range s.exprStack[:cap(s.exprStack)] {
			if e != nil {
				t.Errorf("exprStack holds %T", e)
			}
		}
		for _, st := range s.stmtStack[:cap(s.stmtStack)] {
			if st != nil {
				t.Errorf("stmtStack holds %T", st)
			}
		}
		for _, k := range s.kwStack[:cap(s.kwStack)] {
			if k != nil {
				t.Errorf("kwStack holds a keyword")
			}
		}
		for _, c := range s.comments[:cap(s.comments)] {
			if c != (ast.Comment{}) {
				t.Errorf("comments holds %q", c.Text)
			}
		}
	}
	if n == 0 {
		t.Fatal("no scratch was recycled")
	}
}

// TestFStringColumnsAfterShift checks the column shift of f-string fields
// (applied after tokenizing) on a field that starts mid-line and one that
// spans lines.
func TestFStringColumnsAfterShift(t *testing.T) {
	f, err := ParseFile("t.py", []byte("x = f'ab{yy + 1}c'\nz = f'''\n{ww\n+ v}'''\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []ast.Attrs
	for _, s := range f.Module.Body {
		ast.Inspect(s, func(n ast.Node) bool {
			if nm, ok := n.(*ast.Name); ok && nm.Id != "x" && nm.Id != "z" {
				got = append(got, nm.Attrs)
			}
			return true
		})
	}
	at := func(l, c, el, ec int32) ast.Attrs {
		return ast.Attrs{Lineno: l, ColOffset: c, EndLineno: el, EndColOffset: ec}
	}
	want := []ast.Attrs{at(1, 9, 1, 11), at(3, 1, 3, 3), at(4, 2, 4, 3)}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("name %d: got %v, want %v", i, got[i], want[i])
		}
	}
}

// TestKeywordMask checks that keywordList holds every keyword (one string
// per keyword kind) and that the length mask lets each through.
func TestKeywordMask(t *testing.T) {
	seen := map[tokKind]bool{}
	for _, k := range keywordList {
		kind := keywordKind([]byte(k))
		if kind == tName {
			t.Errorf("%q is not a keyword", k)
		}
		seen[kind] = true
		if n := len(k); n > 8 || keywordLens[k[0]]&(1<<n) == 0 {
			t.Errorf("mask rejects %q", k)
		}
	}
	if want := int(kwYield-kwFalse) + 1; len(seen) != want {
		t.Errorf("keywordList has %d keyword kinds, want %d", len(seen), want)
	}
}

// presizeOf returns the arena presize gives src.
func presizeOf(t *testing.T, src string) *arena {
	t.Helper()
	tz := &tokenizer{filename: "t.py", src: []byte(src), srcStr: src}
	ar := &arena{scratch: getScratch()}
	defer putScratch(ar.scratch)
	if _, err := tokenizeFile(tz, &ar.tokScratch); err != nil {
		t.Fatal(err)
	}
	ar.presize(tz.toks)
	return ar
}

// The slabs are sized from the tokens so that little room is left unused
// at the end of a file (a tree lives as long as the check): a name after
// a comma or an operator outside a def's parameters is not a parameter,
// and expression statements are counted.
func TestPresizeEstimates(t *testing.T) {
	src := "\"\"\"doc\"\"\"\na, b = f(x) * y, z ** w\nprint(a, b)\nc += 1\nd: int = 2\nf(*a)\nawait g()\nx[0] = 1\n"
	ar := presizeOf(t, src)
	if n := len(ar.argSlab.buf); n != 0 {
		t.Errorf("%d parameters reserved in a file without a def", n)
	}
	// The docstring, print(...), f(*a), await g().
	if n := len(ar.exprStmts.buf); n != 4 {
		t.Errorf("%d expression statements reserved, want 4", n)
	}
	ar = presizeOf(t, "def f(a, b: int = 1, *c, d, **e):\n    return a\n")
	if n := len(ar.argSlab.buf); n != 5 {
		t.Errorf("%d parameters reserved for a def of 5, want 5", n)
	}
}

package parser

import (
	"strings"
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
	ar.presize(&tz.shapes)
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

// countShapes is the plain count the tokenizer's shapes must give: one
// pass over the tokens of a file.
func countShapes(toks []token) shapes {
	var names, attrs, calls, consts, kws, assigns, binops, args int
	prev, prev2 := tNewline, tNewline
	depth := 0
	inImport := false // in an import statement: its names are aliases
	defDepth := -1    // paren depth outside a def's parameter list
	assigned := false // the statement has an '=' already
	var callAt uint64 // bit d: the brackets at depth d (1-63) are a call's
	callArgs, callKws, stmts := 0, 0, 0
	// An expression statement: one that starts like an expression and has
	// no '=', augmented assignment or annotation at depth 0.
	exprStmts := 0
	stmtStart, exprLike := true, false
	for i := range toks {
		k := toks[i].kind
		if stmtStart {
			switch k {
			case tIndent, tDedent, tNewline:
			case tName, tString, tNumber, tLParen, tLBrack, tLBrace, kwAwait, kwYield, kwNone, kwTrue, kwFalse,
				tEllipsis, tMinus, tPlus, tTilde, kwNot, kwLambda, tStar:
				stmtStart, exprLike = false, true
			default:
				stmtStart, exprLike = false, false
			}
		}
		switch k {
		case tName:
			switch {
			case inImport || prev == tDot || prev == kwDef || prev == kwClass:
			case defDepth >= 0 && depth == defDepth+1 && (prev == tLParen || prev == tComma || prev == tStar || prev == tDoubleStar):
				args++
			case depth > 0 && i+1 < len(toks) && toks[i+1].kind == tEqual:
				kws++
				if depth < 64 && callAt&(1<<depth) != 0 {
					callArgs--
					callKws++
				}
			default:
				names++
			}
		case tDot:
			if !inImport {
				attrs++
			}
		case tNumber:
			consts++
		case tString:
			if prev != tString {
				consts++
			}
		case kwNone, kwTrue, kwFalse, tEllipsis:
			consts++
		case tLParen, tLBrack, tLBrace:
			call := false
			if k == tLParen {
				switch prev {
				case tName:
					if prev2 == kwDef {
						defDepth = depth
					} else if prev2 != kwClass {
						call = true
					}
				case tRParen, tRBrack:
					call = true
				}
			}
			depth++
			if depth < 64 {
				callAt &^= 1 << depth
				if call {
					callAt |= 1 << depth
				}
			}
			if call {
				calls++
				if i+1 < len(toks) && toks[i+1].kind != tRParen {
					callArgs++
				}
			}
		case tComma:
			if depth < 64 && callAt&(1<<depth) != 0 && i+1 < len(toks) && toks[i+1].kind != tRParen {
				callArgs++
			}
		case tRParen, tRBrack, tRBrace:
			depth--
			if depth == defDepth {
				defDepth = -1
			}
		case tEqual:
			if depth == 0 && !assigned {
				assigns++
				assigned = true
			}
			exprLike = exprLike && depth > 0
		case tColon, tPlusEqual, tMinEqual, tStarEqual, tSlashEqual, tPercentEqual, tAmperEqual, tVBarEqual,
			tCircumflexEqual, tLShiftEqual, tRShiftEqual, tDoubleStarEqual, tDoubleSlashEqual, tAtEqual:
			exprLike = exprLike && depth > 0
		case tPlus, tMinus, tStar, tSlash, tDoubleSlash, tPercent, tAt, tVBar, tAmper, tCircumflex, tLShift, tRShift, tDoubleStar:
			switch prev {
			case tName, tNumber, tString, tRParen, tRBrack, tRBrace, kwNone, kwTrue, kwFalse, tEllipsis:
				binops++
			}
		case kwImport, kwFrom:
			inImport = true
		case tNewline, tSemi:
			inImport, assigned = false, false
			stmts++
			if exprLike {
				exprStmts++
			}
			stmtStart, exprLike = true, false
		}
		prev2, prev = prev, k
	}
	return shapes{names: names, attrs: attrs, calls: calls, consts: consts, kws: kws, assigns: assigns, binops: binops,
		args: args, exprStmts: exprStmts, callArgs: callArgs, stmts: stmts, callKws: callKws}
}

// counts is the part of shapes presize reads.
func (s *shapes) counts() [12]int {
	return [12]int{s.names, s.attrs, s.calls, s.consts, s.kws, s.assigns, s.binops, s.args, s.exprStmts, s.callArgs, s.stmts, s.callKws}
}

// TestShapesMatchPlainCount checks that the shapes the tokenizer counts
// are countShapes's, on every file of the fixtures, of TileGym (when
// realtree gives it) and on snippets of each shape.
func TestShapesMatchPlainCount(t *testing.T) {
	srcs := map[string]string{
		"params.py":   "def f(a, b: int = 1, /, c=2, *d, e, f=3, **g) -> x:\n    return a\nasync def g(*, k=f(x=1)): pass\nclass C(B, metaclass=M): pass\n",
		"calls.py":    "f()\nf(a,)\nf(a, b, k=1, *c, **d)\ng(x)(y)[0](z=2)\nh(a, (b, c), [d,], {e: 1}, k=(1, 2))\n",
		"imports.py":  "import a.b as c, d\nfrom . import (x, y)\nfrom ..m import *; z = 1\nraise E from err\nx = yield from g()\n",
		"stmts.py":    "'''doc'''\nx = y = 1\nx += 1\nx: int = 2\nprint(x); -x; not x\nawait f()\nif a: b\n...\nlambda: 0\n*a, b = c\n",
		"ops.py":      "a = b + c * -d ** e // f % g @ h | i & j ^ k << l >> m\nx = [*a, *b]\nf(*a, **b)\ny = 'a' 'b' f'{c}' \"d\"\nz = x[1:2, ::3]\nw = {**a, 'b': -1}\n",
		"deep.py":     "x = " + strings.Repeat("(", 70) + "f(a=1, b)" + strings.Repeat(")", 70) + "\n",
		"nonascii.py": "é = ñ(ü=1)\n",
	}
	addTreeSources(srcs)
	n := 0
	for name, src := range srcs {
		tz := &tokenizer{filename: name, src: []byte(src), srcStr: src}
		if _, te := tokenizeFile(tz, &tokScratch{}); te != nil {
			continue
		}
		n++
		if got, want := tz.shapes.counts(), countShapes(tz.toks); got != want.counts() {
			t.Errorf("%s: the tokenizer counts %v, the plain count is %v", name, got, want.counts())
		}
	}
	if n < 20 {
		t.Fatalf("only %d files compared", n)
	}
}

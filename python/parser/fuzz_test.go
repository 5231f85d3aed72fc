package parser

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/python/ast"
)

var fuzzSeeds = []string{
	"x = 1\n",
	"def f(a, /, b=1, *c, d, **e) -> int:\n    return a if b else c\n",
	"class C(B, metaclass=M):\n    @property\n    def x(self): ...\n",
	"x = f'{a!r:>{w}} {b=}' 'c' f\"\"\"{\n d}\"\"\"\n",
	"match p:\n    case Point(x=0) | [1, *_] | {'k': v, **r} as z if z:\n        pass\n",
	"try:\n    pass\nexcept* (A, B) as e:\n    raise\nfinally:\n    pass\n",
	"async def f():\n    async with a as b, c:\n        await x\n    return [i async for i in y if i]\n",
	"with (open(a) as f, open(b) as g):\n\tpass\n",
	"# coding: latin-1\nx = '\xe9'\n",
	"\xef\xbb\xbfx = b'\\x00' rb'\\d' u'\\N{BULLET}'\n",
	"x = [\n  1,\n  2,\n]\r\ny = 0x_ff + 1_000.5e-3j\r",
	"lambda *a, **k: (yield from a)\n",
	"if x:\n  pass\nelif y:\n\tpass\nelse:\n        pass\n",
	"x = f\"{d[\"k\"]}\"\ntype T[U] = list[U]\n",
}

// FuzzParseFile checks that the parser never panics and that every error
// carries a valid position.
func FuzzParseFile(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	if fh, err := os.Open("testdata/cpython311.jsonl"); err == nil {
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var g golden
			if json.Unmarshal(sc.Bytes(), &g) == nil {
				f.Add([]byte(g.Src))
			}
		}
		fh.Close()
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := ParseFile("fuzz.py", src)
		lines := strings.Count(string(src), "\n") + strings.Count(string(src), "\r") + 2
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not *Error: %v", err, err)
			}
			if strings.HasPrefix(pe.Msg, "internal parser error") {
				t.Fatalf("internal error: %v", pe.Msg)
			}
			if pe.Line < 1 || pe.Line > lines || pe.Col < 0 || pe.Msg == "" {
				t.Fatalf("bad error position: %+v", pe)
			}
			return
		}
		if file == nil || file.Module == nil {
			t.Fatal("nil file without error")
		}
		for _, s := range file.Module.Body {
			ast.Inspect(s, func(n ast.Node) bool {
				a := n.Attributes()
				if a.Lineno < 1 || a.EndLineno < a.Lineno || int(a.EndLineno) > lines || a.ColOffset < 0 || a.EndColOffset < 0 {
					t.Fatalf("bad position %+v on %T", *a, n)
				}
				return true
			})
		}
	})
}

package astdump_test

// Cross-check: dump small snippets with package parser + astdump and with
// CPython (tools/pyastdump.py) and require identical bytes, or rejection by
// both. Runs only when a CPython 3.11 interpreter is available (python3 on
// PATH, or $PYTHON).

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/python/astdump"
	"github.com/tilegym/tilegym-lint/python/parser"
)

var crossSnippets = map[string]string{
	// Constants of every type.
	"const_int":     "a = 0\nb = 123\nc = 0x1F\nd = 0o17\ne = 0b101\nf = 1_000_000\ng = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\nh = 123456789012345678901234567890\n",
	"const_float":   "a = 1.5\nb = .5\nc = 1e10\nd = 1e999\ne = 0.1\nf = 1_0.0_1e-3_0\ng = 5e-324\n",
	"const_complex": "a = 2j\nb = 1.5J\nc = 1e999j\nd = 0j\ne = 1 + 2j\n",
	"const_str":     "a = 'x'\nb = \"y\\n\\t\\x00\\\\\\\"\"\nc = u'kind'\nd = r'\\d+'\ne = '''multi\nline'''\nf = 'a' 'b' \"c\"\ng = ''\n",
	"const_bytes":   "a = b'x\\x00\\xff'\nb = rb'\\d'\nc = b''\nd = b'a' b'b'\n",
	"const_single":  "a = True\nb = False\nc = None\nd = ...\ne = x[...]\n",
	"const_escapes": "a = '\\N{BULLET} \\u00e9 \\U0001F600 \\101 \\7'\nb = '\\\n'\n",
	// Lone surrogates (escapes in source) and non-ASCII text.
	"surrogates": "a = '\\ud800'\nb = '\\udc80x\\udfff'\nc = '\\ud83d\\ude00'\nd = f'\\udc80{x}'\n",
	"non_ascii":  "café = 'naïve ☃ 😀'\nπ = 3.14  # ünïcödé comment\nx = '日本語' + y  # col offsets are byte offsets\ndef f(ä=\"ö\"): return ä\n",
	"nfkc_ident": "ﬁ = 1\nℌ = 2\n",
	// f-strings.
	"fstring": "a = f'{x}'\nb = f'pre {x!r:>{w}} mid {y=} {z:.{p}f} post'\nc = f'{{literal}} {x}' 'plain' f'{y}'\n" +
		"d = f'''multi\n{x\n + 1}\nline'''\ne = f'{x:{{}}>10}'\nf = rf'\\d{x}'\ng = f'{\"nested\"}'\nh = f'{x!s}{y!a}'\n",
	"fstring_nested": "a = f'{f\"{x}\"}'\nb = f'{x:{y}}'\nc = f'{ x = }'\nd = f'{(lambda: 1)}'\n",
	// Positions.
	"positions":  "x = (1 +\n     2)\ny = [\n    a,\n    b,\n]\nz = foo(\n    bar)(baz)[1:2, ::3]\nif (a and\n        b):\n    pass\nw = a if b else \\\n    c\n",
	"decorators": "@dec\n@dec2(arg)\nclass C(B, metaclass=M):\n    @property\n    def f(self, /, a, b=1, *args, c, d=2, **kw) -> int:\n        '''doc'''\n        return a\n",
	"statements": "import a.b as c, d\nfrom .. import (x as y, z)\nfrom m import *\nglobal g\ndel a, b[1], c.d\n" +
		"assert x, 'msg'\nraise E from F\nx: int = 1\n(y): int\nx += 1\nfor i, j in k:\n    break\nelse:\n    continue\nwhile 1:\n    pass\n",
	"try": "try:\n    pass\nexcept E as e:\n    pass\nexcept (A, B):\n    pass\nexcept:\n    pass\nelse:\n    pass\nfinally:\n    pass\n" +
		"try:\n    pass\nexcept* E:\n    pass\n",
	"async":          "async def f():\n    async with a as b, c:\n        pass\n    async for x in y:\n        await z\n    return [i async for i in g]\n",
	"comprehensions": "a = [x for x in y if x if z]\nb = {k: v for k, v in d.items()}\nc = {x for x in s}\nd = (x for x in g)\ne = f(x for x in g)\n",
	"expressions": "a = lambda x, *y, z=1, **w: x\nb = (c := 10)\nc = not a or b and c\nd = -a ** ~b // c @ d\ne = a < b <= c != d is not e not in f\n" +
		"f = {**a, 'b': 1}\ng = [*a, *b]\nh = a[1:2:3, ...]\ni = yield\n",
	"match": "match p:\n    case 1 | 2 | -3 | 1+2j:\n        pass\n    case [a, *rest] if a:\n        pass\n    case {'k': v, **kw}:\n        pass\n" +
		"    case Point(x=0, y=_) as pt:\n        pass\n    case None | True | False:\n        pass\n    case str() | a.b.c:\n        pass\n    case (x, y, *_):\n        pass\n",
	"with_parens": "with (open(a) as f, open(b) as g):\n    pass\nwith a, b:\n    pass\n",
	// Encodings and odd whitespace.
	"latin1_cookie": "# -*- coding: latin-1 -*-\nx = '\xe9\xe8'\n",
	"bom":           "\ufeffx = 1\n",
	"crlf":          "x = 1\r\nif x:\r\n    y = 2\r\n",
	"no_newline":    "x = 1",
	"tabs":          "if x:\n\ty = 1\n\tif y:\n\t\tz = 2\n",
	"empty":         "",
	"comment_only":  "# just a comment\n",
	// Rejected by CPython: the Go parser must reject them too.
	"bad_syntax":         "x = (\n",
	"bad_indent":         "if x:\npass\n",
	"bad_dedent":         "if x:\n        a\n    b\n",
	"bad_null":           "x = 1\x00\n",
	"bad_utf8":           "x = '\xff'\n",
	"bad_cookie":         "# coding: no-such-codec\nx = 1\n",
	"bad_assign":         "f() = 1\n",
	"bad_fstring":        "f'{'\n",
	"bad_fstring_deep":   "b = f'{x:{y:{z}}}'\n",
	"bad_fstring_lambda": "d = f'{lambda: 1}'\n",
	// Accepted by ast.parse, rejected only later by CPython's compiler.
	"compiler_only_errors": "match x:\n    case [*a, *b]:\n        pass\ni = yield\nreturn 1\nbreak\nnonlocal q\n",
	// Not here: 3.12-only syntax (type statements, PEP 695 type parameters),
	// which package parser accepts on purpose although CPython 3.11 rejects it.
	"bad_return": "def f():\n    x = 1\n  return x\n",
}

func crossPython(t *testing.T) string {
	py := os.Getenv("PYTHON")
	if py == "" {
		py = "python3"
	}
	path, err := exec.LookPath(py)
	if err != nil {
		t.Skipf("%s not on PATH: skipping the CPython cross-check", py)
	}
	out, err := exec.Command(path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])").Output()
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	if v := strings.TrimSpace(string(out)); v != "3.11" {
		t.Skipf("%s is Python %s; the parser targets CPython 3.11 (set $PYTHON)", path, v)
	}
	return path
}

func TestCrossCheckWithCPython(t *testing.T) {
	if testing.Short() {
		t.Skip("runs CPython on every snippet; skipped with -short")
	}
	py := crossPython(t)
	script, err := filepath.Abs(filepath.Join("..", "..", "tools", "pyastdump.py"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	names := make([]string, 0, len(crossSnippets))
	for name := range crossSnippets {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src := []byte(crossSnippets[name])
			path := filepath.Join(dir, name+".py")
			if err := os.WriteFile(path, src, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(py, script, path)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			want, err := cmd.Output()
			pyOK := err == nil
			var exit *exec.ExitError
			if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
				t.Fatalf("pyastdump: %v\n%s", err, stderr.String())
			}
			want = bytes.TrimSuffix(want, []byte("\n"))

			f, perr := parser.ParseFile(path, src)
			switch {
			case !pyOK && perr != nil:
				return // both reject
			case !pyOK:
				t.Fatalf("CPython rejects, Go accepts: %s", want)
			case perr != nil:
				t.Fatalf("Go rejects (%v), CPython accepts", perr)
			}
			got, err := astdump.Append(nil, f)
			if err != nil {
				t.Errorf("astdump: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("dump mismatch (-cpython +go):\n%s", cmp.Diff(splitNodes(want), splitNodes(got)))
			}
		})
	}
}

// splitNodes breaks a dump before every node so that diffs are readable.
func splitNodes(b []byte) []string {
	return strings.Split(string(b), `{"_type":`)
}

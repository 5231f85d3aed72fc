package parser

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/realtree"
)

// fastPathSources returns sources to parse with and without the fast
// paths: snippets around them, the CPython golden snippets, the fixtures and
// TileGym (when realtree gives it).
func fastPathSources(t *testing.T) map[string]string {
	srcs := map[string]string{
		"ops.py": "x = a.b - c\ny = f(x) not in z\nz = a.b if c else d\nw = x[0] ** 2\nv = f(x) is not None\n" +
			"u = (a) + b\nt = [1] * 3\ns = a.b.c(d)[e] @ f\nr = -a.b\nq = await f(x)\np = not a.b\n" +
			"o = a.b and c or d\nn = {1: 2}[k] < 3 <= 4\nm = 'a' 'b' % x\nl = ...\nk = f(a.b, *c, d=e.f, **g)\n",
		"stmts.py": "a.b = c.d\nf(x)[0] += 1\nfor a.b in c.d: pass\nwith f(x) as y: pass\nassert f(x), g(y)\n" +
			"del a.b, c[0]\nreturn_ = lambda: f(x)\nprint(f'{a.b!r:>{w}}')\nx: a.b = c\n",
		"err-comma.py":   "f(a.b c)\n",
		"err-lambda.py":  "f(a.b lambda: 1)\n",
		"err-legacy.py":  "print a.b\n",
		"err-assign.py":  "if a.b = 1: pass\n",
		"err-walrus.py":  "(a.b := 1)\n",
		"err-if.py":      "x = a.b if c\n",
		"err-star.py":    "x = f(x)(*)\n",
		"err-kw.py":      "f(a.b=1)\n",
		"err-gen.py":     "f(x for x in y, z)\n",
		"err-deep.py":    "x = " + strings.Repeat("f(", 250) + strings.Repeat(")", 250) + "\n",
		"deep-power.py":  "x = " + strings.Repeat("a.b ** ", 1000) + "c\n",
		"deep-unary.py":  "x = " + strings.Repeat("-", 2990) + "a.b\n",
		"deep-chain.py":  "x = a" + strings.Repeat(".b", 3000) + "\n",
		"deep-binop.py":  "x = a.b" + strings.Repeat(" + a.b", 3000) + "\n",
		"deep-nested.py": "x = " + strings.Repeat("[", 190) + "a.b" + strings.Repeat("]", 190) + "\n",
	}
	fh, err := os.Open("testdata/cpython311.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var g golden
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		srcs[g.Name] = g.Src
	}
	addTreeSources(srcs)
	return srcs
}

// TestFastPathsMatchDescent checks that expression's fast paths give the
// trees and errors of the plain descent (fastPaths off).
func TestFastPathsMatchDescent(t *testing.T) {
	srcs := fastPathSources(t)
	parseAll := func(fast bool) (map[string]any, map[string]error) {
		old := fastPaths
		fastPaths = fast
		defer func() { fastPaths = old }()
		trees, errs := map[string]any{}, map[string]error{}
		for name, src := range srcs {
			f, err := ParseFile(name, []byte(src))
			trees[name], errs[name] = f, err
		}
		return trees, errs
	}
	fastTrees, fastErrs := parseAll(true)
	plainTrees, plainErrs := parseAll(false)
	failed := 0
	for name := range srcs {
		if !reflect.DeepEqual(fastErrs[name], plainErrs[name]) {
			t.Errorf("%s: fast paths: error %v; descent: %v", name, fastErrs[name], plainErrs[name])
			failed++
		} else if !reflect.DeepEqual(fastTrees[name], plainTrees[name]) {
			t.Errorf("%s: the trees differ", name)
			failed++
		}
	}
	if failed == 0 && len(srcs) < 700 {
		t.Fatalf("only %d sources compared", len(srcs))
	}
}

// addTreeSources adds to srcs the .py files of the fixtures and, when
// realtree gives one, of a TileGym tree, by path.
func addTreeSources(srcs map[string]string) {
	for _, dir := range []string{"../../fixtures", realtree.Dir()} {
		if dir == "" {
			continue
		}
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && strings.HasSuffix(path, ".py") {
				if b, err := os.ReadFile(path); err == nil {
					srcs[path] = string(b)
				}
			}
			return nil
		})
	}
}

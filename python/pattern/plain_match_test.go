package pattern

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/python/parser"
)

// corpusPatterns returns every pattern of the rule catalog (pattern, any,
// require, decorated, the contexts that are patterns) and some that use
// what the catalog does not.
func corpusPatterns(t *testing.T) []*Pattern {
	var cat map[string]any
	if _, err := toml.DecodeFile("../../rules.toml", &cat); err != nil {
		t.Fatal(err)
	}
	srcs := []string{"$X + $X", "f(..., k=$X)", "(..., $E, ...)", "$F(**$K)", "$F(*$A, ...)",
		"def $F(...):\n    ...", "torch.$F($X, dim=$D)", "$A[$I]", "$A[..., $I]", "[$X, ...]",
		"$F($X, $X)", "cuda.tile.$F($X, ...)", "if $C:\n    ...\nelse:\n    ...", "with $X as $Y:\n    ...",
		"return $X", "$X = $Y", "$O.$M($X)", "lambda $X: $Y", "$A, $B = $C", "$X[$I] = [..., $Y]",
		"for $X, $Y in $Z:\n    ...\nelse:\n    ...", "from typing import $N, $O", "import os, $A", "from $M import $N as $A"}
	var collect func(v any, key string)
	collect = func(v any, key string) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				collect(y, k)
			}
		case []map[string]any:
			for _, y := range x {
				collect(y, key)
			}
		case []any:
			for _, y := range x {
				collect(y, key)
			}
		case string:
			switch key {
			case "pattern", "any", "require", "decorated":
				srcs = append(srcs, x)
			case "inside", "not-inside":
				if !slices.Contains([]string{"kernel", "function", "module", "cache-miss"}, x) && !strings.HasPrefix(x, "@") {
					srcs = append(srcs, x) // a context that is a pattern
				}
			}
		}
	}
	collect(cat, "")
	sort.Strings(srcs)
	var out []*Pattern
	for _, s := range srcs {
		if p, err := Parse(s); err == nil {
			out = append(out, p)
		}
	}
	if len(out) < 60 {
		t.Fatalf("%d patterns from the catalog and the test; want more", len(out))
	}
	return out
}

// corpusSources returns the Python files of every fixture and, unless
// -short, of the TileGym tree (realtree.Dir) when there is one, each
// content once.
func corpusSources(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	seen := map[string]bool{}
	add := func(name string, data []byte) {
		if strings.HasSuffix(name, ".py") && !seen[string(data)] {
			seen[string(data)] = true
			out[name] = data
		}
	}
	all, err := fixtureset.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, fx := range all {
		files, err := fx.Files()
		if err != nil {
			t.Fatal(err)
		}
		for name, data := range files {
			add(fx.Name+"/"+name, data)
		}
	}
	if dir := realtree.Dir(); dir != "" && !testing.Short() {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
				return err
			}
			data, err := os.ReadFile(p)
			add(p, data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// The matcher (dotted names of the pattern kept, bindings undone by a
// log, a call's arguments counted before its callee is matched) matches
// what the matcher as first written matches, with the same bindings, for
// every pattern of the catalog on every node of the corpus, with no check
// and with a check refusing some bindings (the matcher then tries others).
func TestMatcherMatchesPlain(t *testing.T) {
	pats := corpusPatterns(t)
	refuse := func(name string, n ast.Node) bool { return (n.Pos().Line+n.Pos().Col+len(name))%3 != 0 }
	// A root of another type than the node refuses it at once (but a
	// dotted name, which matches any expression resolving to it).
	kinds := make([][]string, len(pats))
	for i, p := range pats {
		kinds[i] = p.Kinds()
	}
	matched, compared := 0, 0
	for name, data := range corpusSources(t) {
		f, err := parser.ParseFile(name, data)
		if err != nil || f.Module == nil {
			continue
		}
		im := astutil.NewImports(name, f)
		resolve := im.ResolveNode
		astutil.InspectFile(f, func(n ast.Node) bool {
			for i, p := range pats {
				if k := kinds[i]; k != nil && !slices.Contains(k, reflect.TypeOf(n).Elem().Name()) {
					continue // a node of another type: both refuse it at once
				}
				for _, check := range []func(string, ast.Node) bool{nil, refuse} {
					fb, pb := Bindings{}, Bindings{}
					fast := p.MatchWhere(n, resolve, fb, check)
					plain := p.matchPlain(n, resolve, pb, check)
					compared++
					if fast != plain || fast && !sameBindings(fb, pb) {
						t.Errorf("%s:%d: %q: matcher %v %v, plain %v %v", name, n.Pos().Line, p.Source, fast, fb, plain, pb)
					}
					if fast {
						matched++
					}
				}
			}
			return true
		})
	}
	t.Logf("%d matches of %d attempts", matched, compared)
	if matched < 100 {
		t.Errorf("%d matches; the corpus has more", matched)
	}
}

// sameBindings reports whether two matches bound the same nodes (an Ident,
// made afresh, by its name and place).
func sameBindings(a, b Bindings) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok {
			return false
		}
		xi, ok1 := x.(*Ident)
		yi, ok2 := y.(*Ident)
		if ok1 || ok2 {
			if !ok1 || !ok2 || *xi != *yi {
				return false
			}
			continue
		}
		if x != y {
			return false
		}
	}
	return true
}

// refuses, which lets the matcher skip a part of a pattern before binding
// the others, refuses only what the plain matcher does not match: every
// node of every pattern of the catalog against every node of the corpus.
func TestRefusesOnlyNonMatches(t *testing.T) {
	var subs []*Pattern
	for _, p := range corpusPatterns(t) {
		ast.Inspect(p.node, func(n ast.Node) bool {
			subs = append(subs, &Pattern{Source: p.Source, node: n})
			return true
		})
	}
	refused := 0
	for name, data := range corpusSources(t) {
		f, err := parser.ParseFile(name, data)
		if err != nil || f.Module == nil {
			continue
		}
		resolve := astutil.NewImports(name, f).ResolveNode
		astutil.InspectFile(f, func(n ast.Node) bool {
			for _, s := range subs {
				if !refuses(s.node, n) {
					continue
				}
				refused++
				if s.matchPlain(n, resolve, Bindings{}, nil) {
					t.Errorf("%s:%d: a node of %q: refused, but the plain matcher matches it", name, n.Pos().Line, s.Source)
				}
			}
			return true
		})
	}
	if refused == 0 {
		t.Error("nothing refused")
	}
}

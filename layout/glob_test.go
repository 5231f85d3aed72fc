package layout

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

func TestMatchPath(t *testing.T) {
	tests := []struct {
		pat, path string
		suite     string
		ok        bool
	}{
		{"src/tilegym/ops/ops.py", "src/tilegym/ops/ops.py", "", true},
		{"src/tilegym/ops/ops.py", "src/tilegym/ops/ops.pyc", "", false},
		{"src/tilegym/ops/*.py", "src/tilegym/ops/activation.py", "", true},
		{"src/tilegym/ops/*.py", "src/tilegym/ops/cutile/softmax.py", "", false},
		{"tests/ops/**/test_*.py", "tests/ops/test_softmax.py", "", true},
		{"tests/ops/**/test_*.py", "tests/ops/activation/test_gelu.py", "", true},
		{"tests/ops/**/test_*.py", "tests/ops/a/b/test_x.py", "", true},
		{"tests/ops/**/test_*.py", "tests/ops/common.py", "", false},
		{"tests/benchmark/*.py", "tests/benchmark/suites/unsloth/bench_x.py", "", false},
		{"tests/benchmark/suites/{suite}/**/*.py", "tests/benchmark/suites/unsloth/bench_x.py", "unsloth", true},
		{"src/tilegym/suites/{suite}/ops.py", "src/tilegym/suites/liger/ops.py", "liger", true},
		{"src/tilegym/suites/{suite}/ops.py", "src/tilegym/suites/ops.py", "", false},
		{"src/tilegym/suites/{suite}/cutile/**", "src/tilegym/suites/liger/cutile/a/b.py", "liger", true},
		{"src/tilegym/suites/{suite}/cutile/**", "src/tilegym/suites/liger/cutile", "liger", true},
		{"x/{suite}/y/{suite}.py", "x/ab/y/ab.py", "ab", true},
		{"x/{suite}/y/{suite}.py", "x/ab/y/abc.py", "", false},
		{"x/test_{suite}_*.py", "x/test_liger_jsd.py", "liger", true},
		{"a/?.py", "a/b.py", "", true},
		{"a/?.py", "a/bc.py", "", false},
		{"**", "anything/at/all.py", "", true},
		{"**/__pycache__/**", "src/__pycache__/x.py", "", true},
		{"**/__pycache__/**", "src/cache/x.py", "", false},
		{"a/**/b", "a/b", "", true},
		{"a/**/b", "a/x/y/b", "", true},
		{"a/**/b", "a/x/y/c", "", false},
		{"*", "", "", true},
		{"a/*", "a", "", false},
	}
	for _, tt := range tests {
		suite, ok := MatchPath(tt.pat, tt.path)
		if ok != tt.ok || suite != tt.suite {
			t.Errorf("MatchPath(%q, %q) = %q, %v; want %q, %v", tt.pat, tt.path, suite, ok, tt.suite, tt.ok)
		}
	}
}

func TestGlobPrefix(t *testing.T) {
	for pat, want := range map[string]string{
		"tests/ops/**/test_*.py":            "tests/ops",
		"src/tilegym/ops/ops.py":            "src/tilegym/ops",
		"src/tilegym/suites/{suite}/ops.py": "src/tilegym/suites",
		"**":                                "",
	} {
		if got := GlobPrefix(pat); got != want {
			t.Errorf("GlobPrefix(%q) = %q, want %q", pat, got, want)
		}
	}
}

func TestExpandSuite(t *testing.T) {
	if got := ExpandSuite("tests/suites/{suite}/test_*.py", "liger"); got != "tests/suites/liger/test_*.py" {
		t.Errorf("ExpandSuite = %q", got)
	}
}

// boundSuites answers MatchBound for every suite at once: the two agree on
// every pattern, path and suite here, including patterns that bind a
// suite several ways and suites that are globs themselves.
func TestBoundSuitesAgreesWithMatchBound(t *testing.T) {
	patterns := [][]string{
		{"tests/suites/{suite}/**/test_*.py"},
		{"tests/ops/**/test_*.py", "tests/suites/{suite}/**/test_*.py"},
		{"tests/benchmark/suites/{suite}/**/bench_*.py"},
		{"x/{suite}_*.py"},
		{"x/*_{suite}.py"},
		{"x/{suite}/y/{suite}.py"},
		{"**/{suite}/*.py"},
		{"x/**"},
		{"x/{suite}/**"},
		{"x/?{suite}.py"},
	}
	paths := []string{
		"tests/suites/liger/test_jsd.py", "tests/suites/liger/a/test_jsd.py", "tests/ops/test_softmax.py",
		"tests/benchmark/suites/liger/bench_jsd.py", "x/a_b_c.py", "x/ab/y/ab.py", "x/ab/y/abc.py",
		"x/a/b.py", "a/b/c/d.py", "x", "x/liger", "x/*/y.py", "x/ab.py", "tests/suites/liger/common.py",
	}
	suites := []string{"", "liger", "a", "a_b", "b_c", "c", "ab", "b", "*", "?", "x/y", "{suite}", "jsd", "b/c"}
	n := 0
	for _, ps := range patterns {
		for _, p := range paths {
			set := boundSuites(ps, p)
			for _, s := range suites {
				if got, want := set.has(s), MatchBound(ps, s, p); got != want {
					t.Errorf("boundSuites(%q, %q).has(%q) = %v, MatchBound %v", ps, p, s, got, want)
				}
				if set.has(s) && s != "" {
					n++
				}
			}
			for _, s := range set.suites {
				if !MatchBound(ps, s, p) {
					t.Errorf("boundSuites(%q, %q) binds %q, which MatchBound does not match", ps, p, s)
				}
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d matches: the cases test little", n)
	}
	if got := boundSuites([]string{"x/{suite}_*.py"}, "x/a_b_c.py").suites; len(got) != 2 {
		t.Errorf("x/{suite}_*.py binds %q in x/a_b_c.py, want a and a_b", got)
	}
}

// BindingIndex.Match finds exactly the bindings MatchBound matches, in
// the list's order, including a suite that is a glob and a repeated one.
func TestBindingIndexAgreesWithMatchBound(t *testing.T) {
	core := &Scope{Name: "core", Tests: []string{"tests/ops/**/test_*.py"}}
	suites := &Scope{Name: "suites", Tests: []string{"tests/suites/{suite}/**/test_*.py"}, Benchmarks: []string{"tests/benchmark/suites/{suite}/bench_*.py"}}
	none := &Scope{Name: "none"}
	list := []Binding{{core, ""}, {suites, "b"}, {suites, "a"}, {suites, "*"}, {none, ""}, {suites, ""}, {suites, "a"}, {nil, ""}}
	x := NewBindingIndex(list, func(sc *Scope) []string { return append(append([]string{}, sc.Tests...), sc.Benchmarks...) })
	for _, p := range []string{"tests/ops/test_x.py", "tests/suites/a/test_x.py", "tests/suites/b/c/test_x.py", "tests/benchmark/suites/a/bench_x.py", "tests/suites/*/test_x.py", "src/x.py"} {
		var want []int
		for i, b := range list {
			if b.Scope != nil && (MatchBound(b.Scope.Tests, b.Suite, p) || MatchBound(b.Scope.Benchmarks, b.Suite, p)) {
				want = append(want, i)
			}
		}
		if got := x.Match(p); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Match(%q) = %v, want %v", p, got, want)
		}
	}
}

// The linear matcher agrees with the backtracking one it replaced on
// random patterns and paths over a small alphabet: whether they match,
// and (for "{suite}") the binding is one the reference finds. The
// reference is the exhaustive allSegs: the old MatchPath kept the first
// binding that matched the segment where "{suite}" first appears and
// missed "{suite}**/{suite}" over "abbbb/ab" (it bound "a").
func TestMatchPathAgreesWithReference(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	pick := func(parts []string, n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		return b.String()
	}
	patParts := []string{"a", "b", "*", "?", "/", "**", "/**/", "{suite}", "a", "/"}
	pathParts := []string{"a", "b", "ab", "/", "a/", "b/"}
	matched := 0
	for n := 0; n < 200000; n++ {
		pat, path := pick(patParts, rng.Intn(7)), pick(pathParts, rng.Intn(7))
		suite, ok := MatchPath(pat, path)
		var all []string
		allSegs(pat, path, "", func(s string) { all = append(all, s) })
		if ok != (len(all) > 0) {
			t.Fatalf("MatchPath(%q, %q) = %v, the reference binds %q", pat, path, ok, all)
		}
		if _, old := refMatchPath(pat, path); old && !ok {
			t.Fatalf("MatchPath(%q, %q) = false, the old matcher true", pat, path)
		}
		if !ok {
			continue
		}
		matched++
		if !slices.Contains(all, suite) {
			t.Fatalf("MatchPath(%q, %q) binds %q, the reference %q", pat, path, suite, all)
		}
		set := boundSuites([]string{pat}, path)
		for _, s := range all {
			if s != "" && !slices.Contains(set.suites, s) {
				t.Fatalf("boundSuites(%q, %q) = %q, missing %q", pat, path, set.suites, s)
			}
		}
		if len(set.suites) > len(all) {
			t.Fatalf("boundSuites(%q, %q) = %q, the reference %q", pat, path, set.suites, all)
		}
	}
	if matched < 10000 {
		t.Errorf("only %d of the random cases match: they test little", matched)
	}
}

// A configuration glob of many stars over a long file name costs a
// bounded number of comparisons (the backtracking matcher took 16 s with
// five stars and a 60-byte name, forty times more per star); counted,
// not timed.
func TestPathologicalGlobWorkIsBounded(t *testing.T) {
	name := strings.Repeat("a", 250)
	path := "src/tilegym/ops/" + name
	for stars := 1; stars <= 40; stars++ {
		pat := "src/tilegym/ops/" + strings.Repeat("*a", stars) + "*b"
		var w work
		if matchFixed(pat, path, "", false, &w) {
			t.Fatalf("%q matches %q", pat, path)
		}
		if bound := (len(pat) + 1) * (len(name) + 1); w.steps > bound {
			t.Errorf("%d stars: %d comparisons, want at most %d", stars, w.steps, bound)
		}
		// With "{suite}", the bindings tried are bounded by the budget.
		pat = "**/*{suite}" + strings.Repeat("*{suite}", stars) + "*b"
		w = work{}
		bindings(pat, path, &w, func(string) bool { return true })
		if w.steps > bindingBudget+(len(pat)+1)*(len(path)+1) {
			t.Errorf("%q: %d comparisons, want about %d at most", pat, w.steps, bindingBudget)
		}
	}
	if _, ok := MatchPath("src/**/*a*a*a*a*a*a*a*a*b", path+"b"); !ok {
		t.Errorf("the many-star glob does not match a name it matches")
	}
}

// BenchmarkPathologicalGlob measures a 20-star glob over a 250-byte name.
func BenchmarkPathologicalGlob(b *testing.B) {
	pat := "src/**/" + strings.Repeat("*a", 20) + "*b"
	path := "src/tilegym/ops/" + strings.Repeat("a", 250)
	for i := 0; i < b.N; i++ {
		Matches(pat, path)
	}
}

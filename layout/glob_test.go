package layout

import "testing"

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

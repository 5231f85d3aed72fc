package checks

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/ast"
	"github.com/tilegym/tilegym-lint/python/astutil"
	"github.com/tilegym/tilegym-lint/python/parser"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// indexOf parses src as the file at p and indexes it.
func indexOf(t *testing.T, p, src string) *pyIndex {
	t.Helper()
	f, err := parser.ParseFile(p, []byte(src))
	if err != nil {
		t.Fatalf("parse %s: %v", p, err)
	}
	return newPyIndex(&source.File{Path: p, Src: []byte(src), AST: f})
}

func TestDottedUnder(t *testing.T) {
	mods := []string{"tilegym.ops.cutile", "tilegym.suites.*.cutile"}
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"tilegym.ops.cutile", true},
		{"tilegym.ops.cutile.softmax", true},
		{"tilegym.ops.cutile.softmax.softmax", true},
		{"tilegym.ops.cutile_rs", false},
		{"tilegym.ops", false},
		{"tilegym.suites.liger.cutile.jsd", true},
		{"tilegym.suites.liger.ops", false},
	} {
		if _, got := dottedUnder(tc.name, mods); got != tc.want {
			t.Errorf("dottedUnder(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSkipsWhenUnavailable(t *testing.T) {
	p := &BackendSelectParams{
		Select:    []string{"tilegym.set_backend", "tilegym.backend.set_backend"},
		Available: []string{"tilegym.is_backend_available", "tilegym.backend.is_backend_available"},
		Skip:      []string{"pytest.skip"},
	}
	const head = "import pytest\nimport tilegym\nfrom tilegym.backend import set_backend, is_backend_available\n\ndef t(backend):\n"
	for _, tc := range []struct {
		name, body string
		want       bool
	}{
		{"try/except", "    try:\n        set_backend(backend)\n    except Exception:\n        pytest.skip('x')\n", true},
		{"if/else", "    if tilegym.is_backend_available(backend):\n        tilegym.set_backend(backend)\n    else:\n        pytest.skip('x')\n", true},
		{"if not", "    if backend == 'cutile' and not is_backend_available('cutile'):\n        pytest.skip('x')\n    set_backend(backend)\n", true},
		{"skip in the wrong branch", "    if is_backend_available(backend):\n        pytest.skip('x')\n", false},
		{"bare select", "    set_backend(backend)\n", false},
		{"except without skip", "    try:\n        set_backend(backend)\n    except Exception:\n        pass\n", false},
		{"skip unrelated to availability", "    if backend == 'x':\n        pytest.skip('x')\n    set_backend(backend)\n", false},
	} {
		x := indexOf(t, "tests/ops/test_x.py", head+tc.body)
		fd := x.Funcs["t"]
		if got := x.SkipsWhenUnavailable(fd.Body, p); got != tc.want {
			t.Errorf("%s: skipsWhenUnavailable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestResolveStrings(t *testing.T) {
	src := `import triton

SUFFIX = "-TFLOPS"


def _cfg(plot_name, ylabel="GB/s"):
    return triton.testing.Benchmark(plot_name=plot_name, ylabel=ylabel)


def other(dtype):
    name = f"gemm-{dtype}" + SUFFIX
    return triton.testing.Benchmark(plot_name=name, ylabel="TFLOPS")


CONFIGS = [_cfg("a-GBps"), _cfg(plot_name="b-TFLOPS", ylabel="TFLOPS")]
`
	x := indexOf(t, "tests/benchmark/bench_x.py", src)
	got := map[string][]string{}
	for _, name := range []string{"_cfg", "other"} {
		fd := x.Funcs[name]
		for _, c := range x.CallsTo(fd, []string{"triton.testing.Benchmark"}) {
			for _, kw := range []string{"plot_name", "ylabel"} {
				for _, r := range x.ResolveStrings(fd, astutil.CallArg(c, -1, kw), 0) {
					got[name+"."+kw] = append(got[name+"."+kw], r.Value)
				}
			}
		}
	}
	for k := range got {
		sort.Strings(got[k])
	}
	want := map[string][]string{
		"_cfg.plot_name":  {"a-GBps", "b-TFLOPS"},
		"_cfg.ylabel":     {"GB/s", "TFLOPS"},
		"other.plot_name": {"{}-TFLOPS"},
		"other.ylabel":    {"TFLOPS"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resolveStrings (-want +got):\n%s", diff)
	}
}

func TestBackendEntries(t *testing.T) {
	src := `ALL_BACKENDS = [
    ("cutile", "CuTile", ("orange", "-")) if is_backend_available("cutile") else None,
    ("torch", "PyTorch", ("green", "-")),
]
_backends = ["cutile"] + ["tilecpp"]
_backends += ["cutile-rs"]
`
	x := indexOf(t, "tests/benchmark/bench_x.py", src)
	var got []string
	for _, s := range listAssigns(x.Body(), []string{"ALL_BACKENDS", "_backends"}) {
		got = append(got, backendEntries(assignValue(s))...)
	}
	want := []string{"cutile", "torch", "cutile", "tilecpp", "cutile-rs"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("backendEntries (-want +got):\n%s", diff)
	}
}

func TestParametrizedArg(t *testing.T) {
	for _, tc := range []struct {
		dec, want string
	}{
		{`pytest.mark.parametrize("backend", _backends)`, "backend"},
		{`pytest.mark.parametrize("dtype, backend", [])`, "backend"},
		{`pytest.mark.parametrize(["m", "framework"], [])`, "framework"},
		{`pytest.mark.parametrize("backends", [])`, ""},
		{`pytest.mark.parametrize(argnames="backend", argvalues=[])`, "backend"},
	} {
		x := indexOf(t, "tests/ops/test_x.py", "x = "+tc.dec+"\n")
		c := x.Body()[0].(*ast.Assign).Value.(*ast.Call)
		if got := parametrizedArg(c, []string{"backend", "framework"}); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.dec, got, tc.want)
		}
	}
}

func TestCallSequenceInlinesHelpers(t *testing.T) {
	src := `import torch
import triton


def _check_and_time(fn, ref):
    torch.testing.assert_close(fn(), ref())
    return triton.testing.do_bench(fn)


def bench(fn, ref):
    return _check_and_time(fn, ref)
`
	x := indexOf(t, "tests/benchmark/bench_x.py", src)
	seq := x.CallSequence(funcScope{Def: x.Funcs["bench"]})
	ci := x.FirstEvent(seq, []string{"torch.testing.assert_close"})
	ti := x.FirstEvent(seq, []string{"triton.testing.do_bench"})
	if ci < 0 || ti < 0 || ci >= ti {
		t.Fatalf("check at %d, timer at %d: want the check first", ci, ti)
	}
	if seq[ti].At.Pos().Line != 11 {
		t.Errorf("timer reported at line %d, want the helper call on line 11", seq[ti].At.Pos().Line)
	}
}

func TestExpectedStepPath(t *testing.T) {
	tmpl := map[string]string{"core": "tests/ops/{pkg}test_{func}.py", "suites": "tests/suites/{suite}/test_{func}.py"}
	relu := &optable.Op{Name: "relu", Func: "relu", Scope: &layout.Scope{Name: "core"},
		Impls: []*optable.Impl{{Op: "relu", Backend: "cutile", Module: "activation.relu"}}}
	jsd := &optable.Op{Name: "liger.jsd", Func: "jsd", Suite: "liger", Scope: &layout.Scope{Name: "suites"}}
	for op, want := range map[*optable.Op]string{relu: "tests/ops/activation/test_relu.py", jsd: "tests/suites/liger/test_jsd.py"} {
		if got := ExpectedStepPath(tmpl, op); got != want {
			t.Errorf("%s: %q, want %q", op.Name, got, want)
		}
	}
	if got := ExpectedStepPath(map[string]string{}, relu); got != "" {
		t.Errorf("no template: %q", got)
	}
}

// TestKindsNeverPanicOnOddInput runs the Steps 4-6 kinds over files made of
// unusual but valid Python (no classes, empty bodies, decorators that are
// not calls, star-args) associated with an op.
func TestKindsNeverPanicOnOddInput(t *testing.T) {
	srcs := []string{
		"",
		"x = 1\n",
		"@pytest.mark.parametrize\ndef test_op(*a, **k):\n    pass\n",
		"class T:\n    _backends = None\n    def test_op(self):\n        ...\n",
		"def bench_softmax():\n    return\nbench_softmax.run()\nif __name__ == '__main__':\n    pass\n",
		"import triton\ntriton.testing.Benchmark(*a, **k)\ntriton.testing.Benchmark(plot_name=f'{x}', ylabel=y)\n",
		"ALL_BACKENDS = [None, (), (1,), *rest]\n_backends = _backends + foo()\n",
	}
	cat := steps456(t)
	for i, src := range srcs {
		for _, p := range []string{"tests/ops/test_softmax.py", "tests/benchmark/bench_softmax.py"} {
			x := indexOf(t, p, src)
			op := &optable.Op{Name: "softmax", Func: "softmax", Scope: &layout.Scope{Name: "core"}}
			if strings.Contains(p, "bench") {
				op.Benchmarks = []*source.File{x.File}
			} else {
				op.Tests = []*source.File{x.File}
			}
			tab := &optable.OpTable{Ops: []*optable.Op{op}, ByName: map[string]*optable.Op{"softmax": op}}
			for _, r := range cat.Rules {
				a := Kind(r.Kind)
				pass := &Pass{Analyzer: a, Repo: &optable.Repo{Snapshot: source.Snapshot{Files: map[string]*source.File{p: x.File}, Paths: []string{p}}}, Rules: cat.Rules[0:0],
					ResultOf: map[*Analyzer]any{optable.OpTableAnalyzer: tab}, Report: func(analysis.Diagnostic) {}}
				pass.Rules = append(pass.Rules, r)
				func() {
					defer func() {
						if e := recover(); e != nil {
							t.Errorf("src %d, %s, %s: panic: %v", i, p, r.ID, e)
						}
					}()
					if _, err := a.Run(pass); err != nil {
						t.Errorf("src %d, %s, %s: %v", i, p, r.ID, err)
					}
				}()
			}
		}
	}
}

func TestParamsValidate(t *testing.T) {
	// The catalog's own params are valid (steps456 fails otherwise);
	// zero values of every kind's params are not.
	steps456(t)
	for _, name := range []string{"step-file", "forbidden-import", "backend-list", "test-parametrize", "backend-select",
		"test-compares", "bench-decorator", "check-before-timing", "bench-timing", "bench-op-call", "bench-filter",
		"bench-reference", "call-keyword", "plot-name", "main-guard", "verify"} {
		a := Kind(name)
		if a == nil || a.Params == nil {
			t.Errorf("%s: not registered with params", name)
			continue
		}
		v, ok := a.Params().(interface{ Validate() error })
		if !ok {
			t.Errorf("%s: params have no Validate", name)
			continue
		}
		if v.Validate() == nil {
			t.Errorf("%s: zero params validate", name)
		}
	}
}

func TestTestParametrizeClassDecorator(t *testing.T) {
	src := `import pytest

_backends = ["cutile"]


@pytest.mark.parametrize("backend", _backends)
class TestA:
    def test_op(self, backend):
        pass


class TestB:
    def test_op(self, backend):
        pass
`
	x := indexOf(t, "tests/ops/test_softmax.py", src)
	op := &optable.Op{Name: "softmax", Func: "softmax", Scope: &layout.Scope{Name: "core"}, Tests: []*source.File{x.File}}
	tab := &optable.OpTable{Ops: []*optable.Op{op}, ByName: map[string]*optable.Op{"softmax": op}}
	cat := steps456(t)
	var lines []int
	for _, r := range cat.Rules {
		if r.Kind != "test-parametrize" {
			continue
		}
		pass := &Pass{Analyzer: TestParametrizeAnalyzer, Rules: cat.Rules[0:0], ResultOf: map[*Analyzer]any{optable.OpTableAnalyzer: tab},
			Report: func(d analysis.Diagnostic) { lines = append(lines, d.Pos.Line) }}
		pass.Rules = append(pass.Rules, r)
		if _, err := TestParametrizeAnalyzer.Run(pass); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]int{13}, lines); diff != "" {
		t.Errorf("findings on lines (-want +got):\n%s", diff)
	}
}

// steps456 returns the built-in catalog with its rules of Steps 4-6 only.
func steps456(t *testing.T) *rules.Catalog {
	t.Helper()
	cat, err := LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	out := *cat
	out.Rules = nil
	for _, r := range cat.Rules {
		if r.Step >= 4 {
			out.Rules = append(out.Rules, r)
		}
	}
	return &out
}

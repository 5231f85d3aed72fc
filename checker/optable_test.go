package checker

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/source"
)

// testLayout is the default layout of rules.toml, spelled out so the op
// table tests do not depend on the catalog loader.
func testLayout() *layout.Layout {
	return &layout.Layout{
		Exclude: []string{"**/__pycache__/**"},
		Include: []string{"src/tilegym/**/*.py"},
		Scopes: []*layout.Scope{
			{
				Name:       "core",
				Dispatch:   []string{"src/tilegym/ops/*.py"},
				CuTile:     "src/tilegym/ops/cutile",
				Tests:      []string{"tests/ops/**/test_*.py"},
				Benchmarks: []string{"tests/benchmark/bench_*.py", "tests/benchmark/experimental/**/bench_*.py"},
			},
			{
				Name:       "suites",
				Dispatch:   []string{"src/tilegym/suites/{suite}/ops.py"},
				Namespace:  "{suite}",
				CuTile:     "src/tilegym/suites/{suite}/cutile",
				Tests:      []string{"tests/suites/{suite}/**/test_*.py"},
				Benchmarks: []string{"tests/benchmark/suites/{suite}/**/bench_*.py"},
			},
		},
	}
}

func loadTestRepo(t *testing.T, dir string) *optable.Repo {
	t.Helper()
	repo, err := load.Load(&source.DiskSource{Dir: dir}, &config.Setup{Layout: testLayout()})
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func TestOpTableGood(t *testing.T) {
	repo := loadTestRepo(t, "../fixtures/good")
	for _, p := range repo.Paths {
		if f := repo.Files[p]; f.Err != nil {
			t.Fatalf("%s: %v", p, f.Err)
		}
	}
	tab := optable.BuildOpTable(repo)
	var names []string
	for _, op := range tab.Ops {
		names = append(names, op.Name)
	}
	if got, want := strings.Join(names, " "), "demo.scale relu silu_and_mul softmax"; got != want {
		t.Fatalf("ops = %q, want %q", got, want)
	}
	mods := map[string]string{}
	for _, op := range tab.Ops {
		if op.Stub.Def.Name != op.Func {
			t.Errorf("%s: Func %q, def %q", op.Name, op.Func, op.Stub.Def.Name)
		}
		impls := op.ImplsFor("cutile")
		if len(impls) != 1 {
			t.Errorf("%s: %d cutile impls", op.Name, len(impls))
			continue
		}
		mods[op.Name] = impls[0].Module
	}
	want := map[string]string{"demo.scale": "scale", "relu": "activation.relu", "silu_and_mul": "silu_and_mul", "softmax": "softmax"}
	for k, v := range want {
		if mods[k] != v {
			t.Errorf("%s: module %q, want %q", k, mods[k], v)
		}
	}
	var inits []string
	for _, in := range tab.Inits {
		inits = append(inits, in.File.Path)
		if strings.HasSuffix(in.File.Path, "ops/cutile/__init__.py") {
			if in.Block == nil {
				t.Errorf("%s: no block", in.File.Path)
			}
			var mi, all []string
			for _, x := range in.ModuleImports {
				if x.InBlock {
					mi = append(mi, x.Module)
				}
			}
			for _, c := range in.All {
				all = append(all, c.Value.(string))
			}
			if strings.Join(mi, ",") != "activation,silu_and_mul,softmax" || strings.Join(all, ",") != "silu_and_mul,softmax" {
				t.Errorf("root init: modules %v, __all__ %v", mi, all)
			}
		}
	}
	sort.Strings(inits)
	if len(inits) != 3 {
		t.Errorf("inits = %v", inits)
	}
}

// TestOpTableUpstream prints the op table of an upstream checkout named by
// $TILEGYM (a debugging aid; skipped without it).
func TestOpTableUpstream(t *testing.T) {
	dir := os.Getenv("TILEGYM")
	if dir == "" {
		t.Skip("TILEGYM not set")
	}
	repo := loadTestRepo(t, dir)
	tab := optable.BuildOpTable(repo)
	for _, op := range tab.Ops {
		var impls []string
		for _, im := range op.Impls {
			impls = append(impls, im.Backend+":"+im.File.Path+"("+im.Module+")")
		}
		var tests, benches []string
		for _, f := range op.Tests {
			tests = append(tests, f.Path)
		}
		for _, f := range op.Benchmarks {
			benches = append(benches, f.Path)
		}
		t.Logf("%s [%s] stubs=%d impls=%v\n   tests=%v\n   bench=%v skips=%v", op.Name, op.Scope.Name, len(op.Stubs), impls, tests, benches, op.Skips)
	}
	for _, im := range tab.Impls {
		if tab.ByName[im.Op] == nil {
			t.Logf("orphan %s %s %s", im.Op, im.Backend, im.File.Path)
		}
	}
}

func TestInitGuardForms(t *testing.T) {
	stub := "from tilegym.backend import dispatch\n\n@dispatch(\"softmax\")\ndef softmax(x, **kwargs):\n    raise NotImplementedError\n"
	mod := "import cuda.tile as ct\nfrom tilegym.backend import register_impl\n\n@register_impl(\"softmax\", backend=\"cutile\")\ndef softmax(x, **kwargs):\n    return x\n"
	for name, init := range map[string]string{
		"plain":   "from tilegym.backend import is_backend_available\nif is_backend_available(\"cutile\"):\n    from . import softmax\n",
		"and":     "import os\nfrom tilegym.backend import is_backend_available\nif is_backend_available(\"cutile\") and not os.environ.get(\"X\"):\n    from . import softmax\n",
		"negated": "import tilegym.backend as tb\nif not tb.is_backend_available(\"cutile\"):\n    __all__ = []\nelse:\n    from . import softmax\n",
	} {
		repo, err := load.Load(&testrepo.MapSource{Dir: name, Files: map[string]string{
			"src/tilegym/ops/ops.py":             stub,
			"src/tilegym/ops/cutile/__init__.py": init,
			"src/tilegym/ops/cutile/softmax.py":  mod,
		}}, &config.Setup{Layout: testLayout()})
		if err != nil {
			t.Fatal(err)
		}
		tab := optable.BuildOpTable(repo)
		if len(tab.Inits) != 1 || tab.Inits[0].Block == nil {
			t.Fatalf("%s: no block found", name)
		}
		in := tab.Inits[0]
		if len(in.ModuleImports) != 1 || !in.ModuleImports[0].InBlock || len(in.BlockBody) != 1 {
			t.Errorf("%s: imports %+v, block body %d", name, in.ModuleImports, len(in.BlockBody))
		}
	}
}

// TestExpectedStepPathSubPackage: an op whose cuTile module is in
// experimental/ is expected to have its test and benchmark under the
// layout's experimental directories; one in another sub-package (which the
// layout gives no directory of its own) at the top.
func TestExpectedStepPathSubPackage(t *testing.T) {
	cat := testrepo.Catalog(t)
	lay := config.NewSetup(cat, nil).Layout
	var core *layout.Scope
	for _, sc := range lay.Scopes {
		if sc.Name == "core" {
			core = sc
		}
	}
	if core == nil {
		t.Fatal("no core scope")
	}
	tmpl := map[string]string{"core": "tests/benchmark/{pkg}bench_{func}.py"}
	for module, want := range map[string]string{
		"experimental.fast_gelu": "tests/benchmark/experimental/bench_fast_gelu.py",
		"activation.fast_gelu":   "tests/benchmark/bench_fast_gelu.py",
		"fast_gelu":              "tests/benchmark/bench_fast_gelu.py",
	} {
		op := &optable.Op{Name: "fast_gelu", Func: "fast_gelu", Scope: core, Impls: []*optable.Impl{{Op: "fast_gelu", Backend: "cutile", Module: module}}}
		if got := checks.ExpectedStepPath(tmpl, op); got != want {
			t.Errorf("module %s: expected %s, want %s", module, got, want)
		}
	}
}

// A cuTile registration with no dispatch stub is an op being added, unless
// its name is a near miss of an op dispatched in the same scope and suite
// (a typo, TG206). The dup1 suite's registration is within the typo
// distance of the core op only by its suite prefix: it is dup1's own op.
func TestStublessOpsNearMissInOwnSuite(t *testing.T) {
	stub := func(name, fn string) string {
		return "from tilegym.backend import dispatch\n\n@dispatch(\"" + name + "\")\ndef " + fn + "(x, **kwargs):\n    raise NotImplementedError\n"
	}
	register := func(name, fn string) string {
		return "from tilegym.backend import register_impl\n\n@register_impl(\"" + name + "\", backend=\"cutile\")\ndef " + fn + "(x, **kwargs):\n    return x\n"
	}
	files := map[string]string{
		"src/tilegym/ops/ops.py":                     stub("invoke_fused_moe_kernel", "invoke_fused_moe_kernel"),
		"src/tilegym/ops/cutile/__init__.py":         "",
		"src/tilegym/ops/cutile/moe.py":              register("invoke_fused_moe_kernel", "invoke_fused_moe_kernel") + register("invoke_fused_moe_kernal", "typo"),
		"src/tilegym/suites/dup1/ops.py":             stub("dup1.scale", "scale"),
		"src/tilegym/suites/dup1/cutile/__init__.py": "",
		"src/tilegym/suites/dup1/cutile/moe.py":      register("dup1.invoke_fused_moe_kernel", "invoke_fused_moe_kernel") + register("dup1.scael", "scael"),
		"src/tilegym/suites/dup1/cutile/scale.py":    register("dup1.scale", "scale"),
	}
	repo, err := load.Load(&testrepo.MapSource{Dir: "mem", Files: files}, &config.Setup{Layout: testLayout()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, op := range optable.BuildOpTable(repo).Ops {
		got = append(got, fmt.Sprintf("%s stub=%v", op.Name, op.Stub != nil))
	}
	want := []string{"dup1.invoke_fused_moe_kernel stub=false", "dup1.scale stub=true", "invoke_fused_moe_kernel stub=true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ops (-want +got):\n%s", diff)
	}
}

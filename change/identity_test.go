package change

import (
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// TestFindingIdentity: an old finding stays pre-existing when only the code
// it is about or its message's wording changes, or lines are added above
// it; one more finding of the same rule in the same file is new. Each case
// is a commit on a repository whose base has the old finding, checked with
// --diff HEAD~1 (both the scoped check and the whole one).
func TestFindingIdentity(t *testing.T) {
	const (
		test  = "tests/ops/test_softmax.py"
		bench = "tests/benchmark/bench_softmax.py"
		ops   = "src/tilegym/ops/ops.py"
		impl  = "src/tilegym/ops/cutile/softmax.py"
	)
	// The base's old findings: softmax's test method does not call setUp
	// (TG405, naming the method), its benchmark's plot_name lacks the
	// suffix of its ylabel (TG510, quoting the ylabel), its cuTile
	// implementation requires dim where the stub defaults it (TG205,
	// quoting the stub's default).
	base := func(dir string) {
		testrepo.ReplaceInFile(t, dir, test, "        self.setUp()\n", "")
		testrepo.ReplaceInFile(t, dir, bench, `plot_name=f"softmax-M{M}-{dtype_name}-GBps"`, `plot_name=f"softmax-M{M}-{dtype_name}"`)
		testrepo.ReplaceInFile(t, dir, impl, "def softmax(x, dim=-1, out=None, **kwargs):", "def softmax(x, dim, out=None, **kwargs):")
	}
	type want struct {
		rule, method string // a finding of softmax (whose message names method, if set)
		pre          bool
	}
	for _, tc := range []struct {
		name string
		edit func(dir string)
		want []want
	}{
		{"test method renamed", func(dir string) {
			testrepo.ReplaceInFile(t, dir, test, "def test_op(", "def test_softmax_forward(")
		}, []want{{"TG205", "", true}, {"TG510", "", true}, {"TG405", "test_softmax_forward", true}}},
		{"ylabel changed", func(dir string) {
			testrepo.ReplaceInFile(t, dir, bench, `ylabel="GB/s"`, `ylabel="TFLOPS"`)
		}, []want{{"TG205", "", true}, {"TG510", "TFLOPS", true}, {"TG405", "", true}}},
		{"stub default changed beside an old drift", func(dir string) {
			testrepo.ReplaceInFile(t, dir, ops, "    dim: int = -1,\n", "    dim: Optional[int] = None,\n")
		}, []want{
			{"TG205", "defaults it to None", true},
			// The benchmark's reference defaults dim to -1: a new drift.
			{"TG205", "reference_softmax", false},
			{"TG510", "", true}, {"TG405", "", true}}},
		{"lines added above", func(dir string) {
			for _, f := range []string{test, bench, impl} {
				testrepo.ReplaceInFile(t, dir, f, "import torch\n", "# a comment\n\n# and another\nimport torch\n")
			}
		}, []want{{"TG205", "", true}, {"TG510", "", true}, {"TG405", "", true}}},
		{"code moved and reindented", func(dir string) {
			// The test method after a new helper, its body indented the
			// same: only its line moves.
			testrepo.ReplaceInFile(t, dir, test, "    @staticmethod\n", "    def helper(self):\n        return 1\n\n    @staticmethod\n")
		}, []want{{"TG205", "", true}, {"TG510", "", true}, {"TG405", "", true}}},
		{"a second finding of the rule in the file", func(dir string) {
			testrepo.AppendFile(t, dir, test, `
    @pytest.mark.parametrize("backend", _backends)
    def test_op_twice(self, backend):
        if backend == "cutile" and not is_backend_available("cutile"):
            pytest.skip("cuTile backend is not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend {backend} cannot be selected: {e}")
        from tilegym.ops import softmax

        x = torch.randn(8, 8, device="cuda")
        self.assertCorrectness(softmax, self.reference, {"x": x})
`)
		}, []want{{"TG205", "", true}, {"TG510", "", true}, {"TG405", "test_op must", true}, {"TG405", "test_op_twice", false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testrepo.GitRepo(t, "../fixtures/good", base)
			tc.edit(dir)
			testrepo.GitRun(t, dir, "commit", "-qam", tc.name)
			cat := testrepo.Catalog(t)
			setup := config.NewSetup(cat, nil)
			for _, byOps := range []bool{true, false} {
				ch, err := FromGit(dir, "HEAD~1", false)
				if err != nil {
					t.Fatal(err)
				}
				res, _, err := checkChange(ch, setup, checker.Options{}, byOps)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, d := range res.Diagnostics {
					if d.Op == "softmax" {
						got = append(got, checker.FormatDiagnostic(d)+" pre="+map[bool]string{true: "yes", false: "no"}[d.PreExisting])
					}
				}
				if len(got) != len(tc.want) {
					t.Fatalf("byOps=%v: %d findings of softmax, want %d:\n%s", byOps, len(got), len(tc.want), strings.Join(got, "\n"))
				}
				for i, w := range tc.want {
					d := res.Diagnostics[0]
					n := -1
					for _, x := range res.Diagnostics {
						if x.Op == "softmax" {
							if n++; n == i {
								d = x
								break
							}
						}
					}
					if d.Rule.ID != w.rule || !strings.Contains(d.Message, w.method) || d.PreExisting != w.pre {
						t.Errorf("byOps=%v: finding %d is %s, want %s naming %q with pre-existing %v", byOps, i, got[i], w.rule, w.method, w.pre)
					}
				}
			}
		})
	}
}

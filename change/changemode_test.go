package change

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/rules"
)

// TestChangeMode builds a repository with two commits and uncommitted and
// staged edits, and checks which ops and findings change mode reports.
func TestChangeMode(t *testing.T) {
	dir := testrepo.GitRepo(t, "../fixtures/good", func(dir string) {
		testrepo.WriteFile(t, dir, "tests/ops/test_zz_broken.py", testrepo.BrokenPy)
	})
	// Commit 2: break the softmax stub (drop **kwargs), touch the broken
	// file (still broken: its finding is pre-existing).
	ops, err := os.ReadFile(filepath.Join(dir, "src/tilegym/ops/ops.py"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(ops), "    out: Optional[torch.Tensor] = None,\n    **kwargs: Any,\n):", "    out: Optional[torch.Tensor] = None,\n):", 1)
	if broken == string(ops) {
		t.Fatal("fixture changed: cannot find the softmax stub's **kwargs")
	}
	testrepo.WriteFile(t, dir, "src/tilegym/ops/ops.py", broken)
	testrepo.WriteFile(t, dir, "tests/ops/test_zz_broken.py", testrepo.BrokenPy+"# more\n")
	testrepo.GitRun(t, dir, "commit", "-qam", "edit")

	cat := testrepo.Catalog(t)
	setup := config.NewSetup(cat, nil)
	ch, err := FromGit(dir, "HEAD~1", false)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(ch.Files, []string{"src/tilegym/ops/ops.py", "tests/ops/test_zz_broken.py"}) {
		t.Errorf("changed files = %v", ch.Files)
	}
	res, err := Check(ch, setup, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantOps(t, res, "touched", "softmax")
	var newSoftmax, preTG001 int
	for _, d := range res.Diagnostics {
		switch {
		case d.Op == "softmax" && !d.PreExisting:
			newSoftmax++
		case d.Op == "softmax":
			// a finding softmax already had at the base
		case d.Rule.ID == "TG001" && d.PreExisting:
			preTG001++
		default:
			t.Errorf("unexpected finding %s pre_existing=%v", checker.FormatDiagnostic(d), d.PreExisting)
		}
	}
	if newSoftmax == 0 || preTG001 != 1 {
		t.Errorf("new softmax findings = %d (want > 0), pre-existing TG001 = %d (want 1)", newSoftmax, preTG001)
	}
	if res.Ops[0].Steps[0].Status != checker.StatusFail {
		t.Errorf("softmax step 1 = %s, want fail", res.Ops[0].Steps[0].Status)
	}

	// An uncommitted edit of silu_and_mul's test adds that op.
	testFile := filepath.Join(dir, "tests/ops/test_silu_and_mul.py")
	data, err := os.ReadFile(testFile)
	if err != nil {
		t.Fatal(err)
	}
	testrepo.WriteFile(t, dir, "tests/ops/test_silu_and_mul.py", string(data)+"\n# edited\n")
	ch, err = FromGit(dir, "HEAD~1", false)
	if err != nil {
		t.Fatal(err)
	}
	res, err = Check(ch, setup, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantOps(t, res, "with an uncommitted edit", "silu_and_mul", "softmax")

	// Deleting relu's benchmark touches relu, whose files are known from the base.
	testrepo.GitRun(t, dir, "rm", "-q", "tests/benchmark/bench_relu.py")
	ch, err = FromGit(dir, "HEAD~1", false)
	if err != nil {
		t.Fatal(err)
	}
	if !ch.Deleted["tests/benchmark/bench_relu.py"] {
		t.Errorf("deleted files = %v", ch.Deleted)
	}
	res, err = Check(ch, setup, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantOps(t, res, "with a deleted benchmark", "relu", "silu_and_mul", "softmax")
	testrepo.GitRun(t, dir, "reset", "-q", "HEAD", "--", "tests/benchmark/bench_relu.py")
	testrepo.GitRun(t, dir, "checkout", "-q", "--", "tests/benchmark/bench_relu.py")

	// Staged: only what is in the index, against HEAD.
	testrepo.GitRun(t, dir, "add", "tests/ops/test_silu_and_mul.py")
	testrepo.WriteFile(t, dir, "tests/ops/test_softmax.py", "# unstaged edit\n")
	ch, err = FromGit(dir, "", true)
	if err != nil {
		t.Fatal(err)
	}
	res, err = Check(ch, setup, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantOps(t, res, "staged", "silu_and_mul")
	for _, d := range res.Diagnostics {
		if d.Op == "softmax" && !d.PreExisting {
			t.Errorf("staged: the committed softmax break is not part of the staged change: %s", checker.FormatDiagnostic(d))
		}
	}
}

func TestGitChangeErrors(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	if _, err := FromGit(t.TempDir(), "HEAD", false); err == nil {
		t.Error("FromGit outside a repository succeeded")
	}
	var le rules.ErrorList
	_ = errors.As(nil, &le)
}

// TestChangeModeSubdir: the checked root is a subdirectory of the git
// repository (as fixtures are in this one).
func TestChangeModeSubdir(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	top := t.TempDir()
	root := filepath.Join(top, "sub", "checkout")
	testrepo.CopyDir(t, "../fixtures/good", root)
	testrepo.WriteFile(t, top, "other/x.py", "x = 1\n")
	testrepo.GitRun(t, top, "init", "-q")
	testrepo.GitRun(t, top, "add", ".")
	testrepo.GitRun(t, top, "commit", "-qm", "base")
	data, err := os.ReadFile(filepath.Join(root, "tests/ops/test_softmax.py"))
	if err != nil {
		t.Fatal(err)
	}
	testrepo.WriteFile(t, root, "tests/ops/test_softmax.py", string(data)+"\n# edited\n")
	testrepo.WriteFile(t, top, "other/x.py", "x = 2\n")
	ch, err := FromGit(root, "HEAD", false)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(ch.Files, []string{"tests/ops/test_softmax.py"}) {
		t.Errorf("files %v", ch.Files)
	}
	cat := testrepo.Catalog(t)
	res, err := Check(ch, config.NewSetup(cat, nil), checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantOps(t, res, "checked from a subdirectory", "softmax")
	for _, d := range res.Diagnostics {
		if !d.PreExisting {
			t.Errorf("new finding from an edit that adds a comment: %s", checker.FormatDiagnostic(d))
		}
	}
}

// TestUnusedSuppressionChangeMode: in change mode a shared file's unused
// suppression is reported only when the whole check ran.
func TestUnusedSuppressionChangeMode(t *testing.T) {
	dir := testrepo.PreRepo(t, func(string) {})
	// The change: a test of softmax only, with an unused suppression.
	p := filepath.Join(dir, "tests/ops/test_softmax.py")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	testrepo.WriteFile(t, dir, "tests/ops/test_softmax.py", string(data)+"# noqa: TG401\n")
	cat := testrepo.Catalog(t)
	res, err := CheckGit(dir, "HEAD", false, config.NewSetup(cat, nil), checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Diagnostics {
		if d.Rule.Kind == "suppression" {
			got = append(got, d.Rule.ID+" "+d.File)
		}
	}
	if len(got) != 1 || got[0] != "TG007 tests/ops/test_softmax.py" {
		t.Errorf("change mode: %v, want the test file's unused noqa", got)
	}
}

// wantOps fails the test unless the result reports exactly the ops named,
// in order.
func wantOps(t *testing.T, res *checker.Result, what string, want ...string) {
	t.Helper()
	got := make([]string, len(res.Ops))
	for i, o := range res.Ops {
		got[i] = o.Name
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: ops %v, want %v", what, got, want)
	}
}

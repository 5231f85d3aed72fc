package change

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// A skill family's finding (K01, in a module of no op) stays pre-existing
// when its file moves with an edit elsewhere in it, and a new one in the
// moved file is new.
func TestChangeFamilyFindingMoved(t *testing.T) {
	const old = "src/tilegym/kernel_helpers.py"
	const src = "import cuda.tile as ct\n\n\n@ct.kernel\ndef swish_kernel(x, out):\n    t = ct.load(x, index=(0,), shape=(16,))\n    ct.store(out, index=(0,), tile=t * ct.sigmoid(t))\n"
	dir := testrepo.PreRepo(t, func(dir string) {
		testrepo.WriteFile(t, dir, old, src)
	})
	if got := changeFindings(t, dir, "HEAD", false); len(got) != 0 {
		t.Fatalf("no change: %q", got)
	}
	const moved = "src/tilegym/helpers/kernel_helpers.py"
	if err := os.MkdirAll(filepath.Join(dir, "src/tilegym/helpers"), 0o755); err != nil {
		t.Fatal(err)
	}
	testrepo.GitRun(t, dir, "mv", old, moved)
	testrepo.AppendFile(t, dir, moved, "\n# moved\n")
	testrepo.GitRun(t, dir, "add", moved)
	want := []string{moved + " K01 pre"}
	if got := changeFindings(t, dir, "HEAD", false); !slices.Equal(got, want) {
		t.Errorf("moved: %q, want %q", got, want)
	}
	testrepo.AppendFile(t, dir, moved, "\n\n@ct.kernel\ndef silu_kernel(x, out):\n    t = ct.load(x, index=(0,), shape=(16,))\n    ct.store(out, index=(0,), tile=ct.silu(t))\n")
	want = []string{moved + " K01", moved + " K01 pre"}
	if got := changeFindings(t, dir, "HEAD", false); !slices.Equal(got, want) {
		t.Errorf("moved and a new finding: %q, want %q", got, want)
	}
}

package optable_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/corpus"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/optable"
)

// The skip directives of a stub's lines are looked up in its file's
// directives, read once; the scan of every comment they replace must find
// the same, on every fixture and on TileGym.
func TestSkipsInMatchesScan(t *testing.T) {
	corpus.Agree(t, "windows", 1000, func(repo *optable.Repo, _ *layout.Layout) ([]string, int) {
		return optable.SkipsInMismatches(repo)
	})
}

// Building the op table reads each comment of a dispatch file a bounded
// number of times however many stubs it holds: reading all of the file's
// comments for each stub's skip directives made it quadratic in the stubs.
// Work is counted, not timed.
func TestSkipCommentsReadOncePerFile(t *testing.T) {
	perOp := func(n int) float64 {
		dir := t.TempDir()
		testrepo.CopyDir(t, "../fixtures/good", dir)
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "\n\n# tilegym-lint: skip-step=5 reason=\"later\"\n@dispatch(\"gen_%d\")\ndef gen_%d(x, **kwargs):  # a comment\n    raise NotImplementedError\n", i, i)
		}
		testrepo.AppendFile(t, dir, "src/tilegym/ops/ops.py", b.String())
		repo, _ := corpus.Load(t, dir)
		before := optable.CommentsScanned()
		tab := optable.BuildOpTable(repo)
		read := optable.CommentsScanned() - before
		if op := tab.ByName[fmt.Sprintf("gen_%d", n-1)]; op == nil || len(op.Skips) != 1 {
			t.Fatalf("gen_%d: want one skip directive, got op %v", n-1, op)
		}
		return float64(read) / float64(n)
	}
	small, large := perOp(100), perOp(400)
	t.Logf("%.1f comments read per op with 100 ops, %.1f with 400", small, large)
	if large > 1.1*small {
		t.Errorf("building the op table reads %.1f comments per op with 400 ops in one file, %.1f with 100", large, small)
	}
}

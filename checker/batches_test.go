package checker

import (
	"testing"

	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// TestCheckInBatches checks that a whole check in batches reports exactly
// what the check at once reports (same JSON: findings, verdicts, ops), in 2
// and 3 batches and in one batch per op, on every fixture and on the
// TileGym tree when present ($TILEGYM_LINT_BENCH_TREE, default
// /work/tilegym).
func TestCheckInBatches(t *testing.T) {
	cat := testrepo.Catalog(t)
	forEachCheckout(t, cat, func(t *testing.T, c *checkout) {
		src, lay, cfg, whole := c.src, c.lay, c.cfg, c.whole
		want := jsonOf(t, whole)
		for _, k := range []int{2, 3, len(whole.Table.Ops) + 1} {
			got, err := checkWhole(src, lay, cat, cfg, k)
			if err != nil {
				t.Fatal(err)
			}
			if gj := jsonOf(t, got); gj != want {
				t.Errorf("%d batches: the check in batches differs from the check at once:\n got: %s\nwant: %s", k, gj, want)
			}
			if len(got.Errors) != len(whole.Errors) {
				t.Errorf("%d batches: %d analyzer errors, want %d", k, len(got.Errors), len(whole.Errors))
			}
			if len(got.Table.Ops) != len(whole.Table.Ops) {
				t.Errorf("%d batches: %d ops in the table, want %d", k, len(got.Table.Ops), len(whole.Table.Ops))
			}
		}
	})
}

// TestBatchCount: a checkout under BatchFrom is checked at once; a larger
// one in batches of about batchBytes, at most maxBatches.
func TestBatchCount(t *testing.T) {
	for _, c := range []struct {
		size int64
		want int
	}{{0, 1}, {BatchFrom - 1, 1}, {BatchFrom, BatchFrom / batchBytes}, {20 << 20, 5}, {1 << 40, maxBatches}} {
		if got := batchCount(c.size); got != c.want {
			t.Errorf("batchCount(%d) = %d, want %d", c.size, got, c.want)
		}
	}
}

package checker

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/optable"
)

// TestCheckInBatches checks that a whole check in batches reports exactly
// what the check at once reports (same JSON: findings, verdicts, ops), in 2
// and 3 batches and in one batch per op, on every fixture and on the
// TileGym tree when present ($TILEGYM_LINT_TREE).
func TestCheckInBatches(t *testing.T) {
	cat := testrepo.Catalog(t)
	forEachCheckout(t, cat, func(t *testing.T, c *checkout) {
		src, lay, cfg, whole := c.src, c.lay, c.cfg, c.whole
		want := jsonOf(t, whole)
		for _, k := range []int{2, 3, len(whole.Table.Ops) + 1} {
			got, err := checkWhole(src, &config.Setup{Catalog: cat, Config: cfg, Layout: lay}, k)
			if err != nil {
				t.Fatal(err)
			}
			if gj := jsonOf(t, got); gj != want {
				t.Errorf("%d batches: the check in batches differs from the check at once:\n got: %s\nwant: %s", k, gj, want)
			}
			if len(got.Errors) != len(whole.Errors) {
				t.Errorf("%d batches: %d analyzer errors, want %d", k, len(got.Errors), len(whole.Errors))
			}
			if diff := cmp.Diff(tableFacts(whole.Table), tableFacts(got.Table)); diff != "" {
				t.Errorf("%d batches: the op table's registrations and inits differ (-at once +in batches):\n%s", k, diff)
			}
			if diff := cmp.Diff(findingFacts(whole), findingFacts(got)); diff != "" {
				t.Errorf("%d batches: the findings' subjects, fingerprints or fixes differ (-at once +in batches):\n%s", k, diff)
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
	}{{0, 1}, {BatchFrom - 1, 1}, {BatchFrom, (BatchFrom + batchBytes - 1) / batchBytes}, {20 << 20, 5}, {1 << 40, maxBatches}} {
		if got := batchCount(c.size); got != c.want {
			t.Errorf("batchCount(%d) = %d, want %d", c.size, got, c.want)
		}
	}
}

// findingFacts is what the reports say of each finding beyond
// Result.String: its subject (a family without steps), the fingerprint of
// its line and its fixes.
func findingFacts(res *Result) []string {
	var out []string
	for _, d := range res.Diagnostics {
		out = append(out, fmt.Sprintf("%s subject=%q fingerprint=%s fixes=%+v", FormatDiagnostic(d), d.Subject, d.Fingerprint, d.Fixes))
	}
	return out
}

// tableFacts is what an op table's registrations and cuTile inits say
// apart from syntax nodes: what change mode reads of a check's table.
func tableFacts(t *optable.OpTable) []string {
	var out []string
	for _, im := range t.Impls {
		out = append(out, fmt.Sprintf("impl %s %s %s %s %v-%v", im.Op, im.Backend, im.File.Path, im.Module, im.Pos, im.End))
	}
	for _, in := range t.Inits {
		out = append(out, fmt.Sprintf("init %s %d %d", in.File.Path, len(in.ModuleImports), len(in.FuncImports)))
	}
	for _, op := range t.Ops {
		out = append(out, fmt.Sprintf("op %s %s %d impls %d tests %d benchmarks %d skips", op.Name, op.Func, len(op.Impls), len(op.Tests), len(op.Benchmarks), len(op.Skips)))
	}
	return out
}

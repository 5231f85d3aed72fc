package checker

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"

	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
)

// The policy filters the findings in their own array: when it runs every
// tree of the check is live, and each copy of a large list of findings
// raised the peak of the run. Its allocations (the duplicate set, a flag
// per finding) stay under the size of one copy of the list.
func TestPolicyFiltersInPlace(t *testing.T) {
	r := &rules.Rule{ID: "TG999", Severity: rules.Error, Message: "{op}: m"}
	const n = 4000
	ds := make([]analysis.Diagnostic, 0, n)
	for i := 0; i < n; i++ {
		ds = append(ds, analysis.Diagnostic{Rule: r, Op: fmt.Sprintf("op%d", i%7), File: fmt.Sprintf("src/m%d.py", i%50),
			Pos: config.PosLine(i + 1), End: config.PosLine(i + 1), Message: "m"})
	}
	ds = append(ds, ds[:10]...) // duplicates, dropped
	repo := &optable.Repo{}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, _ := applyPolicy(repo, ds, nil, newSuppressions(repo))
	runtime.ReadMemStats(&after)
	if len(out) != n {
		t.Fatalf("%d findings after the policy, want %d", len(out), n)
	}
	for i := 1; i < len(out); i++ {
		if a, b := out[i-1], out[i]; a.File > b.File || a.File == b.File && a.Pos.Line >= b.Pos.Line {
			t.Fatalf("findings %d and %d out of order", i-1, i)
		}
	}
	one := uint64(n) * uint64(unsafe.Sizeof(analysis.Diagnostic{}))
	if got := after.TotalAlloc - before.TotalAlloc; got > one {
		t.Errorf("the policy allocated %d bytes for %d findings, more than one copy of them (%d)", got, n, one)
	}
}

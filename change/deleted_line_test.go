package change

import (
	"testing"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// TestDeletedInitLineChargedToItsOp: deleting one of an op's lines from
// the cuTile __init__.py (the module import S3.1 names, the function
// import, the __all__ entry) reports that op, failing Step 3 with a new
// finding, and no other op: the lines beside the deleted one belong to
// their own ops, which the change did not touch.
func TestDeletedInitLineChargedToItsOp(t *testing.T) {
	const init = "src/tilegym/ops/cutile/__init__.py"
	cat := testrepo.Catalog(t)
	setup := config.NewSetup(cat, nil)
	for _, tt := range []struct{ line, op, rule string }{
		{"    from . import softmax\n", "softmax", "TG301"},
		{"    from . import silu_and_mul\n", "silu_and_mul", "TG301"},
		{"    from .softmax import softmax\n", "softmax", "TG303"},
		{"    from .silu_and_mul import silu_and_mul\n", "silu_and_mul", "TG303"},
		{"        \"softmax\",\n", "softmax", "TG304"},
		{"        \"silu_and_mul\",\n", "silu_and_mul", "TG304"},
	} {
		dir := testrepo.GitRepo(t, "../fixtures/good", nil)
		testrepo.ReplaceInFile(t, dir, init, tt.line, "")
		for _, staged := range []bool{false, true} {
			if staged {
				testrepo.GitRun(t, dir, "add", "-A")
			}
			res, err := CheckGit(dir, "", staged, setup, checker.Options{})
			if err != nil {
				t.Fatal(err)
			}
			what := "deleting " + tt.line
			wantOps(t, res, what, tt.op)
			found := false
			for _, d := range res.Diagnostics {
				if d.Op != tt.op && !d.PreExisting {
					t.Errorf("%s: a new finding of another op: %s", what, checker.FormatDiagnostic(d))
				}
				if d.Op == tt.op && d.Rule.ID == tt.rule && !d.PreExisting {
					found = true
				}
			}
			if !found || len(res.Ops) != 1 || res.Ops[0].Steps[2].Status != checker.StatusFail {
				t.Errorf("%s: want %s failing Step 3 with a new %s; got %v", what, tt.op, tt.rule, res.Diagnostics)
			}
		}
	}
}

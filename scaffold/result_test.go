package scaffold

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilegym/tilegym-lint/fix"
)

// TestResultWrite: a dry run shows each new file's content indented and
// each edited file's diff; a run names them; both end with the next steps.
func TestResultWrite(t *testing.T) {
	r := &Result{
		Dispatch:  "demo.op",
		Created:   []NewFile{{Path: "a.py", Content: "x = 1\n\ny = 2"}},
		Edited:    []fix.FileChange{{File: "ops.py", Diff: "--- a/ops.py\n+++ b/ops.py\n"}},
		NextSteps: []string{"write the kernel"},
	}
	var dry, real bytes.Buffer
	r.Write(&dry, true)
	r.Write(&real, false)
	wantDry := "would create a.py\n    x = 1\n    \n    y = 2would edit ops.py\n--- a/ops.py\n+++ b/ops.py\n\nNext steps for demo.op:\n  - write the kernel\n"
	if diff := cmp.Diff(wantDry, dry.String()); diff != "" {
		t.Errorf("dry run (-want +got):\n%s", diff)
	}
	wantReal := "created a.py\nedited ops.py\n\nNext steps for demo.op:\n  - write the kernel\n"
	if diff := cmp.Diff(wantReal, real.String()); diff != "" {
		t.Errorf("run (-want +got):\n%s", diff)
	}
}

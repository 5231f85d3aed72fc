package change

import (
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// TestRun: a whole check of a directory with no op is an error
// (NotACheckout), a check of files there is not; change mode says what it
// compared; the hook's mode checks the change whole, not the files given.
func TestRun(t *testing.T) {
	s := config.NewSetup(testrepo.Catalog(t), nil)
	empty := t.TempDir()
	if _, err := Run(&checker.Target{Root: empty}, &Mode{}, s, checker.Options{}); err == nil || !strings.Contains(err.Error(), "no op found") {
		t.Errorf("whole check of an empty directory: %v, want no op found", err)
	}
	if _, err := Run(&checker.Target{Root: empty, Files: []string{"a.py"}}, &Mode{}, s, checker.Options{}); err != nil {
		t.Errorf("check of files of no op: %v", err)
	}

	dir := testrepo.PreRepo(t, nil)
	testrepo.ReplaceInFile(t, dir, "src/tilegym/ops/cutile/__init__.py", "    from .softmax import softmax\n", "")
	m := &Mode{Base: "HEAD"}
	res, err := Run(&checker.Target{Root: dir}, m, s, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(m.Checked, "HEAD (") || res.Root != dir {
		t.Errorf("change mode: compared %q, root %q", m.Checked, res.Root)
	}
	if len(res.Ops) != 1 || res.Ops[0].Name != "softmax" {
		t.Errorf("change mode reports %v, want softmax alone", res.Ops)
	}
	tg := &checker.Target{Root: dir, Files: []string{"tests/ops/test_softmax.py"}}
	if _, err := Run(tg, &Mode{Base: "HEAD", Hook: true, Checked: "x"}, s, checker.Options{}); err != nil || tg.Files != nil {
		t.Errorf("hook mode: files %v, %v; want the change whole", tg.Files, err)
	}
}

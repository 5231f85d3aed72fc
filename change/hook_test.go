package change

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// PlanHook: before the first commit, the index whole; at git commit
// (GIT_INDEX_FILE), the staged change; else the branch against --base, or
// the uncommitted changes when no default branch has a merge base.
func TestPlanHook(t *testing.T) {
	for _, v := range []string{"PRE_COMMIT_FROM_REF", "GIT_INDEX_FILE"} {
		t.Setenv(v, "") // restored after the test
		os.Unsetenv(v)
	}
	first := t.TempDir()
	testrepo.CopyDir(t, "../fixtures/good", first)
	testrepo.GitRun(t, first, "init", "-q")
	p, err := PlanHook(first, nil, "")
	if err != nil || !p.Initial || p.Staged || p.Base != "" {
		t.Errorf("first commit: %+v, %v; want the index whole", p, err)
	}

	dir := testrepo.PreRepo(t, nil)
	head := strings.TrimSpace(testrepo.GitRun(t, dir, "rev-parse", "HEAD"))
	p, err = PlanHook(dir, nil, "")
	if err != nil || p.Base != "HEAD" || p.Staged || !strings.Contains(p.Note, "the uncommitted changes against HEAD ("+head[:12]+")") {
		t.Errorf("no default branch: %+v, %v; want the uncommitted changes", p, err)
	}
	p, err = PlanHook(dir, nil, "HEAD")
	if err != nil || p.Base != "HEAD" || !strings.HasPrefix(p.Note, "the branch's change against HEAD") {
		t.Errorf("--base HEAD: %+v, %v", p, err)
	}
	if _, err := PlanHook(dir, nil, "no-such-branch"); err == nil || !strings.Contains(err.Error(), "--base no-such-branch") {
		t.Errorf("--base of no revision: %v", err)
	}
	t.Setenv("GIT_INDEX_FILE", filepath.Join(dir, ".git", "index"))
	p, err = PlanHook(dir, nil, "")
	if err != nil || !p.Staged || p.Base != "" || !strings.Contains(p.Note, "the staged change against HEAD") {
		t.Errorf("at git commit: %+v, %v; want the staged change", p, err)
	}
}

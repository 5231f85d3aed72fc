package change

import (
	"errors"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
)

// TestGitNotFound: with no git in PATH, change mode says so (not "not in
// a git repository").
func TestGitNotFound(t *testing.T) {
	dir := testrepo.IndexRepo(t)
	t.Setenv("PATH", t.TempDir())
	for _, staged := range []bool{false, true} {
		_, err := FromGit(dir, "HEAD", staged)
		if !errors.Is(err, git.ErrNotFound) || strings.Contains(err.Error(), "not in a git repository") {
			t.Errorf("staged=%v: err = %v, want ErrGitNotFound", staged, err)
		}
	}
}

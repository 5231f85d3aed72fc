package checker

import (
	"errors"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/source"
)

// unreadable is a snapshot whose listing fails on an unreadable directory,
// as DiskSource's does (TestUnreadableDir in the source package).
type unreadable struct{ source.Source }

func (unreadable) List() ([]string, error) {
	return nil, &source.UnreadableDirError{Dir: "tests/ops/activation", Err: errors.New("permission denied")}
}

// TestUnreadableDirStopsCheck: an unreadable directory is an error of the
// check, whole or of one op, not a directory skipped without a word.
func TestUnreadableDirStopsCheck(t *testing.T) {
	cat := testrepo.Catalog(t)
	setup := config.NewSetup(cat, nil)
	for _, ops := range [][]string{nil, {"silu_and_mul"}} {
		_, err := CheckSource(unreadable{&source.DiskSource{Dir: "../fixtures/good"}}, setup, Options{Ops: ops})
		var ue *source.UnreadableDirError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "cannot read directory tests/ops/activation") {
			t.Errorf("ops %v: error %v, want one naming tests/ops/activation", ops, err)
		}
	}
}

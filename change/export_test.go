package change

import (
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
)

// Check lints the change's snapshot (working tree or index) and the
// merge base's, keeps the ops the change touches and the ops with a new
// finding in a changed file (a shared file the change broke), and marks
// every finding the op already had at the base pre-existing.
//
// Both snapshots are read whole, but when the change leaves the files every
// op shares alone (dispatch files, __init__s, interface modules, the
// configuration), only the files of the ops the changed files belong to
// are parsed and checked (see checkChangeOps); the result is the same.
func Check(ch *Change, s *config.Setup, opts checker.Options) (*checker.Result, error) {
	res, _, err := checkChange(ch, s, opts, true)
	return res, err
}

// checkChange is Check; with byOps false it checks the whole
// snapshots. It reports whether it checked only the ops of the change.
func checkChange(ch *Change, s *config.Setup, opts checker.Options, byOps bool) (*checker.Result, bool, error) {
	return checkChangeWith(ch, s, opts, byOps, nil)
}

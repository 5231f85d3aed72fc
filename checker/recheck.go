package checker

import (
	"github.com/tilegym/tilegym-lint/analysis"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/optable"
)

// CheckUntilRead runs check on repo, a loader's snapshot parsed in part
// (for the ops of want; nil: as it is), and, while a finding it reports (of
// those keep accepts, nil for all) is located in or relates to a file not
// parsed (whose parse error would have dropped the finding, see
// blameParseErrors), parses those files and checks again. The result of
// check is of any type T; findings returns its findings.
func CheckUntilRead[T any](l *load.Loader, repo *optable.Repo, want map[string]bool, check func(*optable.Repo) (T, error), findings func(T) []analysis.Diagnostic, keep func(analysis.Diagnostic) bool) (T, error) {
	for {
		res, err := check(repo)
		if err != nil {
			return res, err
		}
		var files []string
		for _, d := range findings(res) {
			if keep != nil && !keep(d) {
				continue
			}
			files = append(files, d.File)
			for _, r := range d.Related {
				files = append(files, r.File)
			}
		}
		if !l.ParseMore(files) {
			return res, nil
		}
		repo.Table = nil
		if want != nil {
			repo = l.CloseOver(want)
		}
	}
}

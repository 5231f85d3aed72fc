package change

import (
	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/source"
)

// CheckTree checks the checkout at root as the command line asks: in
// change mode (a base, or staged) the change CheckGit reads, narrowed to
// opts.Files when given; with initial (the pre-commit hook's plan for the
// first commit) the index whole; else the working tree.
func CheckTree(root, base string, staged, initial bool, s *config.Setup, opts checker.Options) (*checker.Result, error) {
	if base != "" || staged {
		res, err := CheckGit(root, base, staged, s, checker.Options{Ops: opts.Ops})
		if err != nil {
			return nil, err
		}
		if opts.Files != nil {
			res.NarrowToFiles(opts.Files)
		}
		return res, nil
	}
	if initial {
		src, err := git.Index(root)
		if err != nil {
			return nil, err
		}
		return checker.CheckSource(src, s, opts)
	}
	return checker.CheckSource(&source.DiskSource{Dir: root}, s, opts)
}

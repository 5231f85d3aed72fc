package change

import (
	"path/filepath"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/source"
)

// Mode is what a check of a checkout compares: nothing (the working tree
// whole), or a change (--diff, --staged, or what the pre-commit hook
// chose).
type Mode struct {
	Base   string // the base of the change (CheckGit's base); "" for HEAD
	Staged bool   // the index, not the working tree
	// Initial: the hook at the repository's first commit; the index is
	// checked whole.
	Initial bool
	Hook    bool   // chosen by the pre-commit hook (HookMode)
	Checked string // what was compared, for the reports; "" for a whole check
}

// Changed reports whether the mode is change mode.
func (m *Mode) Changed() bool { return m.Base != "" || m.Staged }

// HookMode is the mode the pre-commit hook chooses (PlanHook) for the
// repository at root, the files pre-commit passed and --base.
func HookMode(root string, files []string, base string) (*Mode, error) {
	p, err := PlanHook(root, files, base)
	if err != nil {
		return nil, err
	}
	return &Mode{Base: p.Base, Staged: p.Staged, Initial: p.Initial, Hook: true, Checked: p.Note}, nil
}

// Run checks the target t as the command line asks: in change mode the
// change CheckGit reads, narrowed to t.Files when given (the hook's mode
// checks the change whole); with m.Initial the index whole; else the
// working tree. It says in m.Checked what a change was compared with. A
// whole check of a root that is no checkout is an error (NotACheckout).
func Run(t *checker.Target, m *Mode, s *config.Setup, opts checker.Options) (*checker.Result, error) {
	if m.Hook {
		t.Files = nil // the change says which ops to check
	}
	opts.Files = t.Files
	if m.Changed() && m.Checked == "" {
		m.Checked = DescribeBase(t.Root, m.Base, m.Staged)
	}
	res, err := checkTree(t.Root, m, s, opts)
	if err != nil {
		return nil, err
	}
	res.Root = filepath.ToSlash(t.Root)
	if !m.Changed() && t.Files == nil && !m.Hook {
		if err := checker.NotACheckout(t.Root, s, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// checkTree checks the checkout at root in mode m.
func checkTree(root string, m *Mode, s *config.Setup, opts checker.Options) (*checker.Result, error) {
	if m.Changed() {
		res, err := CheckGit(root, m.Base, m.Staged, s, checker.Options{Ops: opts.Ops})
		if err != nil {
			return nil, err
		}
		if opts.Files != nil {
			res.NarrowToFiles(opts.Files)
		}
		return res, nil
	}
	if m.Initial {
		src, err := git.Index(root)
		if err != nil {
			return nil, err
		}
		return checker.CheckSource(src, s, opts)
	}
	return checker.CheckSource(&source.DiskSource{Dir: root}, s, opts)
}

package checker

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/source"

	"github.com/tilegym/tilegym-lint/config"
)

// NotACheckout returns the error of a whole check (or a check of named
// ops) that found no op at all: the directory is not a TileGym checkout,
// or the configuration's exclude or [layout] leaves none of its dispatch
// files in scope. A CI job pointed at the wrong directory must fail, not
// pass with "0 ops". It returns nil when the result has an op. A change
// that touches no op, or files that belong to none, legitimately report
// none: the caller asks only for whole checks.
func NotACheckout(root string, s *config.Setup, res *Result) error {
	l, cfg := s.Layout, s.Config
	// Ops, or findings (a dispatch file that does not parse, registrations
	// of no op): a checkout, reported as it is.
	if res != nil && (res.Table != nil && len(res.Table.Ops) > 0 || len(res.Diagnostics) > 0) {
		return nil
	}
	var dispatch []string
	if l != nil {
		for _, sc := range l.Scopes {
			dispatch = append(dispatch, sc.Dispatch...)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: no op found, so nothing was checked: no @dispatch stub in the layout's dispatch files", root)
	if len(dispatch) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(dispatch, ", "))
	}
	b.WriteString(". Is it a TileGym checkout? Point tilegym-lint at the root of one (the directory holding src/tilegym)")
	if cfg != nil && len(cfg.Exclude) > 0 {
		fmt.Fprintf(&b, "; check that exclude in %s (%s) does not leave out the dispatch files", cfg.File, strings.Join(cfg.Exclude, ", "))
	}
	b.WriteString("; if its ops live elsewhere, say where in [layout] of the configuration")
	return fmt.Errorf("%s", b.String())
}

// Target is what the paths given to a check name: the root of a
// checkout, and the files under it when files (not the root) were named.
type Target struct {
	Root  string   // as given, or relative to the current directory when below it
	Files []string // slash paths relative to Root, sorted; nil for the whole root
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// isRoot reports whether dir is the root of a TileGym checkout: it has
// src/tilegym, or a tilegym-lint configuration.
func isRoot(dir string) bool {
	if isDir(filepath.Join(dir, "src", "tilegym")) {
		return true
	}
	for _, name := range config.FileNames {
		if name == "pyproject.toml" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}

// findRoot looks for a root at dir and above; else the git top level.
func findRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		if isRoot(d) {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if top, err := git.TopLevel(abs); err == nil {
		return top, nil
	}
	return "", fmt.Errorf("%s: no TileGym checkout (a directory with src/tilegym) at or above it", dir)
}

// ResolveTarget finds the checkout the paths belong to (the root of a
// checkout, or files and directories in one: pre-commit passes files) and
// what of it they name. Paths of two checkouts are an error.
func ResolveTarget(paths []string) (*Target, error) {
	t := &Target{}
	var rootAbs string
	setRoot := func(r string) error {
		if rootAbs != "" && rootAbs != r {
			return fmt.Errorf("the paths belong to different checkouts (%s and %s); check one at a time", rootAbs, r)
		}
		rootAbs = r
		return nil
	}
	wholeRoot := false
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if fi.IsDir() {
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, err
			}
			if isRoot(abs) || len(paths) == 1 && !hasRootAbove(abs) {
				if err := setRoot(abs); err != nil {
					return nil, err
				}
				if len(paths) == 1 {
					t.Root = p
				}
				wholeRoot = true
				continue
			}
		}
		dir := p
		if !fi.IsDir() {
			dir = filepath.Dir(p)
		}
		r, err := findRoot(dir)
		if err != nil {
			return nil, err
		}
		if err := setRoot(r); err != nil {
			return nil, err
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(r, abs)
		if err != nil {
			return nil, err
		}
		rel = filepath.ToSlash(rel)
		if fi.IsDir() {
			// Every file under the directory.
			src := &source.DiskSource{Dir: abs}
			list, err := src.List()
			if err != nil {
				return nil, err
			}
			for _, f := range list {
				t.Files = append(t.Files, rel+"/"+f)
			}
			if t.Files == nil {
				t.Files = []string{}
			}
		} else {
			t.Files = append(t.Files, rel)
		}
	}
	if wholeRoot {
		t.Files = nil
	}
	if t.Root == "" {
		t.Root = rootAbs
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, rootAbs); err == nil && !strings.HasPrefix(rel, "..") {
				t.Root = rel
			}
		}
	}
	sort.Strings(t.Files)
	return t, nil
}

// hasRootAbove reports whether a directory above abs is a checkout's root.
func hasRootAbove(abs string) bool {
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if isRoot(d) {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// SparseCheckoutNote says, when root is in a git sparse checkout, why ops
// may be reported as missing files; else it is "".
func SparseCheckoutNote(root string) string {
	if !git.SparseCheckout(root) {
		return ""
	}
	return "this is a sparse checkout (git sparse-checkout): files outside it are absent, so an op whose module, test or benchmark lies outside it is reported as missing it; run `git sparse-checkout disable` or check a full clone"
}

package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tilegym/tilegym-lint/source/regfile"
)

// A Source is a snapshot of a repository's files: the working tree on disk,
// or a git revision or the index (git.Source).
type Source interface {
	// Root is the repository root the paths are relative to, for display.
	Root() string
	// List returns the slash paths of the regular files of the snapshot,
	// relative to the root, sorted.
	List() ([]string, error)
	// ReadFile returns the content of a file listed by List.
	ReadFile(path string) ([]byte, error)
}

// DiskSource is the working tree under a directory. Listing skips .git,
// hidden directories, node_modules, symbolic links, and any directory
// below the root with a .git entry of its own: a submodule's checkout or
// another repository vendored inside (git does not track their files as
// the enclosing repository's; git-aware linters do not descend into them),
// so a whole check and change mode see the same files. A directory it
// enters and cannot read is an error (an UnreadableDirError): its files
// would be missing from the check, and their ops reported without them.
type DiskSource struct {
	Dir string

	// Lenient skips unreadable directories instead: for listings that
	// only look for candidates (untracked files in change mode), where the
	// check's own listing reports them.
	Lenient bool
}

// An UnreadableDirError is a directory of the checked tree that listing
// could not read.
type UnreadableDirError struct {
	Dir string // slash path relative to the root
	Err error
}

func (e *UnreadableDirError) Error() string {
	cause := e.Err
	var pe *fs.PathError
	if errors.As(cause, &pe) {
		cause = pe.Err // the path is said already
	}
	return fmt.Sprintf("cannot read directory %s (%v): the files in it would be left out of the check "+
		"and its ops reported as missing them; make it readable, or move it out of the checkout", e.Dir, cause)
}

func (e *UnreadableDirError) Unwrap() error { return e.Err }

// unreadable turns a walk error at p into an UnreadableDirError, unless
// lenient.
func (d *DiskSource) unreadable(root, p string, err error) error {
	if d.Lenient {
		return nil
	}
	rel, rerr := filepath.Rel(root, p)
	if rerr != nil {
		rel = p
	}
	return &UnreadableDirError{Dir: filepath.ToSlash(rel), Err: err}
}

func (d *DiskSource) Root() string { return d.Dir }

// walkDir walks the working tree; a variable so that tests can make a
// directory unreadable when they run as root.
var walkDir = filepath.WalkDir

// skipDir reports whether a directory of the working tree is never listed.
func skipDir(name string) bool {
	return name == "node_modules" || name == "__pycache__" || (strings.HasPrefix(name, ".") && name != "." && name != "..")
}

// ownRepo reports whether a directory below the root is the work tree of
// a repository of its own (a submodule, a vendored clone): it has a .git
// directory or file.
func ownRepo(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

func (d *DiskSource) List() ([]string, error) {
	var out []string
	root := d.Dir
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r // a root that is itself a symbolic link is followed
	}
	if err := d.walk(root, root, &out); err != nil {
		return nil, fmt.Errorf("listing %s: %w", d.Dir, err)
	}
	sort.Strings(out)
	return out, nil
}

// A DirLister is a Source that can list only the files under some
// directories, cheaper than listing everything and filtering.
type DirLister interface {
	// ListUnder returns, sorted, the paths List would return that are
	// under one of dirs (slash paths relative to the root, each a plain
	// directory path: no "", ".", ".." or hidden segment).
	ListUnder(dirs []string) ([]string, error)
}

// ListUnder walks only the given directories of the working tree. A
// directory that is missing, or that List would not enter (a symbolic link
// on the way, a hidden directory, node_modules, __pycache__), lists nothing;
// one that cannot be read is an error, as in List.
func (d *DiskSource) ListUnder(dirs []string) ([]string, error) {
	root := d.Dir
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if _, err := os.Lstat(root); err != nil {
		return nil, fmt.Errorf("listing %s: %w", d.Dir, err)
	}
	var out []string
	for _, dir := range dirs {
		// Every component must be a real directory that List would enter.
		p := root
		ok := true
		for _, seg := range strings.Split(dir, "/") {
			p = filepath.Join(p, seg)
			fi, err := os.Lstat(p)
			if err != nil || !fi.IsDir() || skipDir(seg) || ownRepo(p) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if err := d.walk(root, p, &out); err != nil {
			return nil, fmt.Errorf("listing %s: %w", d.Dir, err)
		}
	}
	sort.Strings(out)
	return out, nil
}

// walk appends to out the regular files below top, a directory of the
// checkout at root, as slash paths relative to root; it does not follow
// symbolic links nor enter the directories List skips. A directory that
// cannot be read is an UnreadableDirError (root itself: its error).
func (d *DiskSource) walk(root, top string, out *[]string) error {
	return walkDir(top, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return d.unreadable(root, p, err)
		}
		if e.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		if e.IsDir() {
			if p != top && (skipDir(e.Name()) || ownRepo(p)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		*out = append(*out, filepath.ToSlash(rel))
		return nil
	})
}

func (d *DiskSource) ReadFile(path string) ([]byte, error) {
	p := filepath.Join(d.Dir, filepath.FromSlash(path))
	if strings.HasSuffix(path, ".py") {
		// A Python file over MaxFileBytes is not parsed: its first
		// MaxFileBytes+1 bytes say so, without reading gigabytes.
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Size() > MaxFileBytes {
			f, err := os.Open(p)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
		}
	}
	return regfile.Read(p)
}

package change

// Untracked files without a git process, most of the time: the files a
// check lists that the index does not hold are the candidates, and only
// when there are some does `git ls-files --others` run, on them alone, to
// drop the ignored ones. The index is read here when it is a plain one
// (format 2, 3 or 4, SHA-1, neither split nor sparse) of a repository
// found the way git finds it with no GIT_* variable set; in any other case
// git lists the untracked files itself.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tilegym/tilegym-lint/internal/regfile"
	"github.com/tilegym/tilegym-lint/source"
)

// errIndexUnsupported: the index, or how the repository is set up, is not
// one readIndexPaths reads; git is asked instead.
var errIndexUnsupported = errors.New("index not read here")

// gitEnvVars change where git finds the repository, its index or its
// work tree; with any of them set, git is asked.
var gitEnvVars = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_OBJECT_DIRECTORY"}

// findGitDir returns the git directory of the repository holding dir and
// dir's path in its work tree ("" at the top, else "a/b/"), as git finds
// them: the nearest .git directory, or .git file naming one ("gitdir: ...",
// a linked work tree or a submodule), above dir.
func findGitDir(dir string) (gitDir, prefix string, err error) {
	for _, v := range gitEnvVars {
		if _, ok := os.LookupEnv(v); ok {
			return "", "", errIndexUnsupported
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	var rel []string
	for d := abs; ; {
		g := filepath.Join(d, ".git")
		if fi, err := os.Stat(g); err == nil {
			if fi.IsDir() {
				gitDir = g
			} else if data, err := regfile.Read(g); err == nil {
				line := strings.TrimSpace(string(data))
				target, ok := strings.CutPrefix(line, "gitdir: ")
				if !ok {
					return "", "", errIndexUnsupported
				}
				if !filepath.IsAbs(target) {
					target = filepath.Join(d, target)
				}
				gitDir = target
			} else {
				return "", "", errIndexUnsupported
			}
			for i, j := 0, len(rel)-1; i < j; i, j = i+1, j-1 {
				rel[i], rel[j] = rel[j], rel[i]
			}
			if len(rel) > 0 {
				prefix = strings.Join(rel, "/") + "/"
			}
			return gitDir, prefix, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", errIndexUnsupported
		}
		rel = append(rel, filepath.Base(d))
		d = parent
	}
}

// readIndexPaths returns the paths the index at file holds (slash paths
// from the top of the work tree), or errIndexUnsupported for an index it
// does not read.
//
// Every count and size the index states is checked against what the file
// can hold before anything is sized by it: a corrupt index is not read
// (git, asked instead, says what is wrong), never a reason to allocate
// what its header claims.
func readIndexPaths(file string) (map[string]bool, error) {
	data, err := regfile.Read(file)
	if err != nil {
		if os.IsNotExist(err) {
			return map[string]bool{}, nil // no index yet: nothing tracked
		}
		return nil, err
	}
	const hashLen = 20 // SHA-1; a SHA-256 index fails the checks below
	if len(data) < 12+hashLen || string(data[:4]) != "DIRC" {
		return nil, errIndexUnsupported
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, errIndexUnsupported
	}
	// ctime, mtime (8 each), dev, ino, mode, uid, gid, size (4 each), the
	// object id, the flags (2): each entry has these and a NUL-ended name.
	const fixed = 40 + hashLen + 2
	n := int64(binary.BigEndian.Uint32(data[8:12]))
	body := data[:len(data)-hashLen]
	if n > int64(len(body)-12)/(fixed+1) {
		return nil, errIndexUnsupported // more entries than the file holds
	}
	paths := make(map[string]bool, n)
	pos := 12
	var prev []byte
	for k := int64(0); k < n; k++ {
		start := pos
		if pos+fixed > len(body) {
			return nil, errIndexUnsupported
		}
		mode := binary.BigEndian.Uint32(body[pos+24 : pos+28])
		flags := binary.BigEndian.Uint16(body[pos+40+hashLen : pos+fixed])
		pos += fixed
		if flags&0x4000 != 0 { // extended flags (version 3 and up)
			if version < 3 || pos+2 > len(body) {
				return nil, errIndexUnsupported
			}
			pos += 2
		}
		var name []byte
		if version == 4 {
			strip, w := binary.Uvarint(body[pos:])
			if w <= 0 || strip > uint64(len(prev)) {
				return nil, errIndexUnsupported
			}
			pos += w
			end := bytes.IndexByte(body[pos:], 0)
			if end < 0 {
				return nil, errIndexUnsupported
			}
			name = append(append([]byte(nil), prev[:len(prev)-int(strip)]...), body[pos:pos+end]...)
			pos += end + 1
		} else {
			end := bytes.IndexByte(body[pos:], 0)
			if end < 0 {
				return nil, errIndexUnsupported
			}
			name = body[pos : pos+end]
			// The entry is padded with 1 to 8 NULs to a multiple of 8.
			pos = start + (pos+end-start+8)&^7
		}
		if mode&0o170000 == 0o040000 { // a sparse index's directory entry
			return nil, errIndexUnsupported
		}
		paths[string(name)] = true
		prev = name
	}
	if pos > len(body) {
		return nil, errIndexUnsupported
	}
	// Extensions: a split index keeps entries elsewhere ("link"); a
	// sparse one folds directories ("sdir").
	for pos+8 <= len(body) {
		sig := string(body[pos : pos+4])
		size := int64(binary.BigEndian.Uint32(body[pos+4 : pos+8]))
		if sig == "link" || sig == "sdir" || size > int64(len(body)-pos-8) {
			return nil, errIndexUnsupported
		}
		pos += 8 + int(size)
	}
	if pos != len(body) {
		return nil, errIndexUnsupported
	}
	return paths, nil
}

// checkIndexFile refuses an index that is not a regular file, before git
// runs: git would block opening a FIFO.
func checkIndexFile(root string) error {
	gitDir, _, err := findGitDir(root)
	if err != nil {
		return nil // git finds the repository itself
	}
	name := filepath.Join(gitDir, "index")
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("git index %s is not a regular file; remove it (git rebuilds it with git reset) or fix the repository", name)
	}
	return nil
}

// untrackedFiles returns, of the files listed (slash paths relative to
// root), those git counts as untracked: not in the index, not ignored.
// It reads the index itself when it can (see the top of this file).
func untrackedFiles(root string, listed []string) ([]string, error) {
	gitDir, prefix, err := findGitDir(root)
	var tracked map[string]bool
	if err == nil {
		tracked, err = readIndexPaths(filepath.Join(gitDir, "index"))
	}
	if err != nil && !errors.Is(err, errIndexUnsupported) {
		return nil, err
	}
	if err != nil {
		out, err := source.RunGitBytes(root, "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
		if err != nil {
			return nil, err
		}
		return splitNUL(out), nil
	}
	var cands []string
	for _, p := range listed {
		if !tracked[prefix+p] {
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	args := []string{"ls-files", "--others", "--exclude-standard", "-z", "--"}
	if len(cands) > maxPathspecs {
		args = append(args, ".")
	} else {
		for _, p := range cands {
			args = append(args, ":(literal)"+p)
		}
	}
	out, err := source.RunGitBytes(root, args...)
	if err != nil {
		return nil, err
	}
	isCand := map[string]bool{}
	for _, p := range cands {
		isCand[p] = true
	}
	var untracked []string
	for _, p := range splitNUL(out) {
		if isCand[p] {
			untracked = append(untracked, p)
		}
	}
	return untracked, nil
}

// maxPathspecs is the most candidates named to git ls-files one by one;
// with more, it lists every untracked file.
const maxPathspecs = 200

// splitNUL splits NUL-terminated records.
func splitNUL(out []byte) []string {
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, filepath.ToSlash(p))
		}
	}
	return paths
}

// Package git runs git for tilegym-lint, and is the only package that
// does: a revision or the index as a snapshot (Source), the change's diff,
// untracked files and revisions (change mode), the repository's top and
// HEAD (the command line). One runner (command) starts every git process;
// no string from the command line or the repository reaches git as an
// option (CheckRevision, "--end-of-options", "--" before paths).
package git

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Source is a snapshot read from git without touching the working tree:
// a revision (git ls-tree) or, with Rev == ":" , the index (git ls-files
// -s). File contents come from one long-running `git cat-file --batch`.
// Running git is the only process it starts; no repository code runs.
type Source struct {
	Dir string // the repository's top-level directory
	Rev string // a revision, or ":" for the index
	// Prefix, when the checked root is a subdirectory of the repository,
	// is its slash path relative to Dir ("fixtures/good"); only files under
	// it are listed, with paths relative to it.
	Prefix string

	once  sync.Once
	err   error
	blobs map[string]string // path -> blob id
	paths []string

	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// IndexRev is the Rev of a Source that reads the index.
const IndexRev = ":"

func (g *Source) Root() string {
	if g.Prefix != "" {
		return g.Dir + "/" + g.Prefix
	}
	return g.Dir
}

func (g *Source) load() error {
	g.once.Do(func() {
		args := []string{"ls-files", "-s", "-z"}
		if g.Rev != IndexRev {
			if g.err = CheckRevision(g.Rev); g.err != nil {
				return
			}
			args = []string{"ls-tree", "-r", "-z", "--full-tree", "--end-of-options", g.Rev}
		}
		out, err := runBytes(g.Dir, args...)
		if err != nil {
			g.err = err
			return
		}
		g.blobs = map[string]string{}
		for _, rec := range bytes.Split(out, []byte{0}) {
			if len(rec) == 0 {
				continue
			}
			// ls-tree: "<mode> SP <type> SP <object> TAB <path>"
			// ls-files -s: "<mode> SP <object> SP <stage> TAB <path>"
			tab := bytes.IndexByte(rec, '\t')
			if tab < 0 {
				continue
			}
			meta, path := strings.Fields(string(rec[:tab])), string(rec[tab+1:])
			if len(meta) != 3 {
				continue
			}
			mode, obj := meta[0], meta[2]
			if g.Rev == IndexRev {
				obj = meta[1]
				if meta[2] != "0" && meta[2] != "2" { // during a merge keep "ours"
					continue
				}
			} else if meta[1] != "blob" {
				continue
			}
			if mode != "100644" && mode != "100755" { // no symlinks, no submodules
				continue
			}
			if g.Prefix != "" {
				rel, ok := strings.CutPrefix(path, strings.TrimSuffix(g.Prefix, "/")+"/")
				if !ok {
					continue
				}
				path = rel
			}
			g.blobs[path] = obj
		}
		for p := range g.blobs {
			g.paths = append(g.paths, p)
		}
		sort.Strings(g.paths)
	})
	return g.err
}

func (g *Source) List() ([]string, error) {
	if err := g.load(); err != nil {
		return nil, err
	}
	return append([]string(nil), g.paths...), nil
}

// ReadFile returns a file's content. Safe for concurrent use: requests to
// the cat-file process are serialized.
func (g *Source) ReadFile(path string) ([]byte, error) {
	if err := g.load(); err != nil {
		return nil, err
	}
	obj, ok := g.blobs[path]
	if !ok {
		return nil, fmt.Errorf("%s: not in %s", path, g.revName())
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.startLocked(); err != nil {
		return nil, err
	}
	if _, err := io.WriteString(g.in, obj+"\n"); err != nil {
		return nil, fmt.Errorf("git cat-file: %v", err)
	}
	header, err := g.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %v", err)
	}
	f := strings.Fields(header)
	if len(f) != 3 {
		return nil, fmt.Errorf("git cat-file: %s: %s", path, strings.TrimSpace(header))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 {
		return nil, fmt.Errorf("git cat-file: bad size in %q", header)
	}
	buf := make([]byte, n+1) // content and the trailing newline
	if _, err := io.ReadFull(g.out, buf); err != nil {
		return nil, fmt.Errorf("git cat-file: %v", err)
	}
	return buf[:n], nil
}

// startLocked starts the cat-file process unless it runs; g.mu is held.
func (g *Source) startLocked() error {
	if g.cmd != nil {
		return nil
	}
	args := []string{"cat-file", "--batch"}
	cmd := command(g.Dir, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return runError(args, err, nil)
	}
	g.cmd, g.in, g.out = cmd, in, bufio.NewReaderSize(out, 1<<16)
	return nil
}

func (g *Source) revName() string {
	if g.Rev == IndexRev {
		return "the index"
	}
	return g.Rev
}

// Close stops the cat-file process.
func (g *Source) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cmd == nil {
		return nil
	}
	g.in.Close()
	err := g.cmd.Wait()
	g.cmd = nil
	return err
}

// BlobID returns the id git gives a blob of this content, in the object
// format of an id of that length (SHA-1, or SHA-256); "" for another.
func BlobID(data []byte, idLen int) string {
	header := "blob " + strconv.Itoa(len(data)) + "\x00"
	switch idLen {
	case 40:
		h := sha1.New()
		h.Write([]byte(header))
		h.Write(data)
		return hex.EncodeToString(h.Sum(nil))
	case 64:
		h := sha256.New()
		h.Write([]byte(header))
		h.Write(data)
		return hex.EncodeToString(h.Sum(nil))
	}
	return ""
}

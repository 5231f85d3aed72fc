package checks

import (
	"path"
	"sync"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/python/requires"
	"github.com/tilegym/tilegym-lint/source"
)

// packagingFiles are the files that make a directory a Python project;
// those read for its requirements are all but setup.py, which is code
// (upstream TileGym's reads requirements.txt, which is read).
var packagingFiles = []string{"pyproject.toml", "setup.cfg", "requirements.txt", "setup.py"}

// maxIncludes bounds the requirement files a requirements.txt brings in
// with -r / -c, transitively.
const maxIncludes = 16

// declared is what the projects of a repository declare of their
// dependencies, read statically from their packaging files when first
// asked (a pattern rule's gated [lists] item): for a file, the project is
// the nearest directory at or above it that holds one of packagingFiles.
type declared struct {
	mu      sync.Mutex // the pattern kind asks from several goroutines
	src     source.Source
	project map[string]string                 // a directory's project directory ("-": none)
	decls   map[string][]requires.Declaration // by project directory
	ranges  map[[2]string]requires.Range      // by project directory and dependency
	exists  map[string]bool                   // whether a file could be read
	data    map[string][]byte                 // files read
}

func newDeclared(repo *optable.Repo) *declared {
	d := &declared{project: map[string]string{}, decls: map[string][]requires.Declaration{},
		ranges: map[[2]string]requires.Range{}, exists: map[string]bool{}, data: map[string][]byte{}}
	if repo != nil {
		d.src = repo.Source
	}
	return d
}

// admitted returns the function that gives the versions of a dependency
// the project of a file admits (every version when it has no project or
// declares none). It may be called from several goroutines.
func (d *declared) admitted(file string) func(dep string) requires.Range {
	return func(dep string) requires.Range {
		d.mu.Lock()
		defer d.mu.Unlock()
		proj := d.projectOf(path.Dir(file))
		if proj == "-" {
			return requires.All
		}
		key := [2]string{proj, dep}
		if r, ok := d.ranges[key]; ok {
			return r
		}
		r, _ := requires.Admitted(d.read(proj), dep)
		d.ranges[key] = r
		return r
	}
}

func (d *declared) projectOf(dir string) string {
	if dir == "" {
		dir = "."
	}
	if p, ok := d.project[dir]; ok {
		return p
	}
	p := "-"
	for _, name := range packagingFiles {
		if d.file(path.Join(dir, name)) != nil {
			p = dir
			break
		}
	}
	if p == "-" && dir != "." {
		p = d.projectOf(path.Dir(dir))
	}
	d.project[dir] = p
	return p
}

// file returns a file's content, nil when it cannot be read.
func (d *declared) file(p string) []byte {
	if ok, seen := d.exists[p]; seen {
		if !ok {
			return nil
		}
		return d.data[p]
	}
	var data []byte
	if d.src != nil {
		b, err := d.src.ReadFile(p)
		if err == nil {
			if len(b) > source.MaxFileBytes {
				b = b[:source.MaxFileBytes]
			}
			data = b
			if data == nil {
				data = []byte{}
			}
		}
	}
	d.exists[p] = data != nil
	d.data[p] = data
	return data
}

// read returns the declarations of the project in a directory. A file that
// does not decode declares nothing (pyproject.toml that is not TOML) and a
// requirement that does not parse constrains nothing (requires.Admitted):
// the range is then wider, never narrower, than the project's.
func (d *declared) read(dir string) []requires.Declaration {
	if ds, ok := d.decls[dir]; ok {
		return ds
	}
	var out []requires.Declaration
	if b := d.file(path.Join(dir, "pyproject.toml")); b != nil {
		ds, _ := requires.Pyproject(path.Join(dir, "pyproject.toml"), b)
		out = append(out, ds...)
	}
	if b := d.file(path.Join(dir, "setup.cfg")); b != nil {
		out = append(out, requires.SetupCfg(path.Join(dir, "setup.cfg"), b)...)
	}
	queue := []string{path.Join(dir, "requirements.txt")}
	seen := map[string]bool{}
	for len(queue) > 0 && len(seen) < maxIncludes {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		b := d.file(p)
		if b == nil {
			continue
		}
		ds, inc := requires.RequirementsTxt(p, b)
		out = append(out, ds...)
		queue = append(queue, inc...)
	}
	d.decls[dir] = out
	return out
}

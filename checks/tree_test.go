package checks

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// countingLister is a disk source that counts the directories listed.
type countingLister struct {
	*source.DiskSource
	listed []string
}

func (c *countingLister) ListUnder(dirs []string) ([]string, error) {
	c.listed = append(c.listed, dirs...)
	return c.DiskSource.ListUnder(dirs)
}

// TestTreeListsTopDirectoryOnce: the directories a tree is asked about are
// listed as ListUnder lists each of them, from one walk of their top
// directory (each was a walk of its own), whatever order they are asked
// in; a directory that is absent, a file, hidden or below a hidden one
// lists nothing, as ListUnder says.
func TestTreeListsTopDirectoryOnce(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"src/a/x.py", "src/a/b/y.py", "src/ab/z.py", "src/a.py", "src/.h/w.py", "src/c/v.rs", "tests/t.py", "julia/k/k.jl"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	disk := &source.DiskSource{Dir: root}
	src := &countingLister{DiskSource: disk}
	tr := NewTree(&optable.Repo{Snapshot: source.Snapshot{Files: map[string]*source.File{}, Source: src}})
	dirs := []string{"src/a/b", "src/a", "src", "src/a.py", "src/ab", "src/.h", "src/none", "tests", "julia/k", "julia/k/k.jl", "src/c"}
	for _, d := range dirs {
		want, err := disk.ListUnder([]string{d})
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.list(d); !slices.Equal(got, want) {
			t.Errorf("list(%q) = %q, want %q", d, got, want)
		}
	}
	if want := []string{"src", "tests", "julia"}; !slices.Equal(src.listed, want) {
		t.Errorf("listed %q, want each top directory once: %q", src.listed, want)
	}
}

// TestCapGlobLiteral: a glob with no pattern and no capture compiles no
// regexp and matches its own path alone (its regexp was the path quoted).
func TestCapGlobLiteral(t *testing.T) {
	paths := []string{"src/a.py", "src/a.pyc", "src/aXpy", "xsrc/a.py", "src/a.py/b", "src/a+b.py", "src/a+b.p", "README.md", "docs"}
	for _, g := range []string{"src/a.py", "src/a+b.py", "README.md", "docs/"} {
		c := compileCapGlob(g)
		if c.err != nil || c.re != nil {
			t.Fatalf("%s: compiled %v, err %v; want no regexp", g, c.re, c.err)
		}
		for _, p := range paths {
			caps, got := c.match(p)
			if want := p == strings.TrimSuffix(g, "/"); got != want || got && len(caps) != 0 {
				t.Errorf("%s on %s: %v %v, want %v and no capture", g, p, got, caps, want)
			}
		}
	}
	if c := compileCapGlob("src/{op}.py"); c.re == nil {
		t.Error("a glob with a capture needs its regexp")
	}
}

// TestMatchAhead: the subject patterns and the checks of a pattern in
// known files are matched before the rules run, once per file for them
// all, so that the rules match nothing more; they find what they find on a
// tree that did not match ahead.
func TestMatchAhead(t *testing.T) {
	src := mapSource{
		"pkg/cutile/a.py": "import triton\nfrom tilegym.backend import register_impl\n\n@triton.jit\ndef k(x):\n    pass\n\nregister_impl(\"add\", backend=\"cutile\")\n",
		"pkg/cutile/b.py": "from tilegym.backend import register_impl\nregister_impl(\"mul\", backend=\"triton\")\n",
		"pkg/triton/c.py": "import cuda.tile as ct\nct.launch(s, g, k, ())\n",
		"pkg/triton/d.rs": "fn main() {}\n",
	}
	var rs []*rules.Rule
	for i, params := range []string{
		`pattern = "tilegym.backend.register_impl($OP, backend=$B)"
require = [{ capture = "B", value = '^cutile$' }, { pattern = "triton.jit", in = "pkg/**/*.py" }]`,
		`forbid = [{ pattern = "triton.jit", in = "pkg/cutile/*.py" }, { pattern = "cuda.tile.launch(...)", in = "pkg/triton/*.py" }]`,
	} {
		p := new(RelationParams)
		if _, err := toml.Decode(params, p); err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		files := []string(nil)
		if i == 0 {
			files = []string{"pkg/**/*.py"}
		}
		rs = append(rs, &rules.Rule{ID: fmt.Sprint("X", i), Params: p, Files: files})
	}
	newTree := func() *Tree {
		return NewTree(&optable.Repo{Snapshot: source.Snapshot{Files: map[string]*source.File{}, Source: src}})
	}
	ahead := newTree()
	ahead.matchAhead(rs)
	matched := func() int {
		n := len(ahead.subj.m)
		for _, tp := range ahead.pats.m {
			n += len(tp.v.found.m)
		}
		return n
	}
	n := matched()
	if n != 3+3+1 { // the subject pattern and triton.jit in a, b and c; the launch in c
		t.Errorf("%d (pattern, file) pairs matched ahead, want 7", n)
	}
	render := func(fs []RelationFinding) string {
		var b strings.Builder
		for _, f := range fs {
			fmt.Fprintf(&b, "%s:%d %v\n", f.File, f.Line, f.Vars)
			if f.Node != nil {
				fmt.Fprintf(&b, "  at %v-%v\n", f.Node.Pos(), f.Node.End())
			}
		}
		return b.String()
	}
	found := 0
	for _, r := range rs {
		p := r.Params.(*RelationParams)
		got, want := p.Find(ahead, r.Files), p.Find(newTree(), r.Files)
		if render(got) != render(want) {
			t.Errorf("%s: found\n%v\nmatching ahead, and\n%v\nwithout", r.ID, got, want)
		}
		found += len(got)
	}
	if found != 3 {
		t.Errorf("%d findings, want 3 (b's backend, a's triton.jit, c's launch)", found)
	}
	if m := matched(); m != n {
		t.Errorf("the rules matched %d (pattern, file) pairs more after matching ahead", m-n)
	}
}

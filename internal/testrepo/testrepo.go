// Package testrepo holds helpers for tests that build TileGym-shaped
// repositories: copying and editing files, running git, the built-in catalog.
package testrepo

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

// CopyDir copies a directory tree (regular files only).
func CopyDir(t testing.TB, src, dst string) {
	t.Helper()
	list, err := (&source.DiskSource{Dir: src}).List()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range list {
		data, err := os.ReadFile(filepath.Join(src, p))
		if err != nil {
			t.Fatal(err)
		}
		WriteFile(t, dst, p, string(data))
	}
}

// WriteFile writes content to the slash path rel under root, making its
// directories.
func WriteFile(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Catalog returns the built-in rule catalog.
func Catalog(t testing.TB) *rules.Catalog {
	t.Helper()
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatalf("built-in catalog: %v", err)
	}
	return cat
}

// GitRun runs git in dir, with a fixed author and committer, and returns
// its output; the test fails if git does.
func GitRun(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// AppendFile appends text to the file at rel under dir.
func AppendFile(t testing.TB, dir, rel, text string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	WriteFile(t, dir, rel, string(data)+text)
}

// ReplaceInFile replaces the first old in the file at rel under dir by new;
// the test fails when old is not there.
func ReplaceInFile(t testing.TB, dir, rel, old, new string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), old, new, 1)
	if s == string(data) {
		t.Fatalf("%s: %q not found", rel, old)
	}
	WriteFile(t, dir, rel, s)
}

// CloneOp adds to a TileGym tree a copy of an op under another name, as a
// pull request adding an op would: its stub appended to the dispatch file,
// and a copy of each of its files with the name replaced.
func CloneOp(t testing.TB, dir, dispatchFile, name, newName string, files ...string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, dispatchFile))
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	i := strings.Index(src, "\""+name+"\"")
	if i < 0 {
		i = strings.Index(src, "."+name+"\"")
	}
	start := strings.LastIndex(src[:max(i, 0)], "@dispatch(")
	if i < 0 || start < 0 {
		t.Fatalf("%s: no stub of %s", dispatchFile, name)
	}
	end := strings.Index(src[start:], "\n\n\n")
	if end < 0 {
		end = len(src) - start
	}
	AppendFile(t, dir, dispatchFile, "\n\n"+strings.ReplaceAll(src[start:start+end], name, newName)+"\n")
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		WriteFile(t, dir, strings.Replace(f, name, newName, 1), strings.ReplaceAll(string(data), name, newName))
	}
}

// PreRepo makes a git repository of fixtures/good whose base commit has
// edit applied, and returns it.
func PreRepo(t *testing.T, edit func(dir string)) string {
	return GitRepo(t, "../fixtures/good", edit)
}

// GitRepo returns a new git repository holding a copy of the directory src,
// edited by edit (when not nil), committed; the test is skipped when git is
// missing.
func GitRepo(t testing.TB, src string, edit func(dir string)) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	CopyDir(t, src, dir)
	GitRun(t, dir, "init", "-q")
	if edit != nil {
		edit(dir)
	}
	GitRun(t, dir, "add", ".")
	GitRun(t, dir, "commit", "-qm", "base")
	return dir
}

// BenchSetup sets up a check of dir as the command line does: the
// built-in catalog and the configuration found from dir upwards.
func BenchSetup(b *testing.B, dir string) *config.Setup {
	b.Helper()
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		b.Fatal(err)
	}
	s, err := config.Open(cat, dir, "", config.Selection{})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BrokenPy is a Python file that does not parse.
const BrokenPy = "def f(:\n    pass\n"

// CorpusFiles returns the parsed Python files of the corpus that the
// equivalence tests compare a fast helper with its first form on: every
// fixture, the extra directories given, and the TileGym tree
// (realtree.Dir) when there is one. Files that do not parse are left out.
// The test is skipped with -short.
func CorpusFiles(t testing.TB, extra ...string) []*source.File {
	t.Helper()
	if testing.Short() {
		t.Skip("compares a fast path with its reference on the whole corpus; skipped with -short")
	}
	dirs := fixtureset.Dirs(t)
	dirs = append(dirs, extra...)
	if d := realtree.Dir(); d != "" {
		dirs = append(dirs, d)
	}
	var files []*source.File
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		src := &source.DiskSource{Dir: dir}
		paths, err := src.List()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if filepath.Ext(p) != ".py" {
				continue
			}
			data, err := src.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if f := source.ParseFile(p, data); f.AST != nil {
				files = append(files, f)
			}
		}
	}
	if len(files) == 0 {
		t.Fatal("no Python files in the corpus")
	}
	return files
}

// IndexRepo makes a repository with tracked files (some with names git
// quotes), an intent-to-add file (an extended flag), ignored and untracked
// files, in a subdirectory of the work tree as well.
func IndexRepo(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	GitRun(t, dir, "init", "-q")
	for _, p := range []string{"a.py", "sub/b.py", "sub/deep/c.py", "sub/x y.py", "sub/café.py", "sub/deep/d.py"} {
		WriteFile(t, dir, p, "x = 1\n")
	}
	WriteFile(t, dir, ".gitignore", "*.gen.py\nbuild/\n")
	GitRun(t, dir, "add", ".")
	GitRun(t, dir, "commit", "-qm", "base")
	WriteFile(t, dir, "sub/added.py", "y = 2\n")
	GitRun(t, dir, "add", "-N", "sub/added.py")
	WriteFile(t, dir, "sub/new.py", "z = 3\n")
	WriteFile(t, dir, "sub/deep/new 2.py", "z = 3\n")
	WriteFile(t, dir, "sub/skip.gen.py", "z = 3\n")
	WriteFile(t, dir, "build/out.py", "z = 3\n")
	return dir
}

// MapSource is an in-memory snapshot (a source.Source), for tests.
type MapSource struct {
	Dir   string
	Files map[string]string
}

func (m *MapSource) Root() string { return m.Dir }

func (m *MapSource) List() ([]string, error) {
	out := make([]string, 0, len(m.Files))
	for p := range m.Files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

func (m *MapSource) ReadFile(path string) ([]byte, error) {
	s, ok := m.Files[path]
	if !ok {
		return nil, fmt.Errorf("%s: %w", path, fs.ErrNotExist)
	}
	return []byte(s), nil
}

// ReportCPU starts measuring a benchmark's CPU time (user+system, all
// threads): call the function it returns when the loop ends, and the
// benchmark reports cpu-ns/op, steadier than wall time on a shared machine.
func ReportCPU(b *testing.B) func() {
	cpu0 := CPUTime()
	return func() {
		if cpu := CPUTime() - cpu0; cpu > 0 { // not measured everywhere
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		}
	}
}

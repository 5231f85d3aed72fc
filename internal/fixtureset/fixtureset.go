// Package fixtureset reads the fixtures of tilegym-lint: two plain
// directories, fixtures/good (the base repo) and fixtures/example, and one
// overlay per other fixture, fixtures/rules/NAME.txtar, holding only the
// files that differ from fixtures/good. Materialize writes a fixture out as
// a directory; ParseWants reads its "# want:" comments.
//
// The package does not import checker, so that checker's own (internal)
// tests can use it without an import cycle; the runner that checks a
// fixture is package fixturetest.
package fixtureset

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// Base is the fixture every overlay applies to.
const Base = "good"

// Plain are the fixtures kept as plain directories under fixtures/.
var Plain = []string{"good", "example"}

// DeletedSection is the name of the overlay section listing, one a line,
// the paths of the base to remove.
const DeletedSection = ".deleted"

// BaseSection is the name of the optional overlay section naming, instead
// of fixtures/good, another fixture the overlay applies to (one that
// prunes fixtures/good to a one-op repo, say, so that the overlays testing
// one op share it rather than copy it).
const BaseSection = ".base"

// OverlayDir is the directory of the overlays, relative to fixtures/.
const OverlayDir = "rules"

// Root is the absolute path of the fixtures directory of this module.
func Root() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("fixtureset: no caller information")
	}
	// file is .../internal/fixtureset/fixtureset.go.
	return filepath.Join(filepath.Dir(file), "..", "..", "fixtures")
}

// Fixture is one fixture: its name and where it is stored.
type Fixture struct {
	Name string
	// Dir is the plain directory of a plain fixture, or "".
	Dir string
	// Overlay is the path of the overlay file of an overlay fixture, or "".
	Overlay string
	// Golden is the path of the fixture's golden text report.
	Golden string
}

// List returns every fixture, plain ones first, then the overlays sorted
// by name.
func List() ([]Fixture, error) {
	root := Root()
	var out []Fixture
	for _, name := range Plain {
		out = append(out, Fixture{Name: name, Dir: filepath.Join(root, name),
			Golden: filepath.Join(root, name+".golden")})
	}
	matches, err := filepath.Glob(filepath.Join(root, OverlayDir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	sort.Strings(matches)
	for _, m := range matches {
		name := strings.TrimSuffix(filepath.Base(m), ".txtar")
		out = append(out, Fixture{Name: name, Overlay: m,
			Golden: strings.TrimSuffix(m, ".txtar") + ".golden"})
	}
	return out, nil
}

// Lookup returns the fixture of that name.
func Lookup(name string) (Fixture, error) {
	all, err := List()
	if err != nil {
		return Fixture{}, err
	}
	for _, f := range all {
		if f.Name == name {
			return f, nil
		}
	}
	return Fixture{}, fmt.Errorf("fixtureset: no fixture %q", name)
}

// Files returns the files of a fixture: slash path -> content.
func (f Fixture) Files() (map[string][]byte, error) {
	return f.files(0)
}

func (f Fixture) files(depth int) (map[string][]byte, error) {
	if f.Dir != "" {
		return ReadDir(f.Dir)
	}
	if depth > 4 {
		return nil, fmt.Errorf("%s: overlays based on each other too deeply", f.Overlay)
	}
	data, err := os.ReadFile(f.Overlay)
	if err != nil {
		return nil, err
	}
	ar, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", f.Overlay, err)
	}
	baseName := Base
	for _, s := range ar.Files {
		if s.Name == BaseSection {
			baseName = strings.TrimSpace(string(s.Data))
		}
	}
	bf, err := Lookup(baseName)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", f.Overlay, err)
	}
	base, err := bf.files(depth + 1)
	if err != nil {
		return nil, err
	}
	files, err := Apply(base, ar)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", f.Overlay, err)
	}
	return files, nil
}

// Apply returns base with an overlay applied: its deletions, then its
// files (added or replacing the base's).
func Apply(base map[string][]byte, ar *Archive) (map[string][]byte, error) {
	out := make(map[string][]byte, len(base))
	for p, b := range base {
		out[p] = b
	}
	seen := map[string]bool{}
	for _, f := range ar.Files {
		if seen[f.Name] {
			return nil, fmt.Errorf("section %q twice", f.Name)
		}
		seen[f.Name] = true
		if f.Name != DeletedSection {
			continue
		}
		for _, line := range strings.Split(string(f.Data), "\n") {
			p := strings.TrimSpace(line)
			if p == "" {
				continue
			}
			if _, ok := out[p]; !ok {
				return nil, fmt.Errorf("%s deletes %s, which the base does not have", DeletedSection, p)
			}
			delete(out, p)
		}
	}
	for _, f := range ar.Files {
		if f.Name == DeletedSection || f.Name == BaseSection {
			continue
		}
		if err := checkPath(f.Name); err != nil {
			return nil, err
		}
		out[f.Name] = f.Data
	}
	return out, nil
}

func checkPath(p string) error {
	if p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "\\") {
		return fmt.Errorf("bad file name %q in overlay", p)
	}
	return nil
}

// ReadDir reads every regular file under dir: slash path -> content.
func ReadDir(dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			if d.IsDir() {
				return nil
			}
			return fmt.Errorf("%s: not a regular file", p)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	return out, err
}

// WriteDir writes files under dir, which must not hold them yet.
func WriteDir(dir string, files map[string][]byte) error {
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Materialize returns a directory holding the fixture of that name: the
// plain directory itself for good and example (do not write to it), or the
// base with the overlay applied, written under t.TempDir() as a directory
// named after the fixture.
func Materialize(t testing.TB, name string) string {
	t.Helper()
	f, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return f.Materialize(t)
}

// Materialize is the package function Materialize for f.
func (f Fixture) Materialize(t testing.TB) string {
	t.Helper()
	if f.Dir != "" {
		return f.Dir
	}
	files, err := f.Files()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), f.Name)
	if err := WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Dirs materializes every fixture (see Materialize) and returns their
// directories, in the order of List; each directory is named after its
// fixture.
func Dirs(t testing.TB) []string {
	t.Helper()
	all, err := List()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) <= len(Plain) {
		t.Fatal("fixtureset: no overlay fixtures")
	}
	var dirs []string
	for _, f := range all {
		dirs = append(dirs, f.Materialize(t))
	}
	return dirs
}

// Archive is a txtar archive: a comment, then named files.
type Archive struct {
	Comment []byte
	Files   []File
}

// File is one file of an archive.
type File struct {
	Name string
	Data []byte
}

// Parse reads a txtar archive: lines "-- NAME --" start each file; what
// comes before the first is the comment.
func Parse(data []byte) (*Archive, error) {
	ar := &Archive{}
	var cur *File
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line = data[:i+1]
		}
		data = data[len(line):]
		if name, ok := marker(line); ok {
			ar.Files = append(ar.Files, File{Name: name})
			cur = &ar.Files[len(ar.Files)-1]
			continue
		}
		if cur == nil {
			ar.Comment = append(ar.Comment, line...)
		} else {
			cur.Data = append(cur.Data, line...)
		}
	}
	for _, f := range ar.Files {
		if len(f.Data) > 0 && f.Data[len(f.Data)-1] != '\n' {
			return nil, fmt.Errorf("%s: does not end in a newline", f.Name)
		}
	}
	return ar, nil
}

func marker(line []byte) (string, bool) {
	s := strings.TrimSuffix(string(line), "\n")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	return strings.TrimSpace(s[3 : len(s)-3]), true
}

// Format writes an archive. It fails on a file that txtar cannot hold
// exactly: one that does not end in a newline, or has a marker line.
func Format(ar *Archive) ([]byte, error) {
	var b bytes.Buffer
	b.Write(ar.Comment)
	if len(ar.Comment) > 0 && ar.Comment[len(ar.Comment)-1] != '\n' {
		b.WriteByte('\n')
	}
	for _, f := range ar.Files {
		if len(f.Data) > 0 && f.Data[len(f.Data)-1] != '\n' {
			return nil, fmt.Errorf("%s: does not end in a newline", f.Name)
		}
		for _, line := range bytes.SplitAfter(f.Data, []byte("\n")) {
			if _, ok := marker(line); ok {
				return nil, fmt.Errorf("%s: has a line %q", f.Name, line)
			}
		}
		fmt.Fprintf(&b, "-- %s --\n", f.Name)
		b.Write(f.Data)
	}
	return b.Bytes(), nil
}

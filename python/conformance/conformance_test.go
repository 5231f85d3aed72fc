package conformance

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilegym/tilegym-lint/internal/fixtureset"
)

// xEquals1 is the canonical dump of "x = 1\n".
const xEquals1 = `{"_type":"Module","body":[{"_type":"Assign","targets":[{"_type":"Name","id":"x","ctx":{"_type":"Store"},"lineno":1,"col_offset":0,"end_lineno":1,"end_col_offset":1}],"value":{"_type":"Constant","value":{"int":"1"},"kind":null,"lineno":1,"col_offset":4,"end_lineno":1,"end_col_offset":5},"type_comment":null,"lineno":1,"col_offset":0,"end_lineno":1,"end_col_offset":5}],"type_ignores":[]}`

// TestDumpFile: a file the parser accepts is its dump, one it rejects an
// error object, both on one line; a missing file is an error.
func TestDumpFile(t *testing.T) {
	dir := t.TempDir()
	if err := fixtureset.WriteDir(dir, map[string][]byte{"ok.py": []byte("x = 1\n"), "bad.py": []byte("x = (\n")}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if ok, err := DumpFile(filepath.Join(dir, "ok.py"), &out); !ok || err != nil {
		t.Errorf("ok.py: %v, %v", ok, err)
	}
	if diff := cmp.Diff(xEquals1+"\n", out.String()); diff != "" {
		t.Errorf("ok.py (-want +got):\n%s", diff)
	}
	out.Reset()
	if ok, err := DumpFile(filepath.Join(dir, "bad.py"), &out); ok || err != nil || !strings.HasPrefix(out.String(), `{"error":{"msg":`) || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("bad.py: %v, %v, %q; want a rejection and one error line", ok, err, out.String())
	}
	if _, err := DumpFile(filepath.Join(dir, "missing.py"), io.Discard); err == nil {
		t.Error("missing.py: no error")
	}
}

// TestDumpAll: every regular .py file under the directory, sorted
// bytewise, symbolic links not followed, one line each.
func TestDumpAll(t *testing.T) {
	dir := t.TempDir()
	if err := fixtureset.WriteDir(dir, map[string][]byte{
		"b.py":       []byte("x = 1\n"),
		"a_c.py":     []byte("x = (\n"),
		"a/z.py":     []byte("x = 1\n"),
		"notes.txt":  []byte("not python"),
		"pkg/x.pyc":  []byte(""),
		"pkg/y.py":   []byte("x = 1\n"),
		"a.py/in.py": []byte("x = 1\n"), // a directory named like a file
	}); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "b.py"), filepath.Join(dir, "link.py")); err != nil {
		t.Logf("no symlink test: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, "pkg"), filepath.Join(dir, "linkdir")); err != nil {
		t.Logf("no symlink test: %v", err)
	}

	var outb, errb bytes.Buffer
	if err := DumpAll(dir, &outb, &errb); err != nil {
		t.Fatalf("DumpAll: %v (warnings %q)", err, errb.String())
	}
	out := outb.String()
	var names []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		name, dump, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("line without tab: %q", line)
		}
		names = append(names, name)
		want := xEquals1
		if name == "a_c.py" {
			if !strings.HasPrefix(dump, `{"error":`) {
				t.Errorf("%s: got %q, want an error", name, dump)
			}
			continue
		}
		if diff := cmp.Diff(want, dump); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	// Bytewise order of the whole relative path: "a.py/" < "a/" < "a_c.py".
	wantNames := []string{"a.py/in.py", "a/z.py", "a_c.py", "b.py", "pkg/y.py"}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("file list (-want +got):\n%s", diff)
	}

	if err := DumpAll(filepath.Join(dir, "b.py"), io.Discard, io.Discard); err == nil {
		t.Errorf("DumpAll on a file: no error")
	}
}

// TestTime: files and directories are counted; a rejection is an error,
// a missing path a failure.
func TestTime(t *testing.T) {
	dir := t.TempDir()
	if err := fixtureset.WriteDir(dir, map[string][]byte{"a.py": []byte("x = 1\n"), "sub/b.py": []byte("x = (\n"), "c.txt": []byte("x")}); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	s, failed := Time([]string{dir, filepath.Join(dir, "a.py")}, &errb)
	if failed {
		t.Fatalf("Time: failed, warnings %q", errb.String())
	}
	re := regexp.MustCompile(`^files=3 bytes=18 seconds=\d+\.\d{3} errors=1$`)
	if out := s.String(); !re.MatchString(out) {
		t.Errorf("Time's line %q does not match %s", out, re)
	}
	if _, failed := Time([]string{filepath.Join(dir, "missing.py")}, io.Discard); !failed {
		t.Error("Time(missing.py): not failed")
	}
}

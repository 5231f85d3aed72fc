package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// xEquals1 is the canonical dump of "x = 1\n".
const xEquals1 = `{"_type":"Module","body":[{"_type":"Assign","targets":[{"_type":"Name","id":"x","ctx":{"_type":"Store"},"lineno":1,"col_offset":0,"end_lineno":1,"end_col_offset":1}],"value":{"_type":"Constant","value":{"int":"1"},"kind":null,"lineno":1,"col_offset":4,"end_lineno":1,"end_col_offset":5},"type_comment":null,"lineno":1,"col_offset":0,"end_lineno":1,"end_col_offset":5}],"type_ignores":[]}`

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runParseT(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runParse(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestParseDump(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ok.py": "x = 1\n", "bad.py": "x = (\n"})

	code, out, errs := runParseT("--dump", filepath.Join(dir, "ok.py"))
	if code != 0 {
		t.Errorf("--dump ok.py: exit %d, stderr %q", code, errs)
	}
	if diff := cmp.Diff(xEquals1+"\n", out); diff != "" {
		t.Errorf("--dump ok.py (-want +got):\n%s", diff)
	}

	code, out, _ = runParseT("--dump", filepath.Join(dir, "bad.py"))
	if code != 1 || !strings.HasPrefix(out, `{"error":{"msg":`) || strings.Count(out, "\n") != 1 {
		t.Errorf("--dump bad.py: exit %d, output %q; want exit 1 and one error line", code, out)
	}

	code, out, errs = runParseT("--dump", filepath.Join(dir, "missing.py"))
	if code != 2 || out != "" || errs == "" {
		t.Errorf("--dump missing.py: exit %d, stdout %q, stderr %q; want exit 2 and a message", code, out, errs)
	}
}

func TestParseDumpAll(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"b.py":       "x = 1\n",
		"a_c.py":     "x = (\n",
		"a/z.py":     "x = 1\n",
		"notes.txt":  "not python",
		"pkg/x.pyc":  "",
		"pkg/y.py":   "x = 1\n",
		"a.py/in.py": "x = 1\n", // a directory named like a file
	})
	if err := os.Symlink(filepath.Join(dir, "b.py"), filepath.Join(dir, "link.py")); err != nil {
		t.Logf("no symlink test: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, "pkg"), filepath.Join(dir, "linkdir")); err != nil {
		t.Logf("no symlink test: %v", err)
	}

	code, out, errs := runParseT("--dump-all", dir)
	if code != 0 {
		t.Fatalf("--dump-all: exit %d, stderr %q", code, errs)
	}
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

	if code, _, _ := runParseT("--dump-all", filepath.Join(dir, "b.py")); code != 2 {
		t.Errorf("--dump-all on a file: exit %d, want 2", code)
	}
}

func TestParseStats(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.py": "x = 1\n", "sub/b.py": "x = (\n", "c.txt": "x"})
	code, out, errs := runParseT("--stats", dir, filepath.Join(dir, "a.py"))
	if code != 0 {
		t.Fatalf("--stats: exit %d, stderr %q", code, errs)
	}
	re := regexp.MustCompile(`^files=3 bytes=18 seconds=\d+\.\d{3} errors=1\n$`)
	if !re.MatchString(out) {
		t.Errorf("--stats output %q does not match %s", out, re)
	}
}

func TestParseUsage(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"--dump"},
		{"--dump", "a.py", "b.py"},
		{"--dump", "--stats", "a.py"},
		{"--no-such-flag"},
	} {
		if code, _, errs := runParseT(args...); code != 2 || errs == "" {
			t.Errorf("parse %q: exit %d, stderr %q; want 2 and a usage message", args, code, errs)
		}
	}
}

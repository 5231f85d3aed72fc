package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilegym/tilegym-lint/internal/fixtureset"
)

// xEquals1 is the canonical dump of "x = 1\n".
const xEquals1 = `{"_type":"Module","body":[{"_type":"Assign","targets":[{"_type":"Name","id":"x","ctx":{"_type":"Store"},"lineno":1,"col_offset":0,"end_lineno":1,"end_col_offset":1}],"value":{"_type":"Constant","value":{"int":"1"},"kind":null,"lineno":1,"col_offset":4,"end_lineno":1,"end_col_offset":5},"type_comment":null,"lineno":1,"col_offset":0,"end_lineno":1,"end_col_offset":5}],"type_ignores":[]}`

func runParseT(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runParse(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestParseDump(t *testing.T) {
	dir := t.TempDir()
	if err := fixtureset.WriteDir(dir, map[string][]byte{"ok.py": []byte("x = 1\n"), "bad.py": []byte("x = (\n")}); err != nil {
		t.Fatal(err)
	}

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

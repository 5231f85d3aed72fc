package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// goodCopy is a copy of fixtures/good in a temporary directory.
func goodCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, "../../fixtures/good", dir)
	return dir
}

func TestExitCodes(t *testing.T) {
	dir := goodCopy(t)
	// Only TG001 counts here: the other rules are exercised by the fixtures.
	cfg := filepath.Join(t.TempDir(), "only-tg001.toml")
	code, out, _ := runCLI("rules", "--format", "json")
	if code != 0 {
		t.Fatalf("rules --format json: exit %d", code)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range list {
		if r["id"] != "TG001" {
			ids = append(ids, `"`+r["id"].(string)+`"`)
		}
	}
	if err := os.WriteFile(cfg, []byte("disable = ["+strings.Join(ids, ", ")+"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	if code, out, errOut := runCLI("--config", cfg, dir); code != 0 {
		t.Errorf("clean checkout: exit %d\n%s%s", code, out, errOut)
	} else if !strings.Contains(out, " ops, 0 failed, 0 errors, 0 warnings") {
		t.Errorf("summary line missing:\n%s", out)
	}
	if err := os.WriteFile(filepath.Join(dir, "tests/ops/test_zz_broken.py"), []byte("def f(:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI("--config", cfg, dir)
	if code != 1 {
		t.Errorf("parse error: exit %d, want 1", code)
	}
	if !strings.Contains(out, "tests/ops/test_zz_broken.py:1:") || !strings.Contains(out, "TG001") {
		t.Errorf("text output lacks the finding:\n%s", out)
	}
	// Flags after the path work too.
	code, out, _ = runCLI(dir, "--config", cfg, "--format", "json")
	if code != 1 {
		t.Errorf("json: exit %d, want 1", code)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("json output: %v\n%s", err, out)
	}
	if doc["version"] != float64(1) {
		t.Errorf("version = %v", doc["version"])
	}
	// The finding downgraded to a warning no longer fails the run.
	warn := filepath.Join(t.TempDir(), "warn.toml")
	os.WriteFile(warn, []byte("disable = ["+strings.Join(ids, ", ")+"]\n[severity]\nTG001 = \"warning\"\n"), 0o644)
	if code, out, _ := runCLI("--config", warn, dir); code != 0 || !strings.Contains(out, "1 warnings") {
		t.Errorf("warning: exit %d\n%s", code, out)
	}
	// A # noqa cannot suppress a file that does not parse, but excluding it works.
	excl := filepath.Join(t.TempDir(), "excl.toml")
	os.WriteFile(excl, []byte("disable = ["+strings.Join(ids, ", ")+"]\nexclude = [\"tests/ops/test_zz_*.py\"]\n"), 0o644)
	if code, _, _ := runCLI("--config", excl, dir); code != 0 {
		t.Errorf("excluded: exit %d, want 0", code)
	}

	for name, args := range map[string][]string{
		"bad flag":       {"--nope", dir},
		"bad format":     {"--format", "xml", dir},
		"missing path":   {filepath.Join(dir, "does-not-exist")},
		"missing config": {"--config", filepath.Join(dir, "nope.toml"), dir},
		"unknown rule":   {"rules", "TG999"},
		"unknown op":     {"--op", "nosuch", dir},
	} {
		if code, _, errOut := runCLI(args...); code != 2 || errOut == "" {
			t.Errorf("%s: exit %d, stderr %q; want 2 and a message", name, code, errOut)
		}
	}
	skip := filepath.Join(t.TempDir(), "skip.toml")
	os.WriteFile(skip, []byte("[skip.sofmax]\n\"5\" = \"typo\"\n"), 0o644)
	if code, _, errOut := runCLI("--config", skip, dir); code != 2 || !strings.Contains(errOut, "skip.toml:2: skip.sofmax: no op named") {
		t.Errorf("skip of an unknown op: exit %d, stderr %q", code, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("disable = []\nfrobnicate = true\n"), 0o644)
	code, _, errOut := runCLI("--config", bad, dir)
	if code != 2 || !strings.Contains(errOut, "bad.toml:2: unknown key \"frobnicate\"") {
		t.Errorf("bad config: exit %d, stderr %q", code, errOut)
	}
}

func TestFileArguments(t *testing.T) {
	dir := goodCopy(t)
	code, out, errOut := runCLI("--format", "json",
		filepath.Join(dir, "src/tilegym/ops/cutile/softmax.py"),
		filepath.Join(dir, "tests/ops/test_softmax.py"))
	if code == 2 {
		t.Fatalf("exit 2: %s", errOut)
	}
	var doc struct {
		Ops []struct {
			Op string `json:"op"`
		} `json:"ops"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Ops) != 1 || doc.Ops[0].Op != "softmax" {
		t.Errorf("ops = %+v, want softmax only", doc.Ops)
	}
}

func TestRulesCommand(t *testing.T) {
	code, out, _ := runCLI("rules")
	if code != 0 || !strings.Contains(out, "TG001") || !strings.Contains(out, "X.2") {
		t.Errorf("rules: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI("rules", "tg001")
	if code != 0 {
		t.Fatalf("rules tg001: exit %d", code)
	}
	for _, want := range []string{"TG001:", "What it checks", "Why it matters", "How to fix it", "Example"} {
		if !strings.Contains(out, want) {
			t.Errorf("rules TG001 lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI("rules", "--format", "json", "TG001")
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 1 {
		t.Fatalf("rules --format json TG001: exit %d, %v", code, err)
	}
	for _, k := range []string{"id", "step", "requirement", "severity", "title", "kind", "docs"} {
		if _, ok := list[0][k]; !ok {
			t.Errorf("rule JSON lacks %q", k)
		}
	}
}

func TestChangeModeCLI(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := goodCopy(t)
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(dir, "tests/ops/test_zz_broken.py"), []byte("def f(:\n"), 0o644)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "base")
	os.WriteFile(filepath.Join(dir, "tests/ops/test_zz_broken.py"), []byte("def f(:\n# edit\n"), 0o644)
	git("commit", "-qam", "edit")
	// The only finding in the change is pre-existing: exit 0, unless --strict.
	code, out, errOut := runCLI("--diff", "HEAD~1", "--format", "json", dir)
	if code != 0 {
		t.Errorf("--diff: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, `"pre_existing": true`) {
		t.Errorf("--diff: no pre-existing finding:\n%s", out)
	}
	if code, _, _ := runCLI("--diff", "HEAD~1", "--strict", dir); code != 1 {
		t.Errorf("--diff --strict: exit %d, want 1", code)
	}
	if code, _, errOut := runCLI("--diff", "no-such-branch", dir); code != 2 || errOut == "" {
		t.Errorf("--diff bad base: exit %d", code)
	}
}

// A Python file over source.MaxFileBytes is reported (TG010), not parsed
// (a 100 MB file took 4.6 GB to parse), and not reported as a syntax error.
func TestFileTooLargeIsReported(t *testing.T) {
	dir := goodCopy(t)
	big := "x = 1\n" + strings.Repeat("# padding line of a generated file\n", (4<<20)/35+10) + "def f(:\n"
	if err := os.WriteFile(filepath.Join(dir, "tests/ops/test_big.py"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("--format", "json", dir)
	if code != 1 || !strings.Contains(out, `"TG010"`) || !strings.Contains(out, "tests/ops/test_big.py is larger than 4 MiB") {
		t.Fatalf("exit %d, want TG010 on test_big.py:\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, `"TG001"`) {
		t.Errorf("the large file is also reported as not parsing:\n%s", out)
	}
}

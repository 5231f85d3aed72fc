package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checks"
	"github.com/tilegym/tilegym-lint/fix"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/report"
)

// Fix fixtures: fixtures/fix/NAME.txtar holds
//
//	-- .before --        the fixture (of fixtures/rules) the tree starts from
//	-- before/PATH --    files of that fixture replaced before fixing (optional)
//	-- after/PATH --     what --fix must leave in each file it changes
//
// TILEGYM_LINT_UPDATE=1 rewrites the after/ sections from what --fix does
// (read the diff before committing it).

type fixFixture struct {
	name   string
	path   string
	ar     *fixtureset.Archive
	before map[string][]byte
	after  map[string][]byte // only the after/ sections
}

func loadFixFixtures(t *testing.T) []fixFixture {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(fixtureset.Root(), "fix", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fix fixtures: %v", err)
	}
	sort.Strings(paths)
	var out []fixFixture
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ar, err := fixtureset.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		ff := fixFixture{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), path: p, ar: ar, after: map[string][]byte{}}
		base := "softmax-only"
		replaced := map[string][]byte{}
		for _, f := range ar.Files {
			switch {
			case f.Name == ".before":
				base = strings.TrimSpace(string(f.Data))
			case strings.HasPrefix(f.Name, "before/"):
				replaced[strings.TrimPrefix(f.Name, "before/")] = f.Data
			case strings.HasPrefix(f.Name, "after/"):
				ff.after[strings.TrimPrefix(f.Name, "after/")] = f.Data
			default:
				t.Fatalf("%s: unknown section %q", p, f.Name)
			}
		}
		fx, err := fixtureset.Lookup(base)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if ff.before, err = fx.Files(); err != nil {
			t.Fatal(err)
		}
		for k, v := range replaced {
			ff.before[k] = v
		}
		out = append(out, ff)
	}
	return out
}

// writeTree writes files into a new temporary directory.
func writeTree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := fixtureset.WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := fixtureset.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// fixableFindings returns "RULE FILE:LINE" of the findings of a JSON report
// that carry a fix.
func fixableFindings(t *testing.T, out string) []string {
	t.Helper()
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for _, d := range rep.Diagnostics {
		if len(d.Fixes) > 0 {
			got = append(got, d.Rule+" "+d.File+":"+strconv.Itoa(d.Line))
		}
	}
	return got
}

// TestFixFixtures checks each fix: before, --fix, the expected after tree
// (files without an after/ section unchanged), no fixable finding left,
// the result compiles (python3, when present), and a second --fix changes
// nothing. The preview writes nothing and shows the same change.
func TestFixFixtures(t *testing.T) {
	update := os.Getenv("TILEGYM_LINT_UPDATE") != ""
	// The changed files of every fixture, compiled at the end by one
	// python3 (it starts slowly).
	compiled := t.TempDir()
	var toCompile []string
	for _, ff := range loadFixFixtures(t) {
		t.Run(ff.name, func(t *testing.T) {
			dir := writeTree(t, ff.before)
			_, out, _ := runCLI("--format", "json", dir)
			if len(fixableFindings(t, out)) == 0 {
				t.Fatal("the before tree has no fixable finding")
			}

			// The preview: a diff, nothing written.
			code, prev, errOut := runCLI("--fix", "--dry-run", dir)
			if code != 1 || !strings.Contains(prev, "--- a/") {
				t.Errorf("--fix --dry-run: exit %d, want 1 and a diff:\n%s%s", code, prev, errOut)
			}
			assertTree(t, dir, ff.before, "after --fix --dry-run")

			code, out, errOut = runCLI("--fix", "--format", "json", dir)
			if code == 2 {
				t.Fatalf("--fix: exit 2: %s", errOut)
			}
			if left := fixableFindings(t, out); len(left) > 0 {
				t.Errorf("fixable findings left after --fix: %v\n%s", left, errOut)
			}
			got := readTree(t, dir)
			changed := map[string][]byte{}
			for p, data := range got {
				if string(ff.before[p]) != string(data) {
					changed[p] = data
				}
			}
			if update {
				writeAfter(t, ff, changed)
				return
			}
			want := map[string][]byte{}
			for p, data := range ff.before {
				want[p] = data
			}
			for p, data := range ff.after {
				want[p] = data
			}
			assertTree(t, dir, want, "after --fix")
			for p := range ff.after {
				if _, ok := changed[p]; !ok {
					t.Errorf("after/%s: --fix did not change it", p)
				}
			}
			for _, p := range sortedKeys(changed) {
				dst := filepath.Join(ff.name, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Join(compiled, filepath.Dir(dst)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(compiled, dst), changed[p], 0o644); err != nil {
					t.Fatal(err)
				}
				toCompile = append(toCompile, filepath.ToSlash(dst))
			}

			// Idempotence: a second --fix changes nothing.
			code, msg, errOut := runCLI("--fix", dir)
			if code == 2 || !strings.Contains(msg, "nothing to fix") {
				t.Errorf("second --fix: exit %d:\n%s%s", code, msg, errOut)
			}
			assertTree(t, dir, want, "after a second --fix")
			code, prev, _ = runCLI("--fix", "--dry-run", dir)
			if code != 0 || strings.Contains(prev, "--- a/") {
				t.Errorf("--fix --dry-run after --fix: exit %d:\n%s", code, prev)
			}
		})
	}
	pyCompile(t, compiled, toCompile)
}

// TestFixableRulesHaveFixFixture: every rule marked fixable has a fix
// fixture whose before tree it reports with a fix, and no other rule
// reports a fix there.
func TestFixableRulesHaveFixFixture(t *testing.T) {
	fixed := map[string]bool{}
	for _, ff := range loadFixFixtures(t) {
		dir := writeTree(t, ff.before)
		_, out, _ := runCLI("--format", "json", dir)
		for _, f := range fixableFindings(t, out) {
			fixed[strings.Fields(f)[0]] = true
		}
	}
	cat, err := checks.LoadBuiltinCatalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range cat.Rules {
		if r.Fixable != fixed[r.ID] {
			t.Errorf("%s: fixable = %v in rules.toml, but a fix fixture fixes it: %v", r.ID, r.Fixable, fixed[r.ID])
		}
	}
}

func sortedKeys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func assertTree(t *testing.T, dir string, want map[string][]byte, when string) {
	t.Helper()
	got := readTree(t, dir)
	for p, data := range want {
		if string(got[p]) != string(data) {
			t.Errorf("%s: %s differs:\n%s", when, p, diffText(p, data, got[p]))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: unexpected file %s", when, p)
		}
	}
}

func diffText(name string, want, got []byte) string {
	return fix.UnifiedDiff(name, want, got)
}

func writeAfter(t *testing.T, ff fixFixture, changed map[string][]byte) {
	t.Helper()
	ar := &fixtureset.Archive{Comment: ff.ar.Comment}
	for _, f := range ff.ar.Files {
		if !strings.HasPrefix(f.Name, "after/") {
			ar.Files = append(ar.Files, f)
		}
	}
	for _, p := range sortedKeys(changed) {
		ar.Files = append(ar.Files, fixtureset.File{Name: "after/" + p, Data: changed[p]})
	}
	data, err := fixtureset.Format(ar)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ff.path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// pyCompile compiles the files with python3 when it is installed.
func pyCompile(t *testing.T, root string, files []string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil || len(files) == 0 {
		return
	}
	args := []string{"-m", "py_compile"}
	for _, f := range files {
		args = append(args, filepath.Join(root, filepath.FromSlash(f)))
	}
	cmd := exec.Command(py, args...)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONPYCACHEPREFIX="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("py_compile: %v\n%s", err, out)
	}
}

// TestFixFlags checks the flags --fix does not combine with.
func TestFixFlags(t *testing.T) {
	dir := goodCopy(t)
	for _, args := range [][]string{
		{"--dry-run", dir},
		{"--fix", "--diff", "HEAD", dir},
		{"--fix", "--staged", dir},
		{"--fix", "--verify", dir},
	} {
		code, _, errOut := runCLI(args...)
		if code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errOut)
		}
	}
	code, out, _ := runCLI("--fix", dir)
	if code != 0 || !strings.Contains(out, "nothing to fix") {
		t.Errorf("--fix on good: exit %d:\n%s", code, out)
	}
}

// TestFixOnlySelectedOps: --fix --op fixes that op's findings only.
func TestFixOnlySelectedOps(t *testing.T) {
	files := readTree(t, fixtureset.Materialize(t, "good"))
	ops := string(files["src/tilegym/ops/ops.py"])
	ops = strings.Replace(ops, "out: Optional[torch.Tensor] = None, **kwargs: Any)", "out: Optional[torch.Tensor] = None)", 1)
	ops = strings.Replace(ops, "    **kwargs: Any,\n", "", 1)
	files["src/tilegym/ops/ops.py"] = []byte(ops)
	dir := writeTree(t, files)
	_, out, _ := runCLI("--format", "json", dir)
	if n := len(fixableFindings(t, out)); n != 2 {
		t.Fatalf("want 2 fixable findings (two stubs without **kwargs), got %d:\n%s", n, out)
	}
	code, msg, errOut := runCLI("--fix", "--op", "softmax", dir)
	if code == 2 || !strings.Contains(msg, "fixed 1 finding (TG104 1) in 1 file: ") {
		t.Fatalf("--fix --op softmax: exit %d:\n%s%s", code, msg, errOut)
	}
	_, out, _ = runCLI("--format", "json", dir)
	if left := fixableFindings(t, out); len(left) != 1 {
		t.Errorf("want the other op's finding left, got %v", left)
	}
}

// TestFixesInSARIF: a fixable finding's fix is in the SARIF result.
func TestFixesInSARIF(t *testing.T) {
	dir := fixtureset.Materialize(t, "tg104-stub-kwargs")
	_, out, _ := runCLI("--format", "sarif", dir)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				Fixes  []struct {
					ArtifactChanges []struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Replacements []struct {
							DeletedRegion struct {
								StartLine   int `json:"startLine"`
								StartColumn int `json:"startColumn"`
							} `json:"deletedRegion"`
							InsertedContent struct {
								Text string `json:"text"`
							} `json:"insertedContent"`
						} `json:"replacements"`
					} `json:"artifactChanges"`
				} `json:"fixes"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range log.Runs[0].Results {
		if r.RuleID != "TG104" || len(r.Fixes) != 1 {
			continue
		}
		ch := r.Fixes[0].ArtifactChanges
		if len(ch) == 1 && strings.HasSuffix(ch[0].ArtifactLocation.URI, "src/tilegym/ops/ops.py") &&
			len(ch[0].Replacements) == 1 && ch[0].Replacements[0].InsertedContent.Text == "    **kwargs: Any,\n" &&
			ch[0].Replacements[0].DeletedRegion.StartColumn == 1 {
			found = true
		}
	}
	if !found {
		t.Errorf("no TG104 result with the **kwargs fix:\n%s", out)
	}
}

// --fix writes no code from a file name: a cuTile module named
// "softmax;import os.py" gets no `from . import softmax;import os` (which
// imported os, and was added again each pass), and --fix ends.
func TestFixWritesNoCodeFromFileName(t *testing.T) {
	dir := goodCopy(t)
	cutile := filepath.Join(dir, "src/tilegym/ops/cutile")
	if err := os.Rename(filepath.Join(cutile, "softmax.py"), filepath.Join(cutile, "softmax;import os.py")); err != nil {
		t.Fatal(err)
	}
	init := filepath.Join(cutile, "__init__.py")
	before, err := os.ReadFile(init)
	if err != nil {
		t.Fatal(err)
	}
	_, out, _ := runCLI("--format", "json", dir)
	if !strings.Contains(out, "softmax;import os") {
		t.Fatalf("the check does not report the module's import:\n%s", out)
	}
	code, msg, errOut := runCLI("--fix", dir)
	if code == 2 || strings.Contains(msg, "stopped after") {
		t.Fatalf("--fix: exit %d:\n%s%s", code, msg, errOut)
	}
	after, err := os.ReadFile(init)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(after), "import os") || string(after) != string(before) {
		t.Errorf("--fix changed %s:\n%s", init, after)
	}
}

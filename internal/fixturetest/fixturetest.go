// Package fixturetest checks tilegym-lint's fixtures, as go/analysis's
// analysistest does for analyzers: it writes a fixture out (the base repo
// fixtures/good with the fixture's overlay, see package fixtureset), runs
// the whole check on it through the exported API of package checker,
// compares the findings with the fixture's "# want:" comments (file, line,
// rule and a regexp of the message) and the text report with the fixture's
// golden file. Run the tests with -update (or TILEGYM_LINT_UPDATE=1) to
// rewrite the golden files.
package fixturetest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/checks/checkstest"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/report"
	"github.com/tilegym/tilegym-lint/rules"
	"github.com/tilegym/tilegym-lint/source"
)

var update = flag.Bool("update", false, "rewrite the golden reports of the fixtures (fixtures/*.golden, fixtures/rules/*.golden)")

// updating reports whether to rewrite the golden files: the -update flag
// of a test binary that links this package (go test ./checker -update), or
// TILEGYM_LINT_UPDATE=1 in the environment (which, unlike the flag, also
// works for go test ./..., whose other test binaries lack the flag).
func updating() bool { return *update || os.Getenv("TILEGYM_LINT_UPDATE") == "1" }

// Config is the configuration of the checkout at dir, looked for in dir
// only (never above it), or nil.
func Config(t testing.TB, dir string, cat *rules.Catalog) *config.Config {
	t.Helper()
	p, err := config.Find(dir)
	if err != nil {
		t.Fatalf("fixture config: %v", err)
	}
	if p == "" || filepath.Dir(p) != filepath.Clean(dir) {
		return nil
	}
	cfg, err := config.Load(p)
	if err != nil {
		t.Fatalf("fixture config: %v", err)
	}
	if err := cfg.Validate(cat); err != nil {
		t.Fatalf("fixture config: %v", err)
	}
	return cfg
}

// Check runs the whole static check on the checkout at dir, with the
// embedded catalog, as the command does; an analyzer failure is a test
// error.
func Check(t testing.TB, dir string) *checker.Result {
	t.Helper()
	cat := testrepo.Catalog(t)
	cfg := Config(t, dir, cat)
	res, err := checker.CheckSource(&source.DiskSource{Dir: dir}, config.NewSetup(cat, cfg), checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors {
		t.Errorf("analyzer failure: %v", e)
	}
	return res
}

// Report is the text report of a result, as the command prints it with
// --full (every step of every op) and no colour.
func Report(t testing.TB, res *checker.Result) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteText(&b, res, report.TextOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Wants reads the "# want:" comments of every file of the checkout at dir;
// a malformed one (a rule without a message regexp, say) is a test error.
func Wants(t testing.TB, dir string) []fixtureset.Want {
	t.Helper()
	files, err := fixtureset.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := fixtureset.ParseAllWants(files)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// Run checks one fixture: its findings must be exactly its wants (same
// file, line and rule, the message matching the regexp) and its text report
// must be its golden file. It returns the result for further checks.
func Run(t *testing.T, f fixtureset.Fixture) *checker.Result {
	t.Helper()
	dir := f.Materialize(t)
	res := Check(t, dir)
	checkstest.CompareFindings(t, Wants(t, dir), res.Diagnostics)
	CompareGolden(t, f.Golden, Report(t, res))
	return res
}

// CompareGolden compares a report with a golden file, or rewrites the file
// under -update.
func CompareGolden(t testing.TB, golden string, got []byte) {
	t.Helper()
	if updating() {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./checker -run TestFixtures -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("text report differs from %s (run go test ./checker -run TestFixtures -update to rewrite it):\n%s", golden, lineDiff(string(want), string(got)))
	}
}

// lineDiff is a short diff of two texts: the lines of each that the other
// lacks, in order.
func lineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	in := func(lines []string) map[string]int {
		m := map[string]int{}
		for _, l := range lines {
			m[l]++
		}
		return m
	}
	wm, gm := in(wl), in(gl)
	var b strings.Builder
	for _, l := range wl {
		if gm[l] > 0 {
			gm[l]--
			continue
		}
		fmt.Fprintf(&b, "-%s\n", l)
	}
	for _, l := range gl {
		if wm[l] > 0 {
			wm[l]--
			continue
		}
		fmt.Fprintf(&b, "+%s\n", l)
	}
	return b.String()
}

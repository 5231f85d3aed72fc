package baseline_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/baseline"
	"github.com/tilegym/tilegym-lint/internal/fixtureset"
	"github.com/tilegym/tilegym-lint/internal/fixturetest"
)

// fixtureDir writes a fixture out.
func fixtureDir(t *testing.T, name string) string {
	t.Helper()
	all, err := fixtureset.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range all {
		if f.Name == name {
			return f.Materialize(t)
		}
	}
	t.Fatalf("no fixture %s", name)
	return ""
}

func rulesOf(t *testing.T, dir string) (ids []string, baselined int) {
	t.Helper()
	res := fixturetest.Check(t, dir)
	for _, d := range res.Diagnostics {
		ids = append(ids, d.Rule.ID)
		if d.Baseline {
			baselined++
		}
	}
	return ids, baselined
}

// A finding of a skill family -- in a Python file (K01) and in a Rust file
// (R05) -- is recorded by a baseline and then reported as baselined, as a
// TG finding is.
func TestBaselineFamilies(t *testing.T) {
	for _, c := range []struct{ fixture, rule string }{{"k01-sigmoid", "K01"}, {"r05-ffi-transmute", "R05"}} {
		dir := fixtureDir(t, c.fixture)
		res := fixturetest.Check(t, dir)
		if len(res.Diagnostics) != 1 || res.Diagnostics[0].Rule.ID != c.rule {
			t.Fatalf("%s: findings %v, want one %s", c.fixture, res.Diagnostics, c.rule)
		}
		var buf bytes.Buffer
		if err := baseline.Write(&buf, res); err != nil {
			t.Fatal(err)
		}
		b, err := baseline.Read(buf.Bytes(), "baseline")
		if err != nil {
			t.Fatal(err)
		}
		again := fixturetest.Check(t, dir)
		if n := b.Apply(again, baseline.Scope{Whole: true}); n != 1 {
			t.Errorf("%s: %d findings baselined, want 1 (baseline:\n%s)", c.fixture, n, buf.String())
		}
		if len(again.Diagnostics) != 1 || !again.Diagnostics[0].Baseline {
			t.Errorf("%s: after the baseline %v, want the %s finding baselined", c.fixture, again.Diagnostics, c.rule)
		}
	}
}

// A K01 finding is silenced by an ignore comment with a reason; without a
// reason the comment silences nothing and is TG008.
func TestSuppressFamily(t *testing.T) {
	dir := fixtureDir(t, "k01-sigmoid")
	p := filepath.Join(dir, "src/tilegym/ops/cutile/softmax.py")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		if j := strings.Index(l, "  # want: K01"); j >= 0 {
			lines[i] = l[:j] + `  # tilegym-lint: ignore=K01 reason="the swish path is never taken"`
		}
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if ids, _ := rulesOf(t, dir); len(ids) != 0 {
		t.Errorf("with a reasoned ignore: findings %v, want none", ids)
	}
	if err := os.WriteFile(p, []byte(strings.ReplaceAll(strings.Join(lines, "\n"), ` reason="the swish path is never taken"`, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if ids, _ := rulesOf(t, dir); strings.Join(ids, ",") != "K01,TG008" && strings.Join(ids, ",") != "TG008,K01" {
		t.Errorf("with an ignore without reason: findings %v, want K01 and TG008", ids)
	}
}

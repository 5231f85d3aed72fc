package checker

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	tilegymlint "github.com/tilegym/tilegym-lint"
)

// fixtureConfig loads a fixture's own configuration, looking only in the
// fixture directory (never above it).
func fixtureConfig(t *testing.T, dir string) *Config {
	t.Helper()
	for _, name := range ConfigFileNames {
		p := filepath.Join(dir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if name == "pyproject.toml" && !hasToolTable(data) {
			continue
		}
		cfg, err := ParseConfig(data, p)
		if err != nil {
			t.Fatalf("fixture config: %v", err)
		}
		return cfg
	}
	return nil
}

// wantedFindings scans every file of a fixture for "# want: TG301 TG302"
// comments: "path:line" -> sorted rule IDs (a rule twice means two
// findings).
func wantedFindings(t *testing.T, src Source) map[string][]string {
	t.Helper()
	paths, err := src.List()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	for _, p := range paths {
		data, err := src.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			_, rest, ok := strings.Cut(line, "# want:")
			if !ok {
				continue
			}
			key := p + ":" + strconv.Itoa(i+1)
			for _, f := range strings.Fields(rest) {
				if !isRuleID(f) {
					break
				}
				want[key] = append(want[key], f)
			}
			if len(want[key]) == 0 {
				t.Errorf("%s: '# want:' names no rule", key)
			}
			sort.Strings(want[key])
		}
	}
	return want
}

func isRuleID(s string) bool {
	if len(s) != 5 || !strings.HasPrefix(s, "TG") {
		return false
	}
	for _, c := range s[2:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// runFixture checks a fixture directory with the embedded catalog.
func runFixture(t *testing.T, dir string) *Result {
	t.Helper()
	cat, err := LoadCatalog(tilegymlint.RulesTOML, "rules.toml")
	if err != nil {
		t.Fatalf("embedded catalog: %v", err)
	}
	cfg := fixtureConfig(t, dir)
	if err := cfg.Validate(cat); err != nil {
		t.Fatalf("fixture config: %v", err)
	}
	repo, err := Load(&DiskSource{Dir: dir}, BuildLayout(cat.Layout, cfg), cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(repo, cat, cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors {
		t.Errorf("analyzer failure: %v", e)
	}
	return res
}

// TestFixtures runs every fixture under ../fixtures and compares the
// findings with the fixture's "# want:" comments.
func TestFixtures(t *testing.T) {
	entries, err := os.ReadDir("../fixtures")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		dir := filepath.Join("../fixtures", e.Name())
		t.Run(e.Name(), func(t *testing.T) {
			res := runFixture(t, dir)
			got := map[string][]string{}
			for _, d := range res.Diagnostics {
				key := d.File + ":" + strconv.Itoa(d.Pos.Line)
				got[key] = append(got[key], d.Rule.ID)
			}
			for k := range got {
				sort.Strings(got[k])
			}
			want := wantedFindings(t, &DiskSource{Dir: dir})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings mismatch (-want +got):\n%s", diff)
				for _, d := range res.Diagnostics {
					t.Logf("  %s", FormatDiagnostic(d))
				}
			}
			if e.Name() == "good" {
				if len(res.Ops) == 0 {
					t.Fatal("fixtures/good has no op")
				}
				for _, o := range res.Ops {
					for _, s := range o.Steps {
						wantStatus := StatusPass
						if s.Step == 6 {
							wantStatus = StatusNotRun
						}
						if s.Status != wantStatus {
							t.Errorf("good: op %s step %d is %s, want %s", o.Name, s.Step, s.Status, wantStatus)
						}
					}
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no fixtures")
	}
}

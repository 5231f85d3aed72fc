package rules

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

type testParams struct {
	Suffixes []string `toml:"suffixes"`
	Max      int      `toml:"max"`
}

func (p *testParams) Validate() error {
	if p.Max < 0 {
		return fmt.Errorf("max must be >= 0")
	}
	return nil
}

func testKinds(kind string) (func() any, bool) {
	switch kind {
	case "plain":
		return nil, true
	case "withparams":
		return func() any { return new(testParams) }, true
	}
	return nil, false
}

const goodRule = `
[[rule]]
id = "TG301"
step = 3
requirement = "S3.1"
severity = "error"
title = "t"
message = "{op}: m"
kind = "withparams"
[rule.docs]
what = "w"
why = "y"
fix = "f"
[rule.params]
suffixes = ["-GBps"]
max = 3
`

func TestLoadGood(t *testing.T) {
	cat, err := Load([]byte("version = 1\n"+goodRule), "rules.toml", testKinds)
	if err != nil {
		t.Fatal(err)
	}
	r := cat.Rule("TG301")
	if r == nil || r.Step != 3 || r.Severity != Error || r.Line != 3 {
		t.Fatalf("rule = %+v", r)
	}
	p, ok := r.Params.(*testParams)
	if !ok || p.Max != 3 || len(p.Suffixes) != 1 || p.Suffixes[0] != "-GBps" {
		t.Errorf("params = %#v", r.Params)
	}
}

// TestLoadErrors checks that each broken catalog fails with a message that
// names the file, the line and the problem.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		want      string
	}{
		{"syntax", "version = 1\nx = = 2\n", 2, "invalid TOML"},
		{"unclosed table array at a line end", "version = 1\n[[rule]\nid = \"x\"\n", 2, "invalid TOML"},
		{"unknown top key", "version = 1\nbogus = 2\n", 2, `unknown key "bogus"`},
		{"unknown rule key", "version = 1\n" + strings.Replace(goodRule, `kind = "withparams"`, "kind = \"withparams\"\ncolour = \"red\"", 1), 11, `unknown key "rule.0.colour"`},
		{"unknown param", "version = 1\n" + strings.Replace(goodRule, "max = 3", "max = 3\nmaxx = 4", 1), 18, `unknown key "rule.0.params.maxx"`},
		{"unknown docs key", "version = 1\n" + strings.Replace(goodRule, `fix = "f"`, "fix = \"f\"\nhow = \"h\"", 1), 15, `unknown key "rule.0.docs.how"`},
		{"bad id", "version = 1\n" + strings.Replace(goodRule, `"TG301"`, `"TG31"`, 1), 4, `invalid id "TG31"`},
		{"step mismatch", "version = 1\n" + strings.Replace(goodRule, "step = 3", "step = 4", 1), 5, "does not match"},
		{"unknown kind", "version = 1\n" + strings.Replace(goodRule, `"withparams"`, `"nosuch"`, 1), 10, `unknown kind "nosuch"`},
		{"unknown requirement", "version = 1\n" + strings.Replace(goodRule, `"S3.1"`, `"S3.9"`, 1), 3, `unknown requirement "S3.9"`},
		{"bad severity", "version = 1\n" + strings.Replace(goodRule, `"error"`, `"fatal"`, 1), 7, `invalid severity "fatal"`},
		{"missing title", "version = 1\n" + strings.Replace(goodRule, "title = \"t\"\n", "", 1), 3, "missing title"},
		{"missing why", "version = 1\n" + strings.Replace(goodRule, "why = \"y\"\n", "", 1), 11, "missing docs.why"},
		{"params for plain kind", "version = 1\n" + strings.Replace(goodRule, `"withparams"`, `"plain"`, 1), 15, "takes no params"},
		{"wrong type", "version = 1\n" + strings.Replace(goodRule, "max = 3", `max = "x"`, 1), 17, "rule.0.params.max"},
		{"param validate", "version = 1\n" + strings.Replace(goodRule, "max = 3", "max = -1", 1), 15, "max must be >= 0"},
		{"duplicate", "version = 1\n" + goodRule + goodRule, 19, "duplicate rule id TG301"},
		{"bad layout glob", "version = 1\n[layout]\n[[layout.scope]]\nname = \"core\"\ntests = [\"/abs/x.py\"]\n", 5, "relative"},
		{"unknown layout key", "version = 1\n[layout]\n[[layout.scope]]\nname = \"core\"\ntestz = [\"x.py\"]\n", 5, `unknown key "layout.scope.0.testz"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load([]byte(tt.src), "cat.toml", testKinds)
			if err == nil {
				t.Fatal("Load succeeded")
			}
			prefix := fmt.Sprintf("cat.toml:%d: ", tt.line)
			found := false
			for _, line := range strings.Split(err.Error(), "\n") {
				if strings.HasPrefix(line, prefix) && strings.Contains(line, tt.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("error %q\nwant a line starting %q containing %q", err, prefix, tt.want)
			}
			var le ErrorList
			var one *LoadError
			if !errors.As(err, &le) && !errors.As(err, &one) {
				t.Errorf("error is %T, want ErrorList or *LoadError", err)
			}
		})
	}
}

func TestKeyLines(t *testing.T) {
	src := `a = 1
s = """
x = 2
"""
arr = [
  "y = 3",
]
[[t]]
k = 1
[t.sub]
q = 'v'
[[t]]
"quoted key" = 2
[x.y]
z.w = 1
`
	kl := ScanKeyLines([]byte(src))
	for key, want := range map[string]int{
		"a": 1, "s": 2, "arr": 5, "t.0": 8, "t.0.k": 9, "t.0.sub": 10, "t.0.sub.q": 11,
		"t.1": 12, "t.1.quoted key": 13, "x.y": 14, "x.y.z.w": 15,
	} {
		if got := kl[key]; got != want {
			t.Errorf("line of %q = %d, want %d", key, got, want)
		}
	}
	if _, ok := kl["x"]; ok {
		t.Errorf("key inside a multi-line string recorded")
	}
	if got := kl.Line("t", "1", "nokey"); got != 12 {
		t.Errorf("fallback to ancestor: got %d, want 12", got)
	}
}

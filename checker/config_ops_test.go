package checker

import (
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/source"
)

// TestConfigUnknownOps: an op in exclude-ops the checkout does not have is
// an error, as one in [skip.<op>] is, each naming the file, the line and
// the closest op; known ops are no error.
func TestConfigUnknownOps(t *testing.T) {
	cat := testrepo.Catalog(t)
	repo, err := load.Load(&source.DiskSource{Dir: "../fixtures/good"}, config.NewSetup(cat, nil))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(repo, config.NewSetup(cat, nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, toml string
		want       []string // "" for no error
	}{
		{"known", "exclude-ops = [\"softmax\", \"demo.scale\"]\n[skip.relu]\n\"5\" = \"no harness\"\n", nil},
		{"exclude-ops typo", "disable = []\nexclude-ops = [\"sofmax\"]\n",
			[]string{`cfg.toml:2: exclude-ops: no op named "sofmax" in this checkout; did you mean "softmax"?`}},
		{"exclude-ops far", "exclude-ops = [\"zzzzzzzzzz\"]\n",
			[]string{`cfg.toml:1: exclude-ops: no op named "zzzzzzzzzz"`, "write an op's dispatch name"}},
		{"skip typo", "[skip.\"demo.scal\"]\n\"5\" = \"no harness\"\n",
			[]string{`skip.demo.scal: no op named "demo.scal" in this checkout; did you mean "demo.scale"?`}},
		{"pyproject", "[tool.tilegym-lint]\nexclude-ops = [\"rellu\"]\n",
			[]string{`pyproject.toml:2: exclude-ops: no op named "rellu"`, `did you mean "relu"?`}},
	} {
		name := "cfg.toml"
		if tc.name == "pyproject" {
			name = "pyproject.toml"
		}
		cfg, err := config.Parse([]byte(tc.toml), name)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = cfg.CheckOps(res.Table)
		if tc.want == nil {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
}

package checks

import (
	"errors"
	"sort"
	"testing"

	"github.com/tilegym/tilegym-lint/optable"
	"github.com/tilegym/tilegym-lint/source"
)

// mapSource is a Source over files in memory.
type mapSource map[string]string

func (m mapSource) Root() string { return "mem" }
func (m mapSource) List() ([]string, error) {
	var out []string
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}
func (m mapSource) ReadFile(p string) ([]byte, error) {
	if s, ok := m[p]; ok {
		return []byte(s), nil
	}
	return nil, errors.New("no such file")
}

func TestDeclaredProjects(t *testing.T) {
	src := mapSource{
		"requirements.txt":                     "numpy\ncuda-tile>=1.3.0  # comment\n-r requirements-extra.txt\n-r requirements.txt\n",
		"requirements-extra.txt":               "cuda-tile<2\n",
		"setup.py":                             "import setuptools\n",
		"modeling/transformers/pyproject.toml": "[project]\ndependencies = [\"cuda-tile[tileiras]>=1.5.0\"]\n",
		"bad/pyproject.toml":                   "[project\n",
		"typo/requirements.txt":                "cuda-tile>=1.x\n",
		"empty/setup.cfg":                      "[metadata]\nname = x\n",
		"loop/requirements.txt":                "-r a.txt\n",
		"loop/a.txt":                           "-r requirements.txt\ncuda-tile==1.2.0\n",
	}
	d := newDeclared(&optable.Repo{Snapshot: source.Snapshot{Source: src}})
	for _, c := range []struct{ file, want string }{
		{"src/tilegym/ops/cutile/softmax.py", ">=1.3.0,<2"},
		{"modeling/transformers/src/x.py", ">=1.5.0"},
		{"bad/src/x.py", "any version"},   // not TOML: declares nothing
		{"typo/x.py", "any version"},      // a version that does not parse: constrains nothing
		{"empty/pkg/x.py", "any version"}, // a project that does not name cuda-tile
		{"loop/x.py", "==1.2.0"},          // includes read once each
	} {
		if got := d.admitted(c.file)("cuda-tile").String(); got != c.want {
			t.Errorf("%s: cuda-tile %s, want %s", c.file, got, c.want)
		}
	}
	if got := newDeclared(&optable.Repo{}).admitted("src/x.py")("cuda-tile").String(); got != "any version" {
		t.Errorf("no source: %s", got)
	}
}

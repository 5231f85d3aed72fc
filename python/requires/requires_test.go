package requires

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// Versions in increasing PEP 440 order (each line strictly after the one
// before, but for the spellings of one version on the same line).
var ordered = [][]string{
	{"0.9"},
	{"1.0.dev0", "1.0-dev0", "1.0dev"},
	{"1.0a1.dev1"},
	{"1.0a1", "1.0alpha1", "1.0.a.1", "1.0-A1"},
	{"1.0a2"},
	{"1.0b1", "1.0beta1"},
	{"1.0rc1", "1.0c1", "1.0pre1", "1.0preview1"},
	{"1.0", "1.0.0", "v1.0", "1", " 1.0.0 "},
	{"1.0+local.1"},
	{"1.0+local.2"},
	{"1.0.post1.dev0"},
	{"1.0.post1", "1.0-1", "1.0r1", "1.0.rev1", "1.0post1"},
	{"1.0.1"},
	{"1.2.0"},
	{"1.3.0rc1"},
	{"1.3", "1.3.0"},
	{"1.10"},
	{"1!0.1"},
}

func mustVersion(t *testing.T, s string) Version {
	t.Helper()
	v, err := ParseVersion(s)
	if err != nil {
		t.Fatalf("ParseVersion(%q): %v", s, err)
	}
	return v
}

func TestCompareOrder(t *testing.T) {
	for i, a := range ordered {
		for j, b := range ordered {
			for _, x := range a {
				for _, y := range b {
					want := 0
					switch {
					case i < j:
						want = -1
					case i > j:
						want = 1
					}
					if got := Compare(mustVersion(t, x), mustVersion(t, y)); got != want {
						t.Errorf("Compare(%q, %q) = %d, want %d", x, y, got, want)
					}
				}
			}
		}
	}
}

func TestParseVersionErrors(t *testing.T) {
	for _, s := range []string{"", "abc", "1.", "1..2", "1.0x", "1.0+", "1.0+a b", "x!1.0", "1.0a1b2", "99999999999", ">=1.3", "1.3,"} {
		if _, err := ParseVersion(s); err == nil {
			t.Errorf("ParseVersion(%q): no error", s)
		} else if !strings.Contains(err.Error(), "invalid version") {
			t.Errorf("ParseVersion(%q): %v, want an 'invalid version' message", s, err)
		}
	}
}

func mustRange(t *testing.T, s string) Range {
	t.Helper()
	r, err := ParseSpecifiers(s)
	if err != nil {
		t.Fatalf("ParseSpecifiers(%q): %v", s, err)
	}
	return r
}

func TestRanges(t *testing.T) {
	for _, c := range []struct {
		s, gate          string
		within, disjoint bool
	}{
		{">=1.3.0", ">=1.3", true, false},
		{">=1.3.0", ">=1.2", true, false},
		{">=1.2", ">=1.3", false, false},
		{"", ">=1.3", false, false},
		{"==1.2.0", ">=1.3", false, true},
		{">=1.0,<1.3", ">=1.3", false, true},
		{">=1.0,<=1.3", ">=1.3", false, false},
		{"<1.3", "<1.3", true, false},
		{"~=1.4.2", ">=1.4,<1.5", true, false},
		{"~=1.4", ">=1.4,<2", true, false},
		{"~=1.4", ">=1.5", false, false},
		{"==1.5.*", ">=1.5", true, false},
		{"==1.5.*", ">=1.6", false, true},
		{"==1.2.*", "<1.3", true, false},
		{"!=1.3", ">=1.3", false, false},
		{">1.3", ">=1.3", true, false},
		{"===1.5", ">=1.5", true, false},
		{"  >= 1.3.0 ,  < 2  ", ">=1.3,<2", true, false},
		{">=2,<1", ">=1.3", true, true}, // empty: within anything, disjoint from everything
	} {
		s, g := mustRange(t, c.s), mustRange(t, c.gate)
		if got := s.Within(g); got != c.within {
			t.Errorf("%q (%v) within %q: %v, want %v", c.s, s, c.gate, got, c.within)
		}
		if got := s.Disjoint(g); got != c.disjoint {
			t.Errorf("%q disjoint from %q: %v, want %v", c.s, c.gate, got, c.disjoint)
		}
	}
}

func TestHull(t *testing.T) {
	h := mustRange(t, ">=1.5,<2").Hull(mustRange(t, "==1.3"))
	if got := h.String(); got != ">=1.3,<2" {
		t.Errorf("hull = %s, want >=1.3,<2", got)
	}
	if h := mustRange(t, ">=1.5").Hull(All); h != All {
		t.Errorf("hull with All = %v", h)
	}
}

func TestParseSpecifiersErrors(t *testing.T) {
	for _, s := range []string{"1.3", ">=", ">=1.3,", "=>1.3", ">=1.x", "~=1", "==1.5a1.*", ">= 1.3 or 2"} {
		if _, err := ParseSpecifiers(s); err == nil {
			t.Errorf("ParseSpecifiers(%q): no error", s)
		}
	}
}

func TestParseRequirement(t *testing.T) {
	for _, c := range []struct{ s, name, rng string }{
		{"cuda-tile>=1.3.0", "cuda-tile", ">=1.3.0"},
		{"cuda_tile[tileiras] >=1.5.0 ; sys_platform == 'linux'", "cuda-tile", ">=1.5.0"},
		{"Cuda.Tile (>=1.2,<2)", "cuda-tile", ">=1.2,<2"},
		{"cuda-tile", "cuda-tile", "any version"},
		{"cuda-tile-experimental @ git+https://github.com/NVIDIA/cutile-python.git#subdirectory=experimental", "cuda-tile-experimental", "any version"},
		{"transformers==5.3.0", "transformers", "==5.3.0"},
	} {
		r, err := ParseRequirement(c.s)
		if err != nil {
			t.Errorf("ParseRequirement(%q): %v", c.s, err)
			continue
		}
		if r.Name != c.name || r.Range.String() != c.rng {
			t.Errorf("ParseRequirement(%q) = %s %s, want %s %s", c.s, r.Name, r.Range, c.name, c.rng)
		}
	}
	for _, s := range []string{"cuda-tile>=one", "cuda-tile (>=1.3", "cuda-tile 1.3", "", ">=1.3"} {
		if _, err := ParseRequirement(s); err == nil {
			t.Errorf("ParseRequirement(%q): no error", s)
		}
	}
}

func TestRequirementsTxt(t *testing.T) {
	data := "# comment\ntransformers==5.3.0\ncuda-tile>=1.3.0  # Or use: pip install cuda-tile[tileiras]\n" +
		"-r dev.txt\n--constraint=../c.txt\n-e .\n./local/pkg\nnumpy \\\n  >=1.2\ncuda-bindings>=13.x\n"
	decls, inc := RequirementsTxt("sub/requirements.txt", []byte(data))
	var got []string
	for _, d := range decls {
		s := d.Name + " " + d.Range.String()
		if d.Err != nil {
			s += " (error)"
		}
		got = append(got, fmt.Sprintf("%s @%d", s, d.Line))
	}
	want := []string{"transformers ==5.3.0 @2", "cuda-tile >=1.3.0 @3", "numpy >=1.2 @8", "cuda-bindings any version (error) @10"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("declarations:\n got %v\nwant %v", got, want)
	}
	if strings.Join(inc, "|") != "sub/dev.txt|c.txt" {
		t.Errorf("includes = %v, want [sub/dev.txt c.txt]", inc)
	}
}

func TestPyprojectAndSetupCfg(t *testing.T) {
	py := `[project]
name = "x"
dependencies = [
  "cuda-tile[tileiras]>=1.5.0",
  "numpy",
]
[project.optional-dependencies]
old = ["cuda-tile==1.2.0"]
[dependency-groups]
dev = ["pytest", {include-group = "old"}]
`
	decls, err := Pyproject("pyproject.toml", []byte(py))
	if err != nil {
		t.Fatal(err)
	}
	if len(decls) != 4 || decls[0].Line != 4 || decls[2].Name != "cuda-tile" || !decls[2].Optional || decls[0].Optional {
		t.Errorf("pyproject declarations = %+v", decls)
	}
	if _, err := Pyproject("pyproject.toml", []byte("[project\n")); err == nil {
		t.Error("invalid TOML: no error")
	}
	cfg := "[metadata]\nname = x\n[options]\ninstall_requires =\n    numpy\n    cuda-tile>=1.4 # pinned\npython_requires = >=3.10\n[options.extras_require]\nold =\n  cuda-tile<1.3\n"
	cd := SetupCfg("setup.cfg", []byte(cfg))
	if len(cd) != 3 || cd[1].Name != "cuda-tile" || cd[1].Range.String() != ">=1.4" || cd[1].Line != 6 || !cd[2].Optional || cd[2].Range.String() != "<1.3" {
		t.Errorf("setup.cfg declarations = %+v", cd)
	}
}

func TestAdmitted(t *testing.T) {
	d := func(s string, optional bool) Declaration {
		x, _ := declare("f", 1, s, optional)
		return x
	}
	for _, c := range []struct {
		decls []Declaration
		want  string
	}{
		{nil, "any version"},
		{[]Declaration{d("cuda-tile", false)}, "any version"},
		{[]Declaration{d("cuda-tile>=1.3.0", false), d("cuda-tile[tileiras]", true)}, ">=1.3.0"},
		{[]Declaration{d("cuda-tile>=1.3.0", false), d("cuda-tile<2", false)}, ">=1.3.0,<2"},
		{[]Declaration{d("cuda-tile>=1.3.0", false), d("cuda-tile>=1.5", true)}, ">=1.3.0"},   // the extra is optional
		{[]Declaration{d("cuda-tile>=1.5", true), d("cuda-tile==1.3", true)}, ">=1.3"},        // either extra
		{[]Declaration{d("cuda-tile>=1.5", false), d("cuda-tile<1.3", false)}, "any version"}, // contradiction
		{[]Declaration{d("cuda-tile>=1.x", false)}, "any version"},                            // does not parse
		{[]Declaration{d("cuda-tile>=1.x", false), d("cuda_tile>=1.2", false)}, ">=1.2"},
		{[]Declaration{d("numpy>=2", false)}, "any version"},
	} {
		r, _ := Admitted(c.decls, "Cuda_Tile")
		if r.String() != c.want {
			t.Errorf("Admitted(%v) = %s, want %s", c.decls, r, c.want)
		}
	}
}

// TestNoPanic feeds the parsers random text made of the characters
// versions and requirements use: errors, never a panic.
func TestNoPanic(t *testing.T) {
	const alphabet = "0123456789.!+-_*~=<>()[];,@ abcdeoprstvx#\\\n\"'"
	rng := rand.New(rand.NewSource(1))
	for range 20000 {
		b := make([]byte, rng.Intn(24))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		s := string(b)
		ParseVersion(s)
		ParseSpecifiers(s)
		ParseRequirement(s)
		RequirementsTxt("r.txt", b)
		SetupCfg("setup.cfg", b)
		Pyproject("pyproject.toml", b)
	}
}

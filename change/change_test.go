package change

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tilegym/tilegym-lint/checker"
	"github.com/tilegym/tilegym-lint/config"
	"github.com/tilegym/tilegym-lint/git"
	"github.com/tilegym/tilegym-lint/internal/realtree"
	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/load"
	"github.com/tilegym/tilegym-lint/source"
)

// changeScenario edits a repository (committed at its base) into a change.
type changeScenario struct {
	name   string
	edit   func(t *testing.T, dir string)
	staged bool
	byOps  bool // the ops of the change are checked alone (else the whole snapshots)
	quiet  bool // the change touches no op
	random bool // generated: either path, any ops (the reports must be equal)
}

// runChangeScenarios checks, for each scenario, that the change mode's
// report when only the ops of the change are checked equals its report
// when the whole snapshots are.
func runChangeScenarios(t *testing.T, src string, scenarios []changeScenario) {
	dir := testrepo.GitRepo(t, src, nil)
	cat := testrepo.Catalog(t)
	setup := config.NewSetup(cat, nil)
	for _, sc := range scenarios {
		testrepo.GitRun(t, dir, "reset", "-q", "--hard", "HEAD")
		testrepo.GitRun(t, dir, "clean", "-qfd")
		sc.edit(t, dir)
		ch, err := FromGit(dir, "HEAD", sc.staged)
		if err != nil {
			t.Fatal(err)
		}
		whole, _, err := checkChange(ch, setup, checker.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		got, byOps, err := checkChange(ch, setup, checker.Options{}, true)
		if err != nil {
			t.Fatal(err)
		}
		if !byOps {
			// The whole snapshots in batches (as large ones are) give
			// the same report.
			batchesFor = func(*load.Loader) int { return 3 }
			inBatches, _, err := checkChange(ch, setup, checker.Options{}, true)
			batchesFor = checker.Batches
			if err != nil {
				t.Fatal(err)
			}
			if wb, bb := whole.String(), inBatches.String(); wb != bb {
				t.Errorf("%s: the report of whole snapshots in batches differs from whole checks':\n got: %s\nwant: %s", sc.name, bb, wb)
			}
		}
		if byOps != sc.byOps && !sc.random {
			t.Errorf("%s: checked the ops of the change alone = %v, want %v", sc.name, byOps, sc.byOps)
		}
		wb, gb := whole.String(), got.String()
		if wb != gb {
			t.Errorf("%s: the report differs from whole checks':\n got: %s\nwant: %s", sc.name, gb, wb)
		}
		// The command's path: git runs while the working tree is read.
		viaGit, err := CheckGit(dir, "HEAD", sc.staged, setup, checker.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if vb := viaGit.String(); wb != vb {
			t.Errorf("%s: CheckGit's report differs from whole checks':\n got: %s\nwant: %s", sc.name, vb, wb)
		}
		if sc.random {
			t.Logf("%s: byOps=%v ops=%d", sc.name, byOps, len(whole.Ops))
			continue
		}
		if len(whole.Ops) == 0 && !sc.quiet {
			t.Errorf("%s: no op touched; the scenario tests nothing", sc.name)
		}
		if len(whole.Ops) > 0 && sc.quiet {
			t.Errorf("%s: ops touched, want none: %s", sc.name, wb)
		}
	}
}

// TestChangeByOps: change mode on fixtures/good.
func TestChangeByOps(t *testing.T) {
	const softmax = "src/tilegym/ops/cutile/softmax.py"
	runChangeScenarios(t, "../fixtures/good", []changeScenario{
		{name: "edit module", byOps: true, edit: func(t *testing.T, dir string) { testrepo.AppendFile(t, dir, softmax, "\n# edit\n") }},
		{name: "drop registration", quiet: true, byOps: false, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, softmax, `@register_impl("softmax", backend="cutile")`, "")
		}},
		{name: "edit test", byOps: true, edit: func(t *testing.T, dir string) { testrepo.AppendFile(t, dir, "tests/ops/test_softmax.py", "\n# edit\n") }},
		{name: "delete benchmark", byOps: true, edit: func(t *testing.T, dir string) { testrepo.GitRun(t, dir, "rm", "-q", "tests/benchmark/bench_relu.py") }},
		{name: "new test", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.WriteFile(t, dir, "tests/ops/test_more_softmax.py", "from tilegym.ops import softmax\n\n\ndef test_x():\n    softmax(1)\n")
		}},
		{name: "rename module", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.GitRun(t, dir, "mv", softmax, "src/tilegym/ops/cutile/softmax2.py")
		}},
		{name: "move test", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.GitRun(t, dir, "mv", "tests/ops/test_softmax.py", "tests/ops/activation/test_softmax.py")
		}},
		{name: "staged", staged: true, byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.AppendFile(t, dir, "tests/ops/test_silu_and_mul.py", "\n# edit\n")
			testrepo.GitRun(t, dir, "add", "tests/ops/test_silu_and_mul.py")
			testrepo.AppendFile(t, dir, softmax, "\n# unstaged\n")
		}},
		{name: "readme", quiet: true, byOps: true, edit: func(t *testing.T, dir string) { testrepo.WriteFile(t, dir, "README.md", "# changed\n") }},
		{name: "broken test", byOps: false, edit: func(t *testing.T, dir string) { testrepo.WriteFile(t, dir, "tests/ops/test_softmax.py", "def (:\n") }},
		{name: "dispatch file comment", quiet: true, byOps: true, edit: func(t *testing.T, dir string) { testrepo.AppendFile(t, dir, opsPy, "\n# edit\n") }},
		{name: "cutile init comment", quiet: true, byOps: true, edit: func(t *testing.T, dir string) { testrepo.AppendFile(t, dir, initPy, "\n# edit\n") }},
		{name: "add op", byOps: true, edit: func(t *testing.T, dir string) { addOp(t, dir, "gelu_and_mul", true) }},
		{name: "add op, no export", byOps: true, edit: func(t *testing.T, dir string) { addOp(t, dir, "gelu_and_mul", false) }},
		{name: "add op, staged", staged: true, byOps: true, edit: func(t *testing.T, dir string) {
			addOp(t, dir, "gelu_and_mul", true)
			testrepo.GitRun(t, dir, "add", ".")
			testrepo.AppendFile(t, dir, initPy, "\n# unstaged\n")
		}},
		{name: "add stub", byOps: true, edit: func(t *testing.T, dir string) { testrepo.AppendFile(t, dir, opsPy, stubOf("gelu_and_mul")) }},
		{name: "edit stub", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, opsPy, "SiLU of the first half", "SiLU of the first half of input")
		}},
		{name: "break stub", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, opsPy, "def silu_and_mul(input: torch.Tensor, out", "def silu_and_mul(input: torch.Tensor, outs")
		}},
		{name: "remove stub", byOps: false, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, opsPy, `@dispatch("silu_and_mul"`, `@_gone("silu_and_mul"`)
		}},
		{name: "skip comment above a stub", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, opsPy, "\n@dispatch(\"silu_and_mul\"", "\n# tilegym-lint: skip-step=5 reason=\"no harness\"\n@dispatch(\"silu_and_mul\"")
		}},
		{name: "dispatch file import", quiet: true, byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, opsPy, "import torch\n", "import torch\nimport os\n")
		}},
		{name: "dispatch file import a stub uses", quiet: true, byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, opsPy, "from typing import Optional\n", "from collections import OrderedDict as Optional\n")
		}},
		{name: "dispatch file call", quiet: true, byOps: false, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, opsPy, "import torch\n", "import torch\ntorch.manual_seed(0)\n")
		}},
		{name: "dispatch file imports moved", quiet: true, byOps: false, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, opsPy, "from typing import Any\nfrom typing import Optional\n", "from typing import Optional\nfrom typing import Any\n")
		}},
		{name: "unexport", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, initPy, "    from . import softmax\n", "")
		}},
		{name: "drop from __all__", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, initPy, "        \"softmax\",\n", "")
		}},
		{name: "misorder", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, initPy, "    from . import silu_and_mul\n    from . import softmax\n", "    from . import softmax\n    from . import silu_and_mul\n")
		}},
		{name: "sub-package init", quiet: true, byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.AppendFile(t, dir, "src/tilegym/ops/cutile/activation/__init__.py", "\n# edit\n")
		}},
		{name: "sub-package init entry", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, "src/tilegym/ops/cutile/activation/__init__.py", "from . import relu", "from . import relu  # the module")
		}},
		{name: "init noqa", byOps: false, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, initPy, "    from . import softmax\n", "    from . import softmax  # noqa: TG302\n")
		}},
		{name: "init shape", byOps: false, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, initPy, "    from .softmax import softmax\n", "")
			testrepo.ReplaceInFile(t, dir, initPy, "    from .silu_and_mul import silu_and_mul\n", "")
		}},
		{name: "delete cutile init", byOps: false, edit: func(t *testing.T, dir string) { testrepo.GitRun(t, dir, "rm", "-q", initPy) }},
		{name: "delete dispatch file", byOps: false, edit: func(t *testing.T, dir string) { testrepo.GitRun(t, dir, "rm", "-q", opsPy) }},
		{name: "delete dispatch file, staged", staged: true, byOps: false, edit: func(t *testing.T, dir string) { testrepo.GitRun(t, dir, "rm", "-q", opsPy) }},
		{name: "new init", quiet: true, byOps: false, edit: func(t *testing.T, dir string) {
			testrepo.WriteFile(t, dir, "src/tilegym/ops/cutile/experimental/__init__.py", "")
		}},
		{name: "orphan registration", byOps: false, edit: func(t *testing.T, dir string) {
			testrepo.AppendFile(t, dir, softmax, "\n\n@register_impl(\"softmax_v2\", backend=\"cutile\")\ndef softmax_v2(x, **kwargs):\n    return x\n")
		}},
		{name: "other init", quiet: true, byOps: true, edit: func(t *testing.T, dir string) { testrepo.AppendFile(t, dir, "tests/ops/__init__.py", "\n# edit\n") }},
	})
}

const (
	opsPy  = "src/tilegym/ops/ops.py"
	initPy = "src/tilegym/ops/cutile/__init__.py"
)

// stubOf is the text of a dispatch stub of fixtures/good's shape.
func stubOf(name string) string {
	return "\n\n@dispatch(\"" + name + "\", fallback_backend=\"torch\")\n" +
		"def " + name + "(input: torch.Tensor, out: Optional[torch.Tensor] = None, **kwargs: Any):\n" +
		"    \"\"\"\n    " + name + ".\n\n    Args:\n        input: input tensor\n        out: optional output tensor\n\n" +
		"    Returns:\n        The result tensor.\n    \"\"\"\n    raise NotImplementedError\n"
}

// addOp adds an op to fixtures/good as a pull request would: its stub, its
// cuTile module (silu_and_mul's, renamed), its import in the cuTile
// __init__ (and, if export, its function and __all__ entry), its test and
// benchmark.
func addOp(t *testing.T, dir, name string, export bool) {
	t.Helper()
	testrepo.AppendFile(t, dir, opsPy, stubOf(name))
	for _, f := range [][2]string{
		{"src/tilegym/ops/cutile/silu_and_mul.py", "src/tilegym/ops/cutile/" + name + ".py"},
		{"tests/ops/test_silu_and_mul.py", "tests/ops/test_" + name + ".py"},
		{"tests/benchmark/bench_silu_and_mul.py", "tests/benchmark/bench_" + name + ".py"},
	} {
		data, err := os.ReadFile(filepath.Join(dir, f[0]))
		if err != nil {
			t.Fatal(err)
		}
		testrepo.WriteFile(t, dir, f[1], strings.ReplaceAll(string(data), "silu_and_mul", name))
	}
	testrepo.ReplaceInFile(t, dir, initPy, "    from . import activation\n", "    from . import activation\n    from . import "+name+"\n")
	if export {
		testrepo.ReplaceInFile(t, dir, initPy, "    from .silu_and_mul import", "    from ."+name+" import "+name+"\n    from .silu_and_mul import")
		testrepo.ReplaceInFile(t, dir, initPy, "    __all__ = [\n", "    __all__ = [\n        \""+name+"\",\n")
	}
}

// TestChangeByOpsRandom: random line edits of fixtures/good's shared files
// (dispatch files, cuTile __init__s) and of a module: the report of the
// ops checked alone equals the whole checks'.
func TestChangeByOpsRandom(t *testing.T) {
	n := 120
	if testing.Short() || testrepo.RaceEnabled {
		n = 25
	}
	runChangeScenarios(t, "../fixtures/good", randomScenarios(n, 1, []string{opsPy, initPy, "src/tilegym/ops/cutile/activation/__init__.py",
		"src/tilegym/suites/demo/ops.py", "src/tilegym/suites/demo/cutile/__init__.py", "src/tilegym/ops/cutile/softmax.py"}))
}

// randomScenarios returns n changes, each of one to three random line edits
// (delete, duplicate, swap, insert a line of a pool of the lines such
// files have) of one or two of files, drawn from seed.
func randomScenarios(n int, seed int64, files []string) []changeScenario {
	pool := []string{
		"from . import relu", "from . import silu_and_mul", "from . import zeta", "from .softmax import softmax",
		"from .silu_and_mul import silu_and_mul", `"silu_and_mul",`, `"relu",`, `"softmax",`, "import os",
		"from typing import Optional", "from typing import List as Optional", "LIMIT = 3", "print(LIMIT)",
		"# a comment", `# tilegym-lint: skip-step=4 reason="later"`, "pass  # noqa: TG302", "x = 1  # noqa: F401",
		`@dispatch("softmax")`, `@dispatch("gelu_and_mul", fallback_backend="torch")`,
		"def gelu_and_mul(input, out=None, **kwargs):", "    raise NotImplementedError",
		`@register_impl("softmax", backend="cutile")`, `@register_impl("nothing", backend="cutile")`, "def f(x, **kwargs):",
	}
	rng := rand.New(rand.NewSource(seed))
	type edit struct {
		file string
		op   int
		a, b int
		line string
	}
	var scenarios []changeScenario
	for i := 0; i < n; i++ {
		var edits []edit
		for k := 0; k < 1+rng.Intn(2); k++ {
			f := files[rng.Intn(len(files))]
			for m := 0; m < 1+rng.Intn(3); m++ {
				edits = append(edits, edit{f, rng.Intn(4), rng.Int(), rng.Int(), pool[rng.Intn(len(pool))]})
			}
		}
		scenarios = append(scenarios, changeScenario{name: fmt.Sprintf("random %d", i), random: true, edit: func(t *testing.T, dir string) {
			for _, e := range edits {
				data, err := os.ReadFile(filepath.Join(dir, e.file))
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(string(data), "\n")
				a, b := e.a%len(lines), e.b%len(lines)
				switch e.op {
				case 0: // delete a line
					lines = append(lines[:a], lines[a+1:]...)
				case 1: // duplicate a line
					lines = append(lines[:a+1], lines[a:]...)
				case 2: // swap two lines
					lines[a], lines[b] = lines[b], lines[a]
				case 3: // insert a line, indented as the one it goes before
					indent := lines[a][:len(lines[a])-len(strings.TrimLeft(lines[a], " "))]
					lines = append(lines[:a], append([]string{indent + e.line}, lines[a:]...)...)
				}
				testrepo.WriteFile(t, dir, e.file, strings.Join(lines, "\n"))
			}
		}})
	}
	return scenarios
}

// changeTree returns the TileGym tree that change mode tests copy
// (realtree.Need), skipping under -short or the race detector (the fixtures
// exercise the same concurrency).
func changeTree(t *testing.T) string {
	if testing.Short() || testrepo.RaceEnabled {
		t.Skip("short, or under the race detector")
	}
	return realtree.Need(t)
}

// TestChangeByOpsTileGym: change mode on a copy of the TileGym tree, when
// present ($TILEGYM_LINT_TREE).
func TestChangeByOpsTileGym(t *testing.T) {
	tree := changeTree(t)
	runChangeScenarios(t, tree, []changeScenario{
		{name: "edit module and test", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.AppendFile(t, dir, "src/tilegym/ops/cutile/softmax.py", "\n# edit\n")
			testrepo.AppendFile(t, dir, "tests/ops/test_softmax.py", "\n# edit\n")
		}},
		{name: "drop registration", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, "src/tilegym/ops/cutile/rms_norm.py", "@register_impl(", "@_no_register(")
		}},
		{name: "delete benchmark", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.GitRun(t, dir, "rm", "-q", "tests/benchmark/bench_softmax.py")
		}},
		{name: "edit suite test", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.AppendFile(t, dir, "tests/suites/liger/test_softmax.py", "\n# edit\n")
		}},
		{name: "dispatch and init comments", quiet: true, byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.AppendFile(t, dir, opsPy, "\n# edit\n")
			testrepo.AppendFile(t, dir, initPy, "\n# edit\n")
		}},
		{name: "unexport softmax", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, initPy, "    from . import softmax\n", "")
		}},
		{name: "edit a stub", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, opsPy, "def softmax(", "def softmax_(")
		}},
		{name: "dispatch file import", quiet: true, byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, opsPy, "import torch\n", "import torch\nimport os\n")
		}},
		{name: "add op", byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.CloneOp(t, dir, opsPy, "softmax", "softmax2", "src/tilegym/ops/cutile/softmax.py", "tests/ops/test_softmax.py", "tests/benchmark/bench_softmax.py")
			testrepo.ReplaceInFile(t, dir, initPy, "    from . import softmax\n", "    from . import softmax\n    from . import softmax2\n")
		}},
		{name: "add suite op", byOps: true, edit: func(t *testing.T, dir string) {
			const liger = "src/tilegym/suites/liger/"
			testrepo.CloneOp(t, dir, liger+"ops.py", "dyt", "dyt2", liger+"cutile/dyt.py", "tests/suites/liger/test_dyt.py")
			testrepo.ReplaceInFile(t, dir, liger+"cutile/__init__.py", "from . import dyt  # noqa: F401\n", "from . import dyt  # noqa: F401\nfrom . import dyt2  # noqa: F401\n")
			testrepo.ReplaceInFile(t, dir, liger+"cutile/__init__.py", "    \"dyt\",\n", "    \"dyt\",\n    \"dyt2\",\n")
			testrepo.ReplaceInFile(t, dir, liger+"__init__.py", "from .ops import dyt\n", "from .ops import dyt\nfrom .ops import dyt2\n")
		}},
		{name: "edit a module with an orphan registration", byOps: false, edit: func(t *testing.T, dir string) {
			testrepo.AppendFile(t, dir, "src/tilegym/ops/cutile/attention.py", "\n# edit\n")
		}},
		{name: "register an orphan elsewhere too", byOps: false, edit: func(t *testing.T, dir string) {
			// In a file before attention.py: the whole check's first
			// such finding is pre-existing.
			testrepo.AppendFile(t, dir, "src/tilegym/ops/cutile/activation/gelu.py", "\n\n@register_impl(\"fmha_backward\", backend=\"cutile\")\ndef more(q, **kwargs):\n    return q\n")
		}},
		{name: "edit an interface module", quiet: true, byOps: true, edit: func(t *testing.T, dir string) {
			testrepo.ReplaceInFile(t, dir, "src/tilegym/ops/attn_interface.py", "def fmha_interface(", "def fmha_interface2(")
		}},
	})
}

// TestChangeByOpsRandomTileGym: random line edits of TileGym's shared
// files (see TestChangeByOpsRandom), when the tree is present. More with
// $TILEGYM_LINT_RANDOM_CHANGES.
func TestChangeByOpsRandomTileGym(t *testing.T) {
	tree := changeTree(t)
	n := 10
	if v, err := strconv.Atoi(os.Getenv("TILEGYM_LINT_RANDOM_CHANGES")); err == nil {
		n = v
	}
	runChangeScenarios(t, tree, randomScenarios(n, 2, []string{opsPy, initPy,
		"src/tilegym/suites/liger/ops.py", "src/tilegym/suites/liger/cutile/__init__.py", "src/tilegym/suites/liger/__init__.py",
		"src/tilegym/ops/cutile/activation/__init__.py", "src/tilegym/ops/attn_interface.py", "src/tilegym/ops/cutile/softmax.py"}))
}

func TestGitBlobID(t *testing.T) {
	// git hash-object of "hello\n", in SHA-1 and SHA-256 repositories.
	if got := git.BlobID([]byte("hello\n"), 40); got != "ce013625030ba8dba906f756967f9e9ca394464a" {
		t.Errorf("SHA-1 blob id = %s", got)
	}
	if got := git.BlobID([]byte("hello\n"), 64); got != "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4" {
		t.Errorf("SHA-256 blob id = %s", got)
	}
}

// changeFindings runs change mode and returns its findings as
// "file rule [pre]" lines, sorted.
func changeFindings(t *testing.T, dir, base string, staged bool) []string {
	t.Helper()
	cat := testrepo.Catalog(t)
	res, err := CheckGit(dir, base, staged, config.NewSetup(cat, nil), checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range res.Diagnostics {
		s := d.File + " " + d.Rule.ID
		if d.PreExisting {
			s += " pre"
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

const softmaxTest = "tests/ops/test_softmax.py"

// dropSetUp makes test_softmax.py fail TG405 (test_op does not call
// self.setUp()).
func dropSetUp(t *testing.T, dir, file string) {
	testrepo.ReplaceInFile(t, dir, file, "        self.setUp()\n", "")
}

// TestChangePreExistingByFile (C3): a new file repeating an old file's
// defect, while the change fixes the old file, has a new finding, not a
// pre-existing one (findings are matched by file too).
func TestChangePreExistingByFile(t *testing.T) {
	dir := testrepo.PreRepo(t, func(dir string) { dropSetUp(t, dir, softmaxTest) })
	data, err := os.ReadFile(filepath.Join(dir, softmaxTest))
	if err != nil {
		t.Fatal(err)
	}
	testrepo.WriteFile(t, dir, "tests/ops/test_softmax_more.py", string(data))
	fixed, err := os.ReadFile(filepath.Join("../fixtures/good", softmaxTest))
	if err != nil {
		t.Fatal(err)
	}
	testrepo.WriteFile(t, dir, softmaxTest, string(fixed))
	want := []string{"tests/ops/test_softmax_more.py TG405"}
	if got := changeFindings(t, dir, "HEAD", false); !slices.Equal(got, want) {
		t.Errorf("working tree: %q, want %q", got, want)
	}
	testrepo.GitRun(t, dir, "add", ".")
	if got := changeFindings(t, dir, "HEAD", true); !slices.Equal(got, want) {
		t.Errorf("staged: %q, want %q", got, want)
	}
}

// TestChangePreExistingMoved (C4): moving a file keeps its findings
// pre-existing, also those whose message names the file's path and
// directory (TG004, as when upstream 9e74cb84 moved
// tests/ops/test_rmsnorm_backward.py into experimental/), in the working
// tree, staged, committed, and through a rename with edits.
func TestChangePreExistingMoved(t *testing.T) {
	const misnamed = "tests/ops/test_softmax_cases.py"
	dir := testrepo.PreRepo(t, func(dir string) {
		dropSetUp(t, dir, softmaxTest)
		// TG004: its message names the file and its directory.
		if err := os.Rename(filepath.Join(dir, softmaxTest), filepath.Join(dir, misnamed)); err != nil {
			t.Fatal(err)
		}
	})
	if got := changeFindings(t, dir, "HEAD", false); len(got) != 0 {
		t.Fatalf("no change: %q", got)
	}
	const moved = "tests/ops/experimental/test_softmax_cases.py"
	if err := os.MkdirAll(filepath.Join(dir, "tests/ops/experimental"), 0o755); err != nil {
		t.Fatal(err)
	}
	testrepo.GitRun(t, dir, "mv", misnamed, moved)
	testrepo.AppendFile(t, dir, moved, "\n# moved\n")
	testrepo.GitRun(t, dir, "add", moved)
	want := []string{moved + " TG004 pre", moved + " TG405 pre"}
	if got := changeFindings(t, dir, "HEAD", false); !slices.Equal(got, want) {
		t.Errorf("working tree: %q, want %q", got, want)
	}
	if got := changeFindings(t, dir, "HEAD", true); !slices.Equal(got, want) {
		t.Errorf("staged: %q, want %q", got, want)
	}
	testrepo.GitRun(t, dir, "commit", "-qm", "move")
	if got := changeFindings(t, dir, "HEAD~1", false); !slices.Equal(got, want) {
		t.Errorf("committed: %q, want %q", got, want)
	}
}

// TestChangeDeletesSharedFile (reliability): deleting a cuTile __init__
// or a dispatch file, in the working tree, staged or committed, reports
// the ops it concerned with new findings: each op the __init__ imported
// loses Step 3; each op of the dispatch file loses Step 1 (and its
// registrations, now of no stub, are its findings), instead of "0 ops".
func TestChangeDeletesSharedFile(t *testing.T) {
	for _, tc := range []struct {
		file    string
		ops     []string // some of the ops reported
		rule    string   // a new finding of each
		step    int      // a failed step of each
		removed []string // files removed with it: an op removed whole is not reported
	}{
		{file: initPy, ops: []string{"silu_and_mul", "softmax"}, rule: "TG301", step: 3},
		// The registrations left behind make ops being added, without stubs.
		{file: opsPy, ops: []string{"silu_and_mul", "softmax"}, rule: "TG107", step: 1},
		{file: opsPy, ops: []string{"silu_and_mul"}, rule: "TG107", step: 1,
			removed: []string{"src/tilegym/ops/cutile/softmax.py", "tests/benchmark/bench_softmax.py"}},
	} {
		for _, mode := range []string{"working tree", "staged", "committed"} {
			name := tc.file + ", " + mode
			dir := testrepo.PreRepo(t, func(string) {})
			args := []string{"rm", "-q", tc.file}
			testrepo.GitRun(t, dir, append(args, tc.removed...)...)
			base, staged := "HEAD", mode == "staged"
			if mode == "working tree" {
				testrepo.GitRun(t, dir, "reset", "-q")
			}
			if mode == "committed" {
				testrepo.GitRun(t, dir, "commit", "-qm", "delete")
				base = "HEAD~1"
			}
			cat := testrepo.Catalog(t)
			res, err := CheckGit(dir, base, staged, config.NewSetup(cat, nil), checker.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]*checker.OpResult{}
			for i := range res.Ops {
				got[res.Ops[i].Name] = &res.Ops[i]
			}
			for _, op := range tc.ops {
				r := got[op]
				if r == nil {
					t.Errorf("%s: op %s not reported (ops %d)", name, op, len(res.Ops))
					continue
				}
				if r.Steps[tc.step-1].Status != checker.StatusFail {
					t.Errorf("%s: %s step %d %s, want fail", name, op, tc.step, r.Steps[tc.step-1].Status)
				}
				found := false
				for _, d := range res.Diagnostics {
					found = found || d.Op == op && d.Rule.ID == tc.rule && !d.PreExisting && d.Severity == "error"
				}
				if !found {
					t.Errorf("%s: %s has no new %s error", name, op, tc.rule)
				}
			}
			if len(tc.removed) > 0 && got["softmax"] != nil {
				t.Errorf("%s: softmax, removed with its module, is reported", name)
			}
		}
	}
}

// TestSubmoduleOpaque (reliability): a submodule (here a TileGym-shaped
// repository vendored where its files match the layout's globs, as
// src/tilegym/**/*.py and tests/ops/**/test_*.py) is not part of the
// checkout: a
// whole check gives what it gives without it, and change mode, editing
// it or moving it to another commit, touches no op.
func TestSubmoduleOpaque(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	const subPath = "src/tilegym/third_party/tilegym"
	sub := testrepo.PreRepo(t, func(dir string) { dropSetUp(t, dir, softmaxTest) })
	dir := testrepo.PreRepo(t, func(string) {})
	cat := testrepo.Catalog(t)
	setup := config.NewSetup(cat, nil)
	whole := func() string {
		t.Helper()
		res, err := checker.CheckSource(&source.DiskSource{Dir: dir}, setup, checker.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return res.String()
	}
	want := whole()
	testrepo.GitRun(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, subPath)
	testrepo.GitRun(t, dir, "commit", "-qm", "vendor")
	if _, err := os.Stat(filepath.Join(dir, subPath, softmaxTest)); err != nil {
		t.Fatal("submodule not checked out:", err)
	}
	if got := whole(); got != want {
		t.Errorf("whole check with a submodule:\n got: %s\nwant: %s", got, want)
	}
	// A nested repository that is not (yet) a submodule: the same.
	testrepo.CopyDir(t, sub, filepath.Join(dir, "tests/ops/vendored"))
	testrepo.GitRun(t, filepath.Join(dir, "tests/ops/vendored"), "init", "-q")
	if got := whole(); got != want {
		t.Errorf("whole check with a nested repository:\n got: %s\nwant: %s", got, want)
	}
	if err := os.RemoveAll(filepath.Join(dir, "tests/ops/vendored")); err != nil {
		t.Fatal(err)
	}
	// Change mode: an edit inside the submodule, then a new commit of it.
	testrepo.AppendFile(t, filepath.Join(dir, subPath), "tests/ops/test_softmax.py", "\n# edit\n")
	if got := changeFindings(t, dir, "HEAD", false); len(got) != 0 {
		t.Errorf("edit in the submodule: %q, want nothing", got)
	}
	testrepo.GitRun(t, filepath.Join(dir, subPath), "commit", "-qam", "edit")
	testrepo.GitRun(t, dir, "add", subPath)
	for _, staged := range []bool{false, true} {
		if got := changeFindings(t, dir, "HEAD", staged); len(got) != 0 {
			t.Errorf("submodule bump (staged %v): %q, want nothing", staged, got)
		}
	}
}

// TestChangeRemovedStubCallers: a change that removes a dispatch stub and
// nothing else reports the op's callers, in files it did not change (M9).
func TestChangeRemovedStubCallers(t *testing.T) {
	dir := testrepo.PreRepo(t, func(string) {})
	testrepo.ReplaceInFile(t, dir, opsPy, `@dispatch("silu_and_mul"`, `@_gone("silu_and_mul"`)
	cat := testrepo.Catalog(t)
	res, err := CheckGit(dir, "HEAD", false, config.NewSetup(cat, nil), checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"tests/ops/test_silu_and_mul.py": true, "tests/benchmark/bench_silu_and_mul.py": true}
	for _, d := range res.Diagnostics {
		if d.Rule.ID == "TG108" && d.Op == "silu_and_mul" && !d.PreExisting {
			delete(want, d.File)
		}
	}
	if len(want) > 0 {
		t.Errorf("no new TG108 for silu_and_mul in %v; got %s", want, res.String())
	}
}

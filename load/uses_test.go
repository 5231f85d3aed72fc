package load

import (
	"testing"

	"github.com/tilegym/tilegym-lint/internal/testrepo"
	"github.com/tilegym/tilegym-lint/optable"
)

func TestMayUse(t *testing.T) {
	const q = "tilegym.ops.softmax"
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"import torch\nimport tilegym\ny = torch.softmax(x, dim=-1)\n", false},
		{"import torch\ny = torch.nn.functional.softmax(x)\n", false},
		{"import torch.nn.functional as F\nF.softmax(x)\n# the softmax of x\n", false},
		{"import tilegym.ops as F  # ours\nF.softmax(x)\n", true},
		{"from tilegym import ops as F\nF.softmax(x)\n", true},
		{"import tilegym.ops as \\\n    F\nF.softmax(x)\n", true},
		{"with open(p) as F:\n    F.softmax\n", true}, // an "as" of another form
		{"from tilegym import (ops as  # the ops\n    F)\nF.softmax(x)\n", true},
		{"import torch\nx = 1  # F\nF.softmax(x)\n", true}, // a comment line before a use of F: cannot tell
		{"s = 'tilegym.ops.softmax'\n", true},              // a dotted name ending in ops: parse and see
		{"from tilegym.ops import softmax\n", true},
		{"from tilegym import ops\nops.softmax(x)\n", true},
		{"import tilegym\ntilegym.ops.softmax(x)\n", true},
		{"import tilegym\n(tilegym.ops).softmax(x)\n", true},
		{"import tilegym\ntilegym.ops .softmax(x)\n", true},
		{"y = f(x).softmax(dim=-1)\n", true},
		{"\"\"\"Tests softmax.\"\"\"\n", true}, // a bare word not on a comment line
		{"import tilegym\ntilegym.ops.ｓoftmax(x)\n", true},
		{"import torch\nprint(f\"{torch.softmax(x)}\")\n", false},
		{"import torch\ntorch.backends.cuda.softmax = 1\n", false},
		{"import tilegym\nx.tilegym.ops.softmax\n", false}, // x is not imported
		{"softmax_ref = torch.softmax\n", false},
		{"from . import common\ncommon.softmax\n", false},
	} {
		if got := mayUse("tests/ops/test_x.py", []byte(tc.src), []string{q}); got != tc.want {
			t.Errorf("mayUse(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestMayUseAgainstUsedNames: on every file of the corpus (the fixtures,
// TileGym when present), every name the parsed file uses (usedNames) is one
// mayUse says it may use.
func TestMayUseAgainstUsedNames(t *testing.T) {
	checked := 0
	for _, f := range testrepo.CorpusFiles(t) {
		for _, n := range optable.UsedNamesFact.Of(f) {
			checked++
			if !mayUse(f.Path, f.Src, []string{n}) {
				t.Errorf("%s uses %s; mayUse says it does not", f.Path, n)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no used name checked")
	}
}

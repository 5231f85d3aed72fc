package checks_test

import (
	"testing"

	"github.com/tilegym/tilegym-lint/checks/checkstest"
)

// TestConfigKeys runs TR10 (kind config-keys) over Triton modules whose
// autotuned kernels take their configs from a literal list, a
// comprehension, a module-level name, a generator imported from another
// module and Config(kwargs=...); each launch keyword a config sets is
// reported, no other: Config options (num_warps), parameters no config
// sets, a kernel that is not autotuned, a bracket that is no launch.
func TestConfigKeys(t *testing.T) {
	repo := checkstest.LoadFiles(t, map[string]string{
		"src/tilegym/ops/triton/configs.py": `import triton


def block_configs():
    out = []
    for bm in [16, 32]:
        for w in [4, 8]:
            out.append(triton.Config(dict(BLOCK_M=bm), num_warps=w))
    return out
`,
		"src/tilegym/ops/triton/kernels.py": `import triton
import triton.language as tl
from triton import Config

from .configs import block_configs

_SPACE = [Config({"BLOCK": 128, "ROWS": 2}), Config({"BLOCK": 256, "ROWS": 1})]


@triton.autotune(configs=[triton.Config({"BLOCK": b}) for b in [64, 128]], key=["n"])
@triton.jit
def comp_kernel(x, n, BLOCK: tl.constexpr):
    pass


@triton.autotune(configs=_SPACE, key=["n"])
@triton.jit
def named_kernel(x, n, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    pass


@triton.autotune(block_configs(), key=["m"])
@triton.jit
def gen_kernel(x, m, BLOCK_M: tl.constexpr):
    pass


@triton.autotune(configs=[triton.Config(kwargs={"TILE": 8})], key=["n"])
@triton.jit
def kwargs_kernel(x, n, TILE: tl.constexpr):
    pass


@triton.jit
def plain_kernel(x, n, BLOCK: tl.constexpr):
    pass


def launch(x, n, table):
    grid = lambda META: (triton.cdiv(n, META["BLOCK"]),)
    comp_kernel[grid](x, n, BLOCK=128)  # want: TR10 "the launch of comp_kernel passes BLOCK=, which the @triton\.autotune configs of comp_kernel set too \(\[\.\.\.\]\)"
    comp_kernel[grid](x, n=n, num_warps=4)
    named_kernel[grid](x, n, ROWS=2, BLOCK=64)  # want: TR10 "passes ROWS=.*\(_SPACE\)|passes BLOCK=.*\(_SPACE\)" TR10 "passes BLOCK=.*\(_SPACE\)|passes ROWS=.*\(_SPACE\)"
    gen_kernel[grid](x, m=n, BLOCK_M=32)  # want: TR10 "passes BLOCK_M=, which the @triton\.autotune configs of gen_kernel set too \(block_configs\(\)\)"
    kwargs_kernel[grid](x, n, TILE=8)  # want: TR10 "passes TILE="
    plain_kernel[grid](x, n, BLOCK=128)
    table[0](x, BLOCK=1)
`,
		"src/tilegym/ops/triton/user.py": `from .kernels import gen_kernel


def run(x, m):
    gen_kernel[(m,)](x, m, BLOCK_M=16)  # want: TR10 "passes BLOCK_M="
`,
	})
	checkstest.Check(t, repo, checkstest.Rule(t, "TR10", nil))
}

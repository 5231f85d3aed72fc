package scaffold

// The templates of the workflow "Adding a cuTile kernel to TileGym" (Steps
// 1-5), adapted: {{...}} fields are replaced by analysis.Expand. The parts
// a person must write raise NotImplementedError with a message starting
// with Marker, so that the linter (and running the code) reports them.

// stubTemplate is Step 1's dispatch stub (without surrounding blank lines).
const stubTemplate = `@dispatch(
    "{{dispatch}}",
)
def {{op}}(
    input: torch.Tensor,
    out: Optional[torch.Tensor] = None,
    **kwargs: Any,
):
    """
    TODO: describe {{dispatch}}.

    Args:
        input: Input tensor
        out: Optional preallocated output tensor
        **kwargs: Additional arguments for backend-specific configurations

    Returns:
        torch.Tensor
    """
    raise NotImplementedError({{notimpl}})
`

// The new files start with {{header}} (the repository's SPDX header, see
// spdxHeader; a blank line follows it) and import in the order TileGym's ruff wants (its isort:
// sections stdlib, third party, first party (tilegym, tests), local; one
// name a line; plain imports before from-imports in a section; sorted).

// The first-party and local imports of the test ({{testimports}}) and the
// benchmark ({{benchimports}}), for a core op and for a suite op
// ({{suite}} is the suite's name, filled by analysis.Expand as the
// templates are).
const (
	coreTestImports  = "from tilegym.backend import is_backend_available\nfrom tilegym.backend import set_backend\n\nfrom .. import common"
	coreBenchImports = "import tilegym\nfrom tilegym.backend import is_backend_available\nfrom tilegym.backend import register_impl"
	// tests and tilegym are both first party: tests sorts first.
	suiteTestImports  = "from tests import common\nfrom tilegym.backend import is_backend_available\nfrom tilegym.backend import set_backend"
	suiteBenchImports = "from tilegym.backend import is_backend_available\nfrom tilegym.backend import register_impl\nfrom tilegym.suites.{{suite}} import ops as {{suite}}_ops"
)

// moduleTemplate is Step 2's cuTile module.
const moduleTemplate = `{{header}}
import cuda.tile as ct
import torch

from tilegym.backend import register_impl


@ct.kernel
def {{op}}_kernel_ct(x, output, n_elements: ct.Constant[int], BLOCK_SIZE: ct.Constant[int]):
    bid = ct.bid(0)
    indices = bid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=ct.int32)
    x_val = ct.gather(x, indices)
    # Compute the result from x_val here, then delete the raise.
    result = x_val
    raise NotImplementedError("{{marker}} write the kernel of {{dispatch}}")
    ct.scatter(output, indices, result)


@register_impl("{{dispatch}}", backend="cutile")
def {{op}}(input: torch.Tensor, out: torch.Tensor = None, **kwargs) -> torch.Tensor:
    if out is None:
        out = torch.empty_like(input)
    n = input.numel()
    block_size = 1024
    grid = (ct.cdiv(n, block_size), 1, 1)
    ct.launch(
        torch.cuda.current_stream(),
        grid,
        {{op}}_kernel_ct,
        (input.reshape(-1), out.reshape(-1), n, block_size),
    )
    return out
`

// testTemplate is Step 4's test.
const testTemplate = `{{header}}
import pytest
import torch

{{testimports}}

_backends = ["cutile"]


class Test_{{OP}}(common.PyTestCase):
    @staticmethod
    def reference(input):
        """Reference implementation using PyTorch."""
        raise NotImplementedError("{{marker}} write the PyTorch reference of {{dispatch}} in the test")

    @pytest.mark.parametrize(
        "shape, dtype",
        [
            ((1024,), torch.float16),
            ((1024, 512), torch.float32),
            ((64, 64, 64), torch.bfloat16),
        ],
    )
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, shape, dtype, backend, arch):
        if backend == "cutile" and not is_backend_available("cutile"):
            pytest.skip("cuTile backend is not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend {backend} is not supported: {e}")

        self.setUp()

        from {{api}} import {{op}}

        x = torch.randn(*shape, dtype=dtype, device="cuda")
        self.assertCorrectness(
            {{op}},
            self.reference,
            {"input": x},
            atol=1e-3,
            rtol=1e-3,
        )
`

// benchTemplate is Step 5's benchmark.
const benchTemplate = `{{header}}
import torch
import triton
import triton.testing

{{benchimports}}

ALL_BACKENDS = [
    ("cutile", "cuTile", ("orange", "-")) if is_backend_available("cutile") else None,
    ("torch", "PyTorch", ("green", "-")),
]


def get_supported_backends():
    return [p for p in ALL_BACKENDS if p is not None]


def reference_{{op}}(input: torch.Tensor, out: torch.Tensor = None, **kwargs):
    """Reference implementation using PyTorch."""
    raise NotImplementedError("{{marker}} write the PyTorch reference of {{dispatch}} in the benchmark")


register_impl("{{dispatch}}", "torch")(reference_{{op}})


def create_benchmark_config(datatype):
    available_backends = get_supported_backends()
    if not available_backends:
        return None
    backends, names, styles = zip(*available_backends)
    dtype_name = str(datatype).split(".")[-1]
    return triton.testing.Benchmark(
        x_names=["N"],
        x_vals=[2**i for i in range(12, 25, 2)],
        line_arg="backend",
        line_vals=list(backends),
        line_names=list(names),
        styles=list(styles),
        ylabel="GB/s",
        plot_name=f"{{plot}}-{dtype_name}-GBps",
        args={"datatype": datatype},
    )


@triton.testing.perf_report([create_benchmark_config(datatype) for datatype in [torch.float16, torch.float32]])
def bench_{{op}}(N, backend, datatype, device="cuda"):
    x = torch.randn(N, dtype=datatype, device=device)

    fn = lambda: {{call}}(x, backend=backend)
    ref = lambda: reference_{{op}}(x)
    torch.testing.assert_close(fn(), ref(), rtol=1e-2, atol=1e-2)

    ms = triton.testing.do_bench(fn)
    total_bytes = 2 * x.numel() * x.element_size()  # read x, write out
    return total_bytes * 1e-9 / (ms * 1e-3)


if __name__ == "__main__":
    bench_{{op}}.run(print_data=True)
`

from common import *

OPS = "src/tilegym/ops/ops.py"


def c01_gelu_tanh(r):
    """Agent A: follows the skill template to the letter. Clean."""
    append(r, OPS, '''@dispatch(
    "gelu_tanh",
)
def gelu_tanh(
    input: torch.Tensor,
    out: Optional[torch.Tensor] = None,
    **kwargs: Any,
):
    """
    GELU with the tanh approximation, elementwise.

    Args:
        input: Input tensor
        out: Optional preallocated output tensor
        **kwargs: Additional arguments for backend-specific configurations

    Returns:
        torch.Tensor with the shape of input
    """
    raise NotImplementedError(f"gelu_tanh is not implemented for {get_current_backend()}")
''')
    write(r, "src/tilegym/ops/cutile/gelu_tanh.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl

ConstInt = ct.Constant[int]


@ct.kernel
def gelu_tanh_kernel_ct(x, output, n_elements: ConstInt, BLOCK_SIZE: ConstInt):
    bid = ct.bid(0)
    indices = bid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=torch.int32)
    x_val = ct.astype(ct.gather(x, indices, check_bounds=True), torch.float32)
    inner = 0.7978845608 * (x_val + 0.044715 * x_val * x_val * x_val)
    result = 0.5 * x_val * (1.0 + ct.tanh(inner))
    ct.scatter(output, indices, ct.astype(result, output.dtype), check_bounds=True)


@register_impl("gelu_tanh", backend="cutile")
def gelu_tanh(input: torch.Tensor, out: torch.Tensor = None, **kwargs) -> torch.Tensor:
    x = input.contiguous().view(-1)
    if out is None:
        out = torch.empty_like(input)
    n = x.numel()
    BLOCK_SIZE = 1024
    grid = ((n + BLOCK_SIZE - 1) // BLOCK_SIZE, 1, 1)
    ct.launch(torch.cuda.current_stream(), grid, gelu_tanh_kernel_ct, (x, out.view(-1), n, BLOCK_SIZE))
    return out
''')
    init_module(r, "from . import gelu_tanh")
    init_func(r, "from .gelu_tanh import gelu_tanh")
    init_all(r, "gelu_tanh")
    write(r, "tests/ops/test_gelu_tanh.py", HDR + '''import pytest
import torch

from tilegym.backend import is_backend_available
from tilegym.backend import set_backend

from .. import common

_backends = ["cutile"]


class Test_GELU_TANH(common.PyTestCase):
    @staticmethod
    def reference(input):
        """Reference implementation using PyTorch."""
        return torch.nn.functional.gelu(input, approximate="tanh")

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
            pytest.skip("Cutile backend not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend is not supported: {e}")

        self.setUp()

        from tilegym.ops import gelu_tanh

        A = torch.randn(*shape, dtype=dtype, device="cuda")
        self.assertCorrectness(gelu_tanh, self.reference, {"input": A}, atol=1e-3, rtol=1e-3)
''')
    write(r, "tests/benchmark/bench_gelu_tanh.py", HDR + '''import torch
import triton
import triton.testing

import tilegym
from tilegym.backend import is_backend_available
from tilegym.backend import register_impl

ALL_BACKENDS = [
    ("cutile", "cuTile", ("orange", "-")) if is_backend_available("cutile") else None,
    ("torch", "PyTorch", ("green", "-")),
]


def get_supported_backends():
    return [p for p in ALL_BACKENDS if p is not None]


def reference_gelu_tanh(input: torch.Tensor, out: torch.Tensor = None, **kwargs):
    """Reference implementation using PyTorch."""
    return torch.nn.functional.gelu(input, approximate="tanh")


register_impl("gelu_tanh", "torch")(reference_gelu_tanh)


def create_benchmark_config(datatype):
    available_backends = get_supported_backends()
    if not available_backends:
        return None
    backends, names, styles = zip(*available_backends)
    dtype_name = str(datatype).split(".")[-1]
    return triton.testing.Benchmark(
        x_names=["M"],
        x_vals=[2**i for i in range(12, 24, 2)],
        line_arg="backend",
        line_vals=list(backends),
        line_names=list(names),
        styles=list(styles),
        ylabel="GB/s",
        plot_name=f"gelu-tanh-{dtype_name}-GBps",
        args={"datatype": datatype},
    )


@triton.testing.perf_report([create_benchmark_config(datatype) for datatype in [torch.float16, torch.float32]])
def bench_gelu_tanh(M, backend, datatype, device="cuda"):
    x = torch.randn(M, dtype=datatype, device=device)

    fn = lambda: tilegym.ops.gelu_tanh(x, backend=backend)
    ref = lambda: reference_gelu_tanh(x)
    torch.testing.assert_close(fn(), ref(), rtol=1e-2, atol=1e-2)

    ms = triton.testing.do_bench(fn)
    total_bytes = 2 * x.numel() * x.element_size()
    return total_bytes * 1e-9 / (ms * 1e-3)


if __name__ == "__main__":
    bench_gelu_tanh.run(print_data=True)
''')


def c02_log_softmax(r):
    """Agent B: copies test_silu_and_mul's tilegym.* style, do_bench_cudagraph. Clean."""
    append(r, OPS, '''@dispatch(
    "log_softmax",
)
def log_softmax(
    x: torch.Tensor,
    out: Optional[torch.Tensor] = None,
    **kwargs: Any,
):
    """
    Log-softmax over the last dimension of a 2D tensor (M, N).

    Args:
        x: Input tensor of shape (M, N)
        out: Optional preallocated output tensor
        **kwargs: Additional arguments for backend-specific configurations

    Returns:
        torch.Tensor of shape (M, N)
    """
    raise NotImplementedError(f"log_softmax is not implemented for {get_current_backend()}")
''')
    write(r, "src/tilegym/ops/cutile/log_softmax.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl

from .utils import next_power_of_2


@ct.kernel
def _log_softmax_row_kernel(x, output, N: ct.Constant[int], TILE_N: ct.Constant[int]):
    row = ct.bid(0)
    cols = ct.arange(TILE_N, dtype=torch.int32)
    vals = ct.astype(ct.gather(x, (row, cols), check_bounds=True, padding_value=-float("inf")), torch.float32)
    row_max = ct.max(vals, 0, keepdims=True)
    shifted = vals - row_max
    lse = ct.log(ct.sum(ct.exp(shifted), 0, keepdims=True))
    ct.scatter(output, (row, cols), ct.astype(shifted - lse, output.dtype), check_bounds=True)


@register_impl("log_softmax", backend="cutile")
def log_softmax(x, out=None, **kwargs):
    """cuTile log-softmax: one block per row."""
    M, N = x.shape
    if out is None:
        out = torch.empty_like(x)
    TILE_N = next_power_of_2(N)
    ct.launch(torch.cuda.current_stream(), (M, 1, 1), _log_softmax_row_kernel, (x, out, N, TILE_N))
    return out
''')
    init_module(r, "from . import log_softmax")
    init_func(r, "from .log_softmax import log_softmax")
    init_all(r, "log_softmax", after='        "softmax",')
    write(r, "tests/ops/test_log_softmax.py", HDR + '''import pytest
import torch

import tilegym

from .. import common


class Test_LogSoftmax(common.PyTestCase):
    @staticmethod
    def reference(x):
        return torch.log_softmax(x.float(), dim=-1).to(x.dtype)

    _backends = ["cutile"]

    @pytest.mark.parametrize(
        "M, N, dtype",
        [
            (128, 1024, torch.float16),
            (256, 4096, torch.float32),
            (33, 3000, torch.bfloat16),
        ],
    )
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, M, N, dtype, backend, arch):
        if tilegym.is_backend_available(backend):
            tilegym.set_backend(backend)
        else:
            pytest.skip(f"Backend {backend} is not available")
        self.setUp()

        x = torch.randn(M, N, dtype=dtype, device="cuda")
        self.assertCorrectness(tilegym.ops.log_softmax, self.reference, {"x": x}, atol=2e-2, rtol=2e-2)
''')
    write(r, "tests/benchmark/bench_log_softmax.py", HDR + '''import torch
import triton

import tilegym
from tilegym.backend import is_backend_available
from tilegym.backend import register_impl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def reference_log_softmax(x: torch.Tensor, out: torch.Tensor = None, **kwargs):
    """PyTorch log-softmax"""
    return torch.log_softmax(x, dim=-1)


register_impl("log_softmax", "torch")(reference_log_softmax)

ALL_BACKENDS = [
    ("cutile", "CuTile", ("blue", "-")) if is_backend_available("cutile") else None,
    ("torch", "PyTorch", ("green", "-")),
]


def get_supported_backends():
    return [p for p in ALL_BACKENDS if p is not None]


def create_benchmark_config(M, dtype):
    available_backends = get_supported_backends()
    if not available_backends:
        return None
    backends, names, styles = zip(*available_backends)
    dtype_name = str(dtype).split(".")[-1]
    return triton.testing.Benchmark(
        x_names=["N"],
        x_vals=[2**i for i in range(10, 15)],
        line_arg="backend",
        line_vals=list(backends),
        line_names=list(names),
        styles=list(styles),
        ylabel="GB/s",
        plot_name=f"log-softmax-M{M}-{dtype_name}-GBps",
        args={"M": M, "dtype": dtype},
    )


@triton.testing.perf_report(
    [create_benchmark_config(M, dtype) for M in [4096] for dtype in [torch.float32, torch.bfloat16]]
)
def bench_log_softmax(M, N, backend, dtype, device=DEVICE):
    x = torch.randn(M, N, dtype=dtype, device=device)
    fn = lambda: tilegym.ops.log_softmax(x, backend=backend)
    ref = lambda: reference_log_softmax(x)
    torch.testing.assert_close(fn(), ref(), atol=2e-2, rtol=2e-2)
    ms = triton.testing.do_bench_cudagraph(fn)
    gb_per_s = 2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)
    return gb_per_s


if __name__ == "__main__":
    bench_log_softmax.run(print_data=True)
''')

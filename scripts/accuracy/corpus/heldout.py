"""The held-out corpus (h01..h12): changes written and labelled after the issue-20 fixes began,
never run through tilegym-lint before their labels (labels-heldout.tsv) were committed.

Each is written as a different coding agent following the skill would write it: its own naming,
test style and benchmark shape. Ten add an op: two clean, six with one to three slips, two
diverging heavily (h06, h11); two modify existing ops (h07, h10). h11 and h12 were added, and
labelled, after the first runs on h01..h10."""
from common import *

OPS = "src/tilegym/ops/ops.py"


def _stub(name, params, doc=True, kwargs=True):
    body = f'''    """
    {name.replace("_", " ").capitalize()}.

    Args:
        input: Input tensor
        out: Optional preallocated output tensor
        **kwargs: Additional arguments for backend-specific configurations

    Returns:
        torch.Tensor with the shape of input
    """
''' if doc else ""
    kw = "    **kwargs: Any,\n" if kwargs else ""
    return f'''@dispatch(
    "{name}",
)
def {name}(
{params}    out: Optional[torch.Tensor] = None,
{kw}):
{body}    raise NotImplementedError(f"{name} is not implemented for {{get_current_backend()}}")
'''


def _register(r, name, after="swiglu"):
    init_module(r, f"from . import {name}")
    init_func(r, f"from .{name} import {name}")
    init_all(r, name, after=f'        "{after}",')


def h01_rsqrt_eps(r):
    """Agent A: template to the letter, one extra scalar parameter. Clean."""
    append(r, OPS, _stub("rsqrt_eps", "    input: torch.Tensor,\n    eps: float = 1e-6,\n"))
    write(r, "src/tilegym/ops/cutile/rsqrt_eps.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl

ConstInt = ct.Constant[int]


@ct.kernel
def rsqrt_eps_kernel_ct(x, output, eps: float, n_elements: ConstInt, BLOCK_SIZE: ConstInt):
    bid = ct.bid(0)
    indices = bid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=torch.int32)
    v = ct.astype(ct.gather(x, indices, check_bounds=True), torch.float32)
    result = 1.0 / ct.sqrt(v + eps)
    ct.scatter(output, indices, ct.astype(result, output.dtype), check_bounds=True)


@register_impl("rsqrt_eps", backend="cutile")
def rsqrt_eps(input: torch.Tensor, eps: float = 1e-6, out: torch.Tensor = None, **kwargs) -> torch.Tensor:
    x = input.contiguous().view(-1)
    if out is None:
        out = torch.empty_like(input)
    n = x.numel()
    BLOCK_SIZE = 1024
    grid = (ct.cdiv(n, BLOCK_SIZE), 1, 1)
    ct.launch(torch.cuda.current_stream(), grid, rsqrt_eps_kernel_ct, (x, out.view(-1), eps, n, BLOCK_SIZE))
    return out
''')
    _register(r, "rsqrt_eps")
    write(r, "tests/ops/test_rsqrt_eps.py", HDR + '''import pytest
import torch

from tilegym.backend import is_backend_available
from tilegym.backend import set_backend

from .. import common

_backends = ["cutile"]


class Test_RSQRT_EPS(common.PyTestCase):
    @staticmethod
    def reference(input, eps=1e-6):
        """Reference implementation using PyTorch."""
        return torch.rsqrt(input.float() + eps).to(input.dtype)

    @pytest.mark.parametrize("shape, dtype", [((4096,), torch.float16), ((256, 512), torch.float32)])
    @pytest.mark.parametrize("eps", [1e-6, 1e-3])
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, shape, dtype, eps, backend, arch):
        if backend == "cutile" and not is_backend_available("cutile"):
            pytest.skip("Cutile backend not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend is not supported: {e}")

        self.setUp()

        from tilegym.ops import rsqrt_eps

        A = torch.rand(*shape, dtype=dtype, device="cuda") + 0.1
        self.assertCorrectness(rsqrt_eps, self.reference, {"input": A, "eps": eps}, atol=1e-2, rtol=1e-2)
''')
    write(r, "tests/benchmark/bench_rsqrt_eps.py", HDR + '''import torch
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


def reference_rsqrt_eps(input: torch.Tensor, eps: float = 1e-6, out: torch.Tensor = None, **kwargs):
    """Reference implementation using PyTorch."""
    return torch.rsqrt(input + eps)


register_impl("rsqrt_eps", "torch")(reference_rsqrt_eps)


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
        plot_name=f"rsqrt-eps-{dtype_name}-GBps",
        args={"datatype": datatype},
    )


@triton.testing.perf_report([create_benchmark_config(datatype) for datatype in [torch.float16, torch.float32]])
def bench_rsqrt_eps(N, backend, datatype, device="cuda"):
    x = torch.rand(N, dtype=datatype, device=device) + 0.1

    fn = lambda: tilegym.ops.rsqrt_eps(x, backend=backend)
    ref = lambda: reference_rsqrt_eps(x)
    torch.testing.assert_close(fn(), ref(), rtol=1e-2, atol=1e-2)

    ms = triton.testing.do_bench(fn)
    total_bytes = 2 * x.numel() * x.element_size()
    return total_bytes * 1e-9 / (ms * 1e-3)


if __name__ == "__main__":
    bench_rsqrt_eps.run(print_data=True)
''')


def h02_abs_diff(r):
    """Agent B: two inputs, tilegym.* calls, _backends in the class, do_bench_cudagraph. Clean."""
    append(r, OPS, _stub("abs_diff", "    a: torch.Tensor,\n    b: torch.Tensor,\n").replace("input: Input tensor", "a: First input\n        b: Second input, same shape as a"))
    write(r, "src/tilegym/ops/cutile/abs_diff.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl


@ct.kernel
def _abs_diff_kernel(a, b, output, TILE: ct.Constant[int]):
    pid = ct.bid(0)
    offs = pid * TILE + ct.arange(TILE, dtype=torch.int32)
    va = ct.gather(a, offs, check_bounds=True)
    vb = ct.gather(b, offs, check_bounds=True)
    d = va - vb
    ct.scatter(output, offs, ct.where(d < 0, -d, d), check_bounds=True)


@register_impl("abs_diff", backend="cutile")
def abs_diff(a, b, out=None, **kwargs):
    """|a - b| with one tile per block."""
    assert a.shape == b.shape, "abs_diff: a and b must have the same shape"
    if out is None:
        out = torch.empty_like(a)
    TILE = 2048
    n = a.numel()
    ct.launch(
        torch.cuda.current_stream(),
        ((n + TILE - 1) // TILE, 1, 1),
        _abs_diff_kernel,
        (a.reshape(-1), b.reshape(-1), out.view(-1), TILE),
    )
    return out
''')
    _register(r, "abs_diff", after="attention_sink")
    write(r, "tests/ops/test_abs_diff.py", HDR + '''import pytest
import torch

import tilegym

from .. import common


class Test_AbsDiff(common.PyTestCase):
    _backends = ["cutile"]

    @staticmethod
    def reference(a, b):
        return (a - b).abs()

    @pytest.mark.parametrize("numel", [1, 1000, 2048, 1 << 20])
    @pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, numel, dtype, backend, arch):
        if tilegym.is_backend_available(backend):
            tilegym.set_backend(backend)
        else:
            pytest.skip(f"Backend {backend} is not available")
        self.setUp()

        a = torch.randn(numel, dtype=dtype, device="cuda")
        b = torch.randn(numel, dtype=dtype, device="cuda")
        self.assertCorrectness(tilegym.ops.abs_diff, self.reference, {"a": a, "b": b}, rtol=0, atol=0)
''')
    write(r, "tests/benchmark/bench_abs_diff.py", HDR + '''import torch
import triton
import triton.testing

import tilegym
from tilegym.backend import is_backend_available
from tilegym.backend import register_impl

ALL_BACKENDS = [
    ("cutile", "CuTile", ("orange", "-")) if is_backend_available("cutile") else None,
    ("torch", "PyTorch", ("green", "-")),
]


def get_supported_backends():
    """Filter backends based on availability"""
    return [p for p in ALL_BACKENDS if p is not None]


def reference_abs_diff(a, b, out=None, **kwargs):
    return torch.abs(a - b)


register_impl("abs_diff", "torch")(reference_abs_diff)


def create_benchmark_config(dtype):
    backends, names, styles = zip(*get_supported_backends())
    return triton.testing.Benchmark(
        x_names=["numel"],
        x_vals=[2**i for i in range(16, 27, 2)],
        line_arg="backend",
        line_vals=list(backends),
        line_names=list(names),
        styles=list(styles),
        ylabel="GB/s",
        plot_name=f"abs-diff-{str(dtype).split('.')[-1]}-GBps",
        args={"dtype": dtype},
    )


@triton.testing.perf_report([create_benchmark_config(dtype) for dtype in [torch.float16, torch.bfloat16]])
def bench_abs_diff(numel, backend, dtype, device="cuda"):
    a = torch.randn(numel, dtype=dtype, device=device)
    b = torch.randn(numel, dtype=dtype, device=device)
    fn = lambda: tilegym.ops.abs_diff(a, b, backend=backend)
    ref = lambda: reference_abs_diff(a, b)
    torch.testing.assert_close(fn(), ref())
    ms = triton.testing.do_bench_cudagraph(fn)
    return 3 * a.numel() * a.element_size() * 1e-9 / (ms * 1e-3)


if __name__ == "__main__":
    bench_abs_diff.run(print_data=True)
''')


def h03_sigmoid_mul(r):
    """Agent C: a gated op; the stub forgets **kwargs, the test forgets setUp, the plot name its suffix."""
    append(r, OPS, _stub("sigmoid_mul", "    input: torch.Tensor,\n    gate: torch.Tensor,\n", kwargs=False))
    write(r, "src/tilegym/ops/cutile/sigmoid_mul.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl

ConstInt = ct.Constant[int]


@ct.kernel
def sigmoid_mul_kernel_ct(x, g, output, BLOCK_SIZE: ConstInt):
    bid = ct.bid(0)
    idx = bid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=torch.int32)
    xv = ct.astype(ct.gather(x, idx, check_bounds=True), torch.float32)
    gv = ct.astype(ct.gather(g, idx, check_bounds=True), torch.float32)
    res = xv / (1.0 + ct.exp(-gv))
    ct.scatter(output, idx, ct.astype(res, output.dtype), check_bounds=True)


@register_impl("sigmoid_mul", backend="cutile")
def sigmoid_mul(input: torch.Tensor, gate: torch.Tensor, out: torch.Tensor = None, **kwargs):
    if out is None:
        out = torch.empty_like(input)
    n = input.numel()
    BLOCK_SIZE = 1024
    grid = (ct.cdiv(n, BLOCK_SIZE), 1, 1)
    ct.launch(torch.cuda.current_stream(), grid, sigmoid_mul_kernel_ct, (input.view(-1), gate.view(-1), out.view(-1), BLOCK_SIZE))
    return out
''')
    _register(r, "sigmoid_mul")
    write(r, "tests/ops/test_sigmoid_mul.py", HDR + '''import pytest
import torch

from tilegym.backend import is_backend_available
from tilegym.backend import set_backend

from .. import common

_backends = ["cutile"]


class Test_SIGMOID_MUL(common.PyTestCase):
    @staticmethod
    def reference(input, gate):
        return input * torch.sigmoid(gate)

    @pytest.mark.parametrize("shape", [(2048,), (64, 4096)])
    @pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, shape, dtype, backend, arch):
        if backend == "cutile" and not is_backend_available("cutile"):
            pytest.skip("Cutile backend not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend is not supported: {e}")

        from tilegym.ops import sigmoid_mul

        x = torch.randn(*shape, dtype=dtype, device="cuda")
        g = torch.randn(*shape, dtype=dtype, device="cuda")
        self.assertCorrectness(sigmoid_mul, self.reference, {"input": x, "gate": g}, atol=1e-2, rtol=1e-2)
''')
    write(r, "tests/benchmark/bench_sigmoid_mul.py", HDR + '''import torch
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


def reference_sigmoid_mul(input, gate, out=None, **kwargs):
    return input * torch.sigmoid(gate)


register_impl("sigmoid_mul", "torch")(reference_sigmoid_mul)


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
        plot_name=f"sigmoid-mul-{dtype_name}",
        args={"datatype": datatype},
    )


@triton.testing.perf_report([create_benchmark_config(datatype) for datatype in [torch.float16, torch.float32]])
def bench_sigmoid_mul(N, backend, datatype, device="cuda"):
    x = torch.randn(N, dtype=datatype, device=device)
    g = torch.randn(N, dtype=datatype, device=device)
    fn = lambda: tilegym.ops.sigmoid_mul(x, g, backend=backend)
    ref = lambda: reference_sigmoid_mul(x, g)
    torch.testing.assert_close(fn(), ref(), rtol=1e-2, atol=1e-2)
    ms = triton.testing.do_bench(fn)
    return 3 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)


if __name__ == "__main__":
    bench_sigmoid_mul.run(print_data=True)
''')


def h04_row_l2norm(r):
    """Agent D: a row reduction; an unannotated tile size, an eps default that drifts, set_backend in the benchmark."""
    append(r, OPS, _stub("row_l2norm", "    x: torch.Tensor,\n    eps: float = 1e-6,\n").replace("input: Input tensor", "x: Input tensor of shape (M, N)\n        eps: Added to the norm"))
    write(r, "src/tilegym/ops/cutile/row_l2norm.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl

from .utils import next_power_of_2


@ct.kernel
def row_l2norm_kernel(x, output, eps: float, N: ct.Constant[int], BLOCK_N):
    row = ct.bid(0)
    cols = ct.arange(BLOCK_N, dtype=torch.int32)
    v = ct.astype(ct.gather(x, (row, cols), check_bounds=True, padding_value=0.0), torch.float32)
    norm = ct.sqrt(ct.sum(v * v, 0, keepdims=True)) + eps
    ct.scatter(output, (row, cols), ct.astype(v / norm, output.dtype), check_bounds=True)


@register_impl("row_l2norm", backend="cutile")
def row_l2norm(x, eps=1e-5, out=None, **kwargs):
    M, N = x.shape
    if out is None:
        out = torch.empty_like(x)
    BLOCK_N = next_power_of_2(N)
    ct.launch(torch.cuda.current_stream(), (M, 1, 1), row_l2norm_kernel, (x, out, eps, N, BLOCK_N))
    return out
''')
    _register(r, "row_l2norm")
    write(r, "tests/ops/test_row_l2norm.py", HDR + '''import pytest
import torch

from tilegym.backend import is_backend_available
from tilegym.backend import set_backend

from .. import common

_backends = ["cutile"]


class Test_ROW_L2NORM(common.PyTestCase):
    @staticmethod
    def reference(x, eps=1e-6):
        return x / (torch.linalg.vector_norm(x.float(), dim=-1, keepdim=True) + eps).to(x.dtype)

    @pytest.mark.parametrize("M, N", [(128, 256), (64, 3000), (1, 8192)])
    @pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, M, N, dtype, backend, arch):
        if backend == "cutile" and not is_backend_available("cutile"):
            pytest.skip("Cutile backend not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend is not supported: {e}")
        self.setUp()

        from tilegym.ops import row_l2norm

        x = torch.randn(M, N, dtype=dtype, device="cuda")
        self.assertCorrectness(row_l2norm, self.reference, {"x": x}, atol=1e-2, rtol=1e-2)
''')
    write(r, "tests/benchmark/bench_row_l2norm.py", HDR + '''import torch
import triton
import triton.testing

import tilegym
from tilegym.backend import is_backend_available
from tilegym.backend import register_impl
from tilegym.backend import set_backend

ALL_BACKENDS = [
    ("cutile", "cuTile", ("orange", "-")) if is_backend_available("cutile") else None,
    ("torch", "PyTorch", ("green", "-")),
]


def get_supported_backends():
    return [p for p in ALL_BACKENDS if p is not None]


def reference_row_l2norm(x, eps: float = 1e-6, out=None, **kwargs):
    return x / (torch.linalg.vector_norm(x, dim=-1, keepdim=True) + eps)


register_impl("row_l2norm", "torch")(reference_row_l2norm)


def create_benchmark_config(datatype, M):
    backends, names, styles = zip(*get_supported_backends())
    dtype_name = str(datatype).split(".")[-1]
    return triton.testing.Benchmark(
        x_names=["N"],
        x_vals=[2**i for i in range(8, 15)],
        line_arg="backend",
        line_vals=list(backends),
        line_names=list(names),
        styles=list(styles),
        ylabel="GB/s",
        plot_name=f"row-l2norm-M{M}-{dtype_name}-GBps",
        args={"datatype": datatype, "M": M},
    )


@triton.testing.perf_report([create_benchmark_config(datatype, 4096) for datatype in [torch.float16, torch.float32]])
def bench_row_l2norm(N, backend, datatype, M, device="cuda"):
    x = torch.randn(M, N, dtype=datatype, device=device)
    set_backend(backend)
    fn = lambda: tilegym.ops.row_l2norm(x)
    ref = lambda: reference_row_l2norm(x)
    torch.testing.assert_close(fn(), ref(), rtol=1e-2, atol=1e-2)
    ms = triton.testing.do_bench(fn)
    return 2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)


if __name__ == "__main__":
    bench_row_l2norm.run(print_data=True)
''')


def h05_expm1(r):
    """Agent E: registers only the module import; the test imports the cuTile function."""
    append(r, OPS, _stub("expm1", "    input: torch.Tensor,\n"))
    write(r, "src/tilegym/ops/cutile/expm1.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl


@ct.kernel
def expm1_kernel_ct(x, output, n_elements: ct.Constant[int], BLOCK_SIZE: ct.Constant[int]):
    bid = ct.bid(0)
    indices = bid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=torch.int32)
    v = ct.astype(ct.gather(x, indices, check_bounds=True), torch.float32)
    ct.scatter(output, indices, ct.astype(ct.exp(v) - 1.0, output.dtype), check_bounds=True)


@register_impl("expm1", backend="cutile")
def expm1(input: torch.Tensor, out: torch.Tensor = None, **kwargs) -> torch.Tensor:
    x = input.contiguous().view(-1)
    if out is None:
        out = torch.empty_like(input)
    n = x.numel()
    BLOCK_SIZE = 1024
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, BLOCK_SIZE), 1, 1), expm1_kernel_ct, (x, out.view(-1), n, BLOCK_SIZE))
    return out
''')
    init_module(r, "from . import expm1")
    write(r, "tests/ops/test_expm1.py", HDR + '''import pytest
import torch

from tilegym.backend import is_backend_available
from tilegym.backend import set_backend
from tilegym.ops.cutile.expm1 import expm1

from .. import common

_backends = ["cutile"]


class Test_EXPM1(common.PyTestCase):
    @staticmethod
    def reference(input):
        return torch.expm1(input)

    @pytest.mark.parametrize("shape, dtype", [((1024,), torch.float32), ((32, 1000), torch.float16)])
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, shape, dtype, backend, arch):
        if backend == "cutile" and not is_backend_available("cutile"):
            pytest.skip("Cutile backend not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend is not supported: {e}")
        self.setUp()

        x = torch.randn(*shape, dtype=dtype, device="cuda") * 0.1
        self.assertCorrectness(expm1, self.reference, {"input": x}, atol=1e-3, rtol=1e-3)
''')
    write(r, "tests/benchmark/bench_expm1.py", HDR + '''import torch
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


def reference_expm1(input: torch.Tensor, out: torch.Tensor = None, **kwargs):
    return torch.expm1(input)


register_impl("expm1", "torch")(reference_expm1)


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
        plot_name=f"expm1-{dtype_name}-GBps",
        args={"datatype": datatype},
    )


@triton.testing.perf_report([create_benchmark_config(datatype) for datatype in [torch.float16, torch.float32]])
def bench_expm1(N, backend, datatype, device="cuda"):
    x = torch.randn(N, dtype=datatype, device=device)
    fn = lambda: tilegym.ops.expm1(x, backend=backend)
    ref = lambda: reference_expm1(x)
    torch.testing.assert_close(fn(), ref(), rtol=1e-2, atol=1e-2)
    ms = triton.testing.do_bench(fn)
    return 2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)


if __name__ == "__main__":
    bench_expm1.run(print_data=True)
''')


def h06_clip_value(r):
    """Agent F: stops after Step 3: no docstring, the module import appended last, no test, no benchmark."""
    append(r, OPS, _stub("clip_value", "    input: torch.Tensor,\n    min_val: float,\n    max_val: float,\n", doc=False))
    write(r, "src/tilegym/ops/cutile/clip_value.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl


@ct.kernel
def clip_value_kernel(x, output, lo: float, hi: float, BLOCK: ct.Constant[int]):
    i = ct.bid(0) * BLOCK + ct.arange(BLOCK, dtype=torch.int32)
    v = ct.gather(x, i, check_bounds=True)
    v = ct.minimum(ct.maximum(v, lo), hi)
    ct.scatter(output, i, v, check_bounds=True)


@register_impl("clip_value", backend="cutile")
def clip_value(input, min_val, max_val, out=None, **kwargs):
    if out is None:
        out = torch.empty_like(input)
    BLOCK = 1024
    n = input.numel()
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, BLOCK), 1, 1), clip_value_kernel, (input.view(-1), out.view(-1), min_val, max_val, BLOCK))
    return out
''')
    init_module(r, "from . import clip_value", where="append")
    init_func(r, "from .clip_value import clip_value")
    init_all(r, "clip_value")


def h07_softmax_noncontig(r):
    """Agent G modifies an existing op: a new softmax test method without the backend pattern."""
    append(r, "tests/ops/test_softmax.py", '''    def test_op_noncontiguous(self):
        x = torch.rand(512, 256, device="cuda", dtype=torch.float32).t()
        y = tilegym.ops.softmax(x)
        torch.testing.assert_close(y, self.reference(x))
''')


def h08_masked_scale(r):
    """Agent H: benchmark slips: reference never registered, no correctness check, -TFLOPS under a GB/s ylabel."""
    append(r, OPS, _stub("masked_scale", "    input: torch.Tensor,\n    mask: torch.Tensor,\n    scale: float = 1.0,\n"))
    write(r, "src/tilegym/ops/cutile/masked_scale.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl

ConstInt = ct.Constant[int]


@ct.kernel
def masked_scale_kernel_ct(x, mask, output, scale: float, BLOCK_SIZE: ConstInt):
    bid = ct.bid(0)
    idx = bid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=torch.int32)
    v = ct.gather(x, idx, check_bounds=True)
    m = ct.gather(mask, idx, check_bounds=True)
    ct.scatter(output, idx, ct.where(m, v * scale, 0.0), check_bounds=True)


@register_impl("masked_scale", backend="cutile")
def masked_scale(input, mask, scale=1.0, out=None, **kwargs):
    if out is None:
        out = torch.empty_like(input)
    n = input.numel()
    BLOCK_SIZE = 1024
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, BLOCK_SIZE), 1, 1), masked_scale_kernel_ct, (input.view(-1), mask.view(-1), out.view(-1), scale, BLOCK_SIZE))
    return out
''')
    _register(r, "masked_scale")
    write(r, "tests/ops/test_masked_scale.py", HDR + '''import pytest
import torch

from tilegym.backend import is_backend_available
from tilegym.backend import set_backend

from .. import common

_backends = ["cutile"]


class Test_MASKED_SCALE(common.PyTestCase):
    @staticmethod
    def reference(input, mask, scale=1.0):
        return torch.where(mask, input * scale, torch.zeros_like(input))

    @pytest.mark.parametrize("n, scale", [(1024, 2.0), (100000, 0.5)])
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, n, scale, backend, arch):
        if backend == "cutile" and not is_backend_available("cutile"):
            pytest.skip("Cutile backend not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend is not supported: {e}")
        self.setUp()

        from tilegym.ops import masked_scale

        x = torch.randn(n, device="cuda")
        m = torch.rand(n, device="cuda") > 0.5
        self.assertCorrectness(masked_scale, self.reference, {"input": x, "mask": m, "scale": scale})
''')
    write(r, "tests/benchmark/bench_masked_scale.py", HDR + '''import torch
import triton
import triton.testing

import tilegym
from tilegym.backend import is_backend_available

ALL_BACKENDS = [
    ("cutile", "cuTile", ("orange", "-")) if is_backend_available("cutile") else None,
    ("torch", "PyTorch", ("green", "-")),
]


def get_supported_backends():
    return [p for p in ALL_BACKENDS if p is not None]


def reference_masked_scale(input, mask, scale=1.0, out=None, **kwargs):
    return torch.where(mask, input * scale, torch.zeros_like(input))


def create_benchmark_config(datatype):
    backends, names, styles = zip(*get_supported_backends())
    dtype_name = str(datatype).split(".")[-1]
    return triton.testing.Benchmark(
        x_names=["N"],
        x_vals=[2**i for i in range(14, 26, 2)],
        line_arg="backend",
        line_vals=list(backends),
        line_names=list(names),
        styles=list(styles),
        ylabel="GB/s",
        plot_name=f"masked-scale-{dtype_name}-TFLOPS",
        args={"datatype": datatype},
    )


@triton.testing.perf_report([create_benchmark_config(datatype) for datatype in [torch.float16, torch.float32]])
def bench_masked_scale(N, backend, datatype, device="cuda"):
    x = torch.randn(N, dtype=datatype, device=device)
    m = torch.rand(N, device=device) > 0.5
    fn = lambda: tilegym.ops.masked_scale(x, m, 2.0, backend=backend)
    ms = triton.testing.do_bench(fn)
    return (2 * x.numel() * x.element_size() + m.numel()) * 1e-9 / (ms * 1e-3)


if __name__ == "__main__":
    bench_masked_scale.run(print_data=True)
''')


def h09_swish_beta(r):
    """Agent I: the cuTile function drops **kwargs; the test lists only the torch backend."""
    append(r, OPS, _stub("swish_beta", "    input: torch.Tensor,\n    beta: float = 1.0,\n"))
    write(r, "src/tilegym/ops/cutile/swish_beta.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl

ConstInt = ct.Constant[int]


@ct.kernel
def swish_beta_kernel_ct(x, output, beta: float, n_elements: ConstInt, BLOCK_SIZE: ConstInt):
    bid = ct.bid(0)
    indices = bid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=torch.int32)
    v = ct.astype(ct.gather(x, indices, check_bounds=True), torch.float32)
    result = v / (1.0 + ct.exp(-beta * v))
    ct.scatter(output, indices, ct.astype(result, output.dtype), check_bounds=True)


@register_impl("swish_beta", backend="cutile")
def swish_beta(input: torch.Tensor, beta: float = 1.0, out: torch.Tensor = None) -> torch.Tensor:
    x = input.contiguous().view(-1)
    if out is None:
        out = torch.empty_like(input)
    n = x.numel()
    BLOCK_SIZE = 1024
    grid = (ct.cdiv(n, BLOCK_SIZE), 1, 1)
    ct.launch(torch.cuda.current_stream(), grid, swish_beta_kernel_ct, (x, out.view(-1), beta, n, BLOCK_SIZE))
    return out
''')
    _register(r, "swish_beta")
    write(r, "tests/ops/test_swish_beta.py", HDR + '''import pytest
import torch

from tilegym.backend import is_backend_available
from tilegym.backend import set_backend

from .. import common

_backends = ["torch"]


class Test_SWISH_BETA(common.PyTestCase):
    @staticmethod
    def reference(input, beta=1.0):
        return input * torch.sigmoid(beta * input)

    @pytest.mark.parametrize("shape, dtype", [((4096,), torch.float16), ((128, 777), torch.float32)])
    @pytest.mark.parametrize("beta", [0.5, 1.0, 1.702])
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, shape, dtype, beta, backend, arch):
        if backend == "cutile" and not is_backend_available("cutile"):
            pytest.skip("Cutile backend not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend is not supported: {e}")
        self.setUp()

        from tilegym.ops import swish_beta

        x = torch.randn(*shape, dtype=dtype, device="cuda")
        self.assertCorrectness(swish_beta, self.reference, {"input": x, "beta": beta}, atol=1e-2, rtol=1e-2)
''')
    write(r, "tests/benchmark/bench_swish_beta.py", HDR + '''import torch
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


def reference_swish_beta(input: torch.Tensor, beta: float = 1.0, out: torch.Tensor = None, **kwargs):
    return input * torch.sigmoid(beta * input)


register_impl("swish_beta", "torch")(reference_swish_beta)


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
        plot_name=f"swish-beta-{dtype_name}-GBps",
        args={"datatype": datatype},
    )


@triton.testing.perf_report([create_benchmark_config(datatype) for datatype in [torch.float16, torch.float32]])
def bench_swish_beta(N, backend, datatype, device="cuda"):
    x = torch.randn(N, dtype=datatype, device=device)
    fn = lambda: tilegym.ops.swish_beta(x, 1.702, backend=backend)
    ref = lambda: reference_swish_beta(x, 1.702)
    torch.testing.assert_close(fn(), ref(), rtol=1e-2, atol=1e-2)
    ms = triton.testing.do_bench(fn)
    return 2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)


if __name__ == "__main__":
    bench_swish_beta.run(print_data=True)
''')


def h10_silu_and_mul_ms(r):
    """Agent J modifies an existing benchmark: returns the raw milliseconds, ylabel left at GB/s."""
    replace(r, "tests/benchmark/bench_silu_and_mul.py", "    return gb_per_s\n", "    return ms\n")


def h11_hard_tanh(r):
    """Agent K diverges heavily: a stub that computes, a torch 'backend' with no kernel, nothing in
    __init__.py, a test that checks only the shape, no benchmark."""
    append(r, OPS, """@dispatch(
    "hard_tanh",
)
def hard_tanh(
    input: torch.Tensor,
    min_val: float = -1.0,
    max_val: float = 1.0,
    out: Optional[torch.Tensor] = None,
    **kwargs: Any,
):
    \"\"\"
    HardTanh: clamp input to [min_val, max_val].

    Args:
        input: Input tensor
        min_val: Lower bound
        max_val: Upper bound
        out: Optional preallocated output tensor
        **kwargs: Additional arguments for backend-specific configurations

    Returns:
        torch.Tensor with the shape of input
    \"\"\"
    return torch.clamp(input, min_val, max_val, out=out)
""")
    write(r, "src/tilegym/ops/cutile/hard_tanh.py", HDR + """import torch

from tilegym.backend import register_impl


@register_impl("hard_tanh", backend="cutile")
def hard_tanh(input, min_val=-1.0, max_val=1.0, out=None, **kwargs):
    # TODO: write the cuTile kernel; torch for now
    return torch.clamp(input, min_val, max_val, out=out)
""")
    write(r, "tests/ops/test_hard_tanh.py", HDR + """import pytest
import torch

from tilegym.backend import is_backend_available
from tilegym.backend import set_backend

from .. import common

_backends = ["cutile"]


class Test_HARD_TANH(common.PyTestCase):
    @pytest.mark.parametrize("shape", [(1024,), (16, 256)])
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, shape, backend, arch):
        if backend == "cutile" and not is_backend_available("cutile"):
            pytest.skip("Cutile backend not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend is not supported: {e}")
        self.setUp()

        from tilegym.ops import hard_tanh

        x = torch.randn(*shape, device="cuda") * 3
        y = hard_tanh(x)
        assert y.shape == x.shape
""")


def h12_log1p_abs(r):
    """Agent L: the benchmark function lost its perf_report decorator and the configs bypass
    get_supported_backends."""
    append(r, OPS, _stub("log1p_abs", "    input: torch.Tensor,\n"))
    write(r, "src/tilegym/ops/cutile/log1p_abs.py", HDR + """import cuda.tile as ct
import torch

from tilegym.backend import register_impl

ConstInt = ct.Constant[int]


@ct.kernel
def log1p_abs_kernel_ct(x, output, n_elements: ConstInt, BLOCK_SIZE: ConstInt):
    bid = ct.bid(0)
    indices = bid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=torch.int32)
    v = ct.astype(ct.gather(x, indices, check_bounds=True), torch.float32)
    a = ct.where(v < 0, -v, v)
    ct.scatter(output, indices, ct.astype(ct.log(a + 1.0), output.dtype), check_bounds=True)


@register_impl("log1p_abs", backend="cutile")
def log1p_abs(input: torch.Tensor, out: torch.Tensor = None, **kwargs) -> torch.Tensor:
    x = input.contiguous().view(-1)
    if out is None:
        out = torch.empty_like(input)
    n = x.numel()
    BLOCK_SIZE = 1024
    grid = (ct.cdiv(n, BLOCK_SIZE), 1, 1)
    ct.launch(torch.cuda.current_stream(), grid, log1p_abs_kernel_ct, (x, out.view(-1), n, BLOCK_SIZE))
    return out
""")
    _register(r, "log1p_abs")
    write(r, "tests/ops/test_log1p_abs.py", HDR + """import pytest
import torch

from tilegym.backend import is_backend_available
from tilegym.backend import set_backend

from .. import common

_backends = ["cutile"]


class Test_LOG1P_ABS(common.PyTestCase):
    @staticmethod
    def reference(input):
        return torch.log1p(input.abs())

    @pytest.mark.parametrize("shape, dtype", [((4096,), torch.float32), ((64, 300), torch.float16)])
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, shape, dtype, backend, arch):
        if backend == "cutile" and not is_backend_available("cutile"):
            pytest.skip("Cutile backend not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend is not supported: {e}")
        self.setUp()

        from tilegym.ops import log1p_abs

        x = torch.randn(*shape, dtype=dtype, device="cuda")
        self.assertCorrectness(log1p_abs, self.reference, {"input": x}, atol=1e-2, rtol=1e-2)
""")
    write(r, "tests/benchmark/bench_log1p_abs.py", HDR + """import torch
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


def reference_log1p_abs(input: torch.Tensor, out: torch.Tensor = None, **kwargs):
    return torch.log1p(input.abs())


register_impl("log1p_abs", "torch")(reference_log1p_abs)


def create_benchmark_config(datatype):
    backends, names, styles = zip(*[b for b in ALL_BACKENDS if b is not None])
    dtype_name = str(datatype).split(".")[-1]
    return triton.testing.Benchmark(
        x_names=["N"],
        x_vals=[2**i for i in range(12, 25, 2)],
        line_arg="backend",
        line_vals=list(backends),
        line_names=list(names),
        styles=list(styles),
        ylabel="GB/s",
        plot_name=f"log1p-abs-{dtype_name}-GBps",
        args={"datatype": datatype},
    )


def bench_log1p_abs(N, backend, datatype, device="cuda"):
    x = torch.randn(N, dtype=datatype, device=device)
    fn = lambda: tilegym.ops.log1p_abs(x, backend=backend)
    ref = lambda: reference_log1p_abs(x)
    torch.testing.assert_close(fn(), ref(), rtol=1e-2, atol=1e-2)
    ms = triton.testing.do_bench(fn)
    return 2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)


if __name__ == "__main__":
    bench_log1p_abs.run(print_data=True)
""")


CHANGES = [
    ("h01", h01_rsqrt_eps), ("h02", h02_abs_diff), ("h03", h03_sigmoid_mul),
    ("h04", h04_row_l2norm), ("h05", h05_expm1), ("h06", h06_clip_value),
    ("h07", h07_softmax_noncontig), ("h08", h08_masked_scale), ("h09", h09_swish_beta),
    ("h10", h10_silu_and_mul_ms), ("h11", h11_hard_tanh), ("h12", h12_log1p_abs),
]

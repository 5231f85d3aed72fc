from common import *
from elem import *


def c11_vector_norm(r):
    """Agent K: l1_norm and l2_norm in one module, one test file, one benchmark file;
    the L1 test method has no backend parametrization and no backend selection."""
    for n, p in (("l1_norm", "1"), ("l2_norm", "2")):
        append(r, OPS, f'''@dispatch(
    "{n}",
)
def {n}(
    x: torch.Tensor,
    out: Optional[torch.Tensor] = None,
    **kwargs: Any,
):
    """
    L{p} norm of each row of a 2D tensor (M, N).

    Args:
        x: Input tensor of shape (M, N)
        out: Optional preallocated output tensor of shape (M,)
        **kwargs: Additional arguments for backend-specific configurations

    Returns:
        torch.Tensor of shape (M,)
    """
    raise NotImplementedError(f"{n} is not implemented for {{get_current_backend()}}")
''')
    write(r, "src/tilegym/ops/cutile/vector_norm.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl

from .utils import next_power_of_2


@ct.kernel
def _row_norm_kernel(x, out, P: ct.Constant[int], TILE_N: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE_N), padding_mode=ct.PaddingMode.ZERO), torch.float32)
    if P == 1:
        r = ct.sum(ct.abs(t), 1)
    else:
        r = ct.sqrt(ct.sum(t * t, 1))
    ct.store(out, index=(row,), tile=ct.astype(ct.reshape(r, (1,)), out.dtype))


def _launch(x, out, p):
    M, N = x.shape
    if out is None:
        out = torch.empty(M, dtype=x.dtype, device=x.device)
    ct.launch(torch.cuda.current_stream(), (M, 1, 1), _row_norm_kernel, (x, out, p, next_power_of_2(N)))
    return out


@register_impl("l1_norm", backend="cutile")
def l1_norm(x: torch.Tensor, out: torch.Tensor = None, **kwargs):
    return _launch(x, out, 1)


@register_impl("l2_norm", backend="cutile")
def l2_norm(x: torch.Tensor, out: torch.Tensor = None, **kwargs):
    return _launch(x, out, 2)
''')
    init_module(r, "from . import vector_norm")
    init_func(r, "from .vector_norm import l1_norm")
    init_func(r, "from .vector_norm import l2_norm")
    init_all(r, "l1_norm")
    init_all(r, "l2_norm")
    write(r, "tests/ops/test_vector_norm.py", HDR + '''import pytest
import torch

import tilegym

from .. import common

_backends = ["cutile"]

SHAPES = [(128, 1000), (1024, 4096), (3, 17)]


class Test_L1Norm(common.PyTestCase):
    @staticmethod
    def reference(x):
        return x.float().abs().sum(-1).to(x.dtype)

    @pytest.mark.parametrize("M, N", SHAPES)
    @pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
    def test_op(self, M, N, dtype, arch):
        x = torch.randn(M, N, dtype=dtype, device="cuda")
        self.assertCorrectness(tilegym.ops.l1_norm, self.reference, {"x": x}, atol=1e-2, rtol=1e-2)


class Test_L2Norm(common.PyTestCase):
    @staticmethod
    def reference(x):
        return torch.linalg.vector_norm(x.float(), dim=-1).to(x.dtype)

    @pytest.mark.parametrize("M, N", SHAPES)
    @pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, M, N, dtype, backend, arch):
        if tilegym.is_backend_available(backend):
            tilegym.set_backend(backend)
        else:
            pytest.skip(f"Backend {backend} is not available")
        self.setUp()
        x = torch.randn(M, N, dtype=dtype, device="cuda")
        self.assertCorrectness(tilegym.ops.l2_norm, self.reference, {"x": x}, atol=1e-2, rtol=1e-2)
''')
    b = HDR + '''import torch
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


def reference_l1_norm(x: torch.Tensor, out: torch.Tensor = None, **kwargs):
    return x.abs().sum(-1)


def reference_l2_norm(x: torch.Tensor, out: torch.Tensor = None, **kwargs):
    return torch.linalg.vector_norm(x, dim=-1)


register_impl("l1_norm", "torch")(reference_l1_norm)
register_impl("l2_norm", "torch")(reference_l2_norm)


def create_benchmark_config(norm):
    available_backends = get_supported_backends()
    if not available_backends:
        return None
    backends, names, styles = zip(*available_backends)
    return triton.testing.Benchmark(
        x_names=["N"],
        x_vals=[2**i for i in range(8, 15)],
        line_arg="backend",
        line_vals=list(backends),
        line_names=list(names),
        styles=list(styles),
        ylabel="GB/s",
        plot_name=f"{norm}-M4096-GBps",
        args={"M": 4096},
    )

'''
    for n in ("l1_norm", "l2_norm"):
        b += f'''
@triton.testing.perf_report([create_benchmark_config("{n.replace('_', '-')}")])
def bench_{n}(M, N, backend, device="cuda"):
    x = torch.randn(M, N, dtype=torch.float32, device=device)
    fn = lambda: tilegym.ops.{n}(x, backend=backend)
    ref = lambda: reference_{n}(x)
    torch.testing.assert_close(fn(), ref(), rtol=1e-3, atol=1e-3)
    ms = triton.testing.do_bench(fn)
    return x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)

'''
    b += '''
if __name__ == "__main__":
    bench_l1_norm.run(print_data=True)
    bench_l2_norm.run(print_data=True)
'''
    write(r, "tests/benchmark/bench_vector_norm.py", b)


def c12_softplus(r):
    """Agent L: backend selected by a parametrized fixture in the test; the benchmark reports ms."""
    append(r, OPS, stub("softplus", params="    beta: float = 1.0,\n    threshold: float = 20.0,\n"))
    write(r, "src/tilegym/ops/cutile/softplus.py", module(
        "softplus", "ct.where(v * beta > threshold, v, ct.log(1.0 + ct.exp(v * beta)) / beta)",
        sig_extra="beta: float = 1.0, threshold: float = 20.0, ",
        kernel_extra_params="beta: float, threshold: float, ", kernel_args="beta, threshold, "))
    init_module(r, "from . import softplus")
    init_func(r, "from .softplus import softplus")
    init_all(r, "softplus")
    write(r, "tests/ops/test_softplus.py", HDR + '''import pytest
import torch

import tilegym
from tilegym.backend import is_backend_available

from .. import common

_backends = ["cutile"]


@pytest.fixture(params=_backends)
def backend(request):
    if not is_backend_available(request.param):
        pytest.skip(f"Backend {request.param} is not available")
    tilegym.set_backend(request.param)
    return request.param


class Test_Softplus(common.PyTestCase):
    @staticmethod
    def reference(input, beta=1.0, threshold=20.0):
        return torch.nn.functional.softplus(input, beta=beta, threshold=threshold)

    @pytest.mark.parametrize("shape", [(4096,), (256, 1024)])
    @pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
    def test_op(self, shape, dtype, backend):
        self.setUp()
        x = torch.randn(*shape, dtype=dtype, device="cuda")
        self.assertCorrectness(tilegym.ops.softplus, self.reference, {"input": x}, atol=1e-2, rtol=1e-2)

    @pytest.mark.parametrize("beta", [0.5, 2.0])
    def test_op_beta(self, beta, backend):
        self.setUp()
        x = torch.randn(2048, device="cuda")
        self.assertCorrectness(
            tilegym.ops.softplus, self.reference, {"input": x, "beta": beta}, atol=1e-2, rtol=1e-2
        )
''')
    write(r, "tests/benchmark/bench_softplus.py", bench(
        "softplus", "torch.nn.functional.softplus(input)", plot='f"softplus-{dtype_name}-ms"', ret="ms", ylabel="ms"))


def c13_silu_and_mul_approx(r):
    """Agent M modifies silu_and_mul: an approximate flag in the stub, the cuTile function with
    another default, the other backends and the benchmark's reference left alone; a new test."""
    replace(r, OPS, '''def silu_and_mul(
    input: torch.Tensor,
    out: Optional[torch.Tensor] = None,
    **kwargs: Any,''', '''def silu_and_mul(
    input: torch.Tensor,
    out: Optional[torch.Tensor] = None,
    approximate: bool = False,
    **kwargs: Any,''')
    replace(r, "src/tilegym/ops/cutile/silu_and_mul.py", '''def silu_and_mul(
    input: torch.Tensor,
    out: torch.Tensor = None,
) -> torch.Tensor:''', '''def silu_and_mul(
    input: torch.Tensor,
    out: torch.Tensor = None,
    approximate: bool = True,
) -> torch.Tensor:''')
    append(r, "tests/ops/test_silu_and_mul.py", '''    @pytest.mark.parametrize("approximate", [False, True])
    @pytest.mark.parametrize("backend", _backends)
    def test_op_approximate(self, approximate, backend, arch):
        if tilegym.is_backend_available(backend):
            tilegym.set_backend(backend)
        else:
            pytest.skip(f"Backend {backend} is not available")
        self.setUp()
        x = torch.randn(8, 512, 2048, dtype=torch.float16, device="cuda")
        self.assertCorrectness(
            tilegym.ops.silu_and_mul, self.reference, {"input": x, "approximate": approximate}, atol=2e-2, rtol=2e-2
        )
'''.replace("\n\n\n", "\n"))


def c14_cumsum_rows(r):
    """Agent N: BLOCK_SIZE not ct.Constant; out used without allocating when None."""
    append(r, OPS, stub("cumsum_rows"))
    m = module("cumsum_rows", "v", const=False, alloc=False)
    write(r, "src/tilegym/ops/cutile/cumsum_rows.py", m)
    init_module(r, "from . import cumsum_rows")
    init_func(r, "from .cumsum_rows import cumsum_rows")
    init_all(r, "cumsum_rows")
    write(r, "tests/ops/test_cumsum_rows.py", test("cumsum_rows", "Test_CumsumRows", "torch.cumsum(input, dim=-1)"))
    write(r, "tests/benchmark/bench_cumsum_rows.py", bench("cumsum_rows", "torch.cumsum(input, dim=-1)"))

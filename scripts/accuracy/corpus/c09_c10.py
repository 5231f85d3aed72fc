from common import *


def c09_fused_add_relu(r):
    """Agent I (heavy divergence): no stub, no __init__ entries, test calls the cuTile function,
    benchmark selects the backend with set_backend and registers no reference."""
    write(r, "src/tilegym/ops/cutile/fused_add_relu.py", HDR + '''import cuda.tile as ct
import torch

from tilegym.backend import register_impl


@ct.kernel
def fused_add_relu_kernel(a, b, out, TILE: ct.Constant[int]):
    pid = ct.bid(0)
    ta = ct.load(a, index=(pid,), shape=(TILE,))
    tb = ct.load(b, index=(pid,), shape=(TILE,))
    s = ta + tb
    ct.store(out, index=(pid,), tile=ct.where(s > 0, s, 0))


@register_impl("fused_add_relu", backend="cutile")
def fused_add_relu(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor = None, **kwargs):
    if out is None:
        out = torch.empty_like(a)
    TILE = 1024
    grid = (ct.cdiv(a.numel(), TILE), 1, 1)
    ct.launch(torch.cuda.current_stream(), grid, fused_add_relu_kernel, (a.view(-1), b.view(-1), out.view(-1), TILE))
    return out
''')
    write(r, "tests/ops/test_fused_add_relu.py", HDR + '''import pytest
import torch

from tilegym.ops.cutile.fused_add_relu import fused_add_relu

from .. import common


class Test_FusedAddReLU(common.PyTestCase):
    @staticmethod
    def reference(a, b):
        return torch.relu(a + b)

    @pytest.mark.parametrize("n", [1024, 65536, 1 << 20])
    @pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
    def test_op(self, n, dtype):
        a = torch.randn(n, dtype=dtype, device="cuda")
        b = torch.randn(n, dtype=dtype, device="cuda")
        self.assertCorrectness(fused_add_relu, self.reference, {"a": a, "b": b}, atol=1e-3, rtol=1e-3)
''')
    write(r, "tests/benchmark/bench_fused_add_relu.py", HDR + '''import torch
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


def reference_fused_add_relu(a, b):
    return torch.relu(a + b)


def create_benchmark_config(dtype):
    backends, names, styles = zip(*get_supported_backends())
    return triton.testing.Benchmark(
        x_names=["N"],
        x_vals=[2**i for i in range(14, 26, 2)],
        line_arg="backend",
        line_vals=list(backends),
        line_names=list(names),
        styles=list(styles),
        ylabel="GB/s",
        plot_name=f"fused-add-relu-{str(dtype).split('.')[-1]}-GBps",
        args={"dtype": dtype},
    )


@triton.testing.perf_report([create_benchmark_config(dtype) for dtype in [torch.float16, torch.float32]])
def bench_fused_add_relu(N, backend, dtype, device="cuda"):
    a = torch.randn(N, dtype=dtype, device=device)
    b = torch.randn(N, dtype=dtype, device=device)
    if backend == "torch":
        fn = lambda: reference_fused_add_relu(a, b)
    else:
        tilegym.set_backend(backend)
        fn = lambda: tilegym.ops.fused_add_relu(a, b)
    torch.testing.assert_close(fn(), reference_fused_add_relu(a, b))
    ms = triton.testing.do_bench(fn)
    return 3 * a.numel() * a.element_size() * 1e-9 / (ms * 1e-3)


if __name__ == "__main__":
    bench_fused_add_relu.run(print_data=True)
''')


def c10_row_max(r):
    """Agent J (heavy divergence): a kernel and a launcher, no stub, no register_impl, no __init__;
    a test of the cuTile function and a hand-timed benchmark script."""
    write(r, "src/tilegym/ops/cutile/row_max.py", HDR + '''import cuda.tile as ct
import torch

from .utils import next_power_of_2


@ct.kernel
def row_max_kernel(x, out, TILE_N: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE_N), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(out, index=(row,), tile=ct.reshape(ct.max(t, 1), (1,)))


def row_max(x: torch.Tensor) -> torch.Tensor:
    """Max over the last dimension of a 2D tensor, one block per row."""
    M, N = x.shape
    out = torch.empty(M, dtype=x.dtype, device=x.device)
    ct.launch(torch.cuda.current_stream(), (M, 1, 1), row_max_kernel, (x, out, next_power_of_2(N)))
    return out
''')
    write(r, "tests/ops/test_row_max.py", HDR + '''import pytest
import torch

from tilegym.ops.cutile.row_max import row_max


class TestRowMax:
    @pytest.mark.parametrize("M, N", [(128, 1000), (4096, 4096), (7, 33)])
    @pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
    def test_op(self, M, N, dtype):
        x = torch.randn(M, N, dtype=dtype, device="cuda")
        torch.testing.assert_close(row_max(x), torch.amax(x, dim=-1))
''')
    write(r, "tests/benchmark/bench_row_max.py", HDR + '''"""Compare the cuTile row max with torch.amax."""
import torch

from tilegym.ops.cutile.row_max import row_max


def time_ms(fn, iters=100):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    fn()
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / iters


def main():
    for M, N in [(4096, 1024), (4096, 4096), (16384, 8192)]:
        x = torch.randn(M, N, dtype=torch.float16, device="cuda")
        t_ct = time_ms(lambda: row_max(x))
        t_torch = time_ms(lambda: torch.amax(x, dim=-1))
        print(f"M={M} N={N} cutile={t_ct:.3f}ms torch={t_torch:.3f}ms")


if __name__ == "__main__":
    main()
''')

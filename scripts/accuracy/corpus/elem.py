"""A parametrized elementwise op as an agent following the skill would write it; knobs are slips."""
from common import *

OPS = "src/tilegym/ops/ops.py"


def stub(name, params="", docstring=True, out=True):
    doc = f'''    """
    {name} elementwise.

    Args:
        input: Input tensor
        out: Optional preallocated output tensor
        **kwargs: Additional arguments for backend-specific configurations

    Returns:
        torch.Tensor
    """
''' if docstring else ""
    outp = "    out: Optional[torch.Tensor] = None,\n" if out else ""
    return f'''@dispatch(
    "{name}",
)
def {name}(
    input: torch.Tensor,
{params}{outp}    **kwargs: Any,
):
{doc}    raise NotImplementedError(f"{name} is not implemented for {{get_current_backend()}}")
'''


def module(name, expr, sig_extra="", kernel_extra_params="", kernel_args="", reg_name=None, const=True, alloc=True):
    reg_name = reg_name or name
    bs = "BLOCK_SIZE: ct.Constant[int]" if const else "BLOCK_SIZE"
    alloc_s = "    if out is None:\n        out = torch.empty_like(input)\n" if alloc else ""
    return HDR + f'''import cuda.tile as ct
import torch

from tilegym.backend import register_impl


@ct.kernel
def {name}_kernel(x, output, {kernel_extra_params}{bs}):
    bid = ct.bid(0)
    indices = bid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=torch.int32)
    v = ct.astype(ct.gather(x, indices, check_bounds=True), torch.float32)
    result = {expr}
    ct.scatter(output, indices, ct.astype(result, output.dtype), check_bounds=True)


@register_impl("{reg_name}", backend="cutile")
def {name}(input: torch.Tensor, {sig_extra}out: torch.Tensor = None, **kwargs) -> torch.Tensor:
{alloc_s}    n = input.numel()
    BLOCK_SIZE = 1024
    grid = (ct.cdiv(n, BLOCK_SIZE), 1, 1)
    ct.launch(torch.cuda.current_stream(), grid, {name}_kernel, (input.view(-1), out.view(-1), {kernel_args}BLOCK_SIZE))
    return out
'''


def test(name, cls, ref, call_extra="", import_line=None, call=None):
    import_line = import_line or ""
    call = call or f"tilegym.ops.{name}"
    return HDR + f'''import pytest
import torch

import tilegym
from tilegym.backend import is_backend_available
from tilegym.backend import set_backend
{import_line}
from .. import common


class {cls}(common.PyTestCase):
    _backends = ["cutile"]

    @staticmethod
    def reference(input{call_extra}):
        return {ref}

    @pytest.mark.parametrize("shape", [(4096,), (512, 1024), (8, 128, 257)])
    @pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
    @pytest.mark.parametrize("backend", _backends)
    def test_op(self, shape, dtype, backend, arch):
        if backend == "cutile" and not is_backend_available("cutile"):
            pytest.skip("Cutile backend not available")
        try:
            set_backend(backend)
        except Exception as e:
            pytest.skip(f"Backend is not supported: {{e}}")
        self.setUp()

        x = torch.randn(*shape, dtype=dtype, device="cuda")
        self.assertCorrectness({call}, self.reference, {{"input": x}}, atol=1e-2, rtol=1e-2)
'''


def bench(name, ref, plot=None, check=True, torch_entry=True, ret="gbps", call_extra="", ylabel="GB/s"):
    plot = plot if plot is not None else f'f"{name.replace("_", "-")}-{{dtype_name}}-GBps"'
    chk = "    torch.testing.assert_close(fn(), ref(), rtol=1e-2, atol=1e-2)\n" if check else ""
    te = '    ("torch", "PyTorch", ("green", "-")),\n' if torch_entry else ""
    retline = {"gbps": "    return 2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)\n", "ms": "    return ms\n"}[ret]
    return HDR + f'''import torch
import triton
import triton.testing

import tilegym
from tilegym.backend import is_backend_available
from tilegym.backend import register_impl

ALL_BACKENDS = [
    ("cutile", "cuTile", ("orange", "-")) if is_backend_available("cutile") else None,
{te}]


def get_supported_backends():
    return [p for p in ALL_BACKENDS if p is not None]


def reference_{name}(input: torch.Tensor{call_extra}, out: torch.Tensor = None, **kwargs):
    return {ref}


register_impl("{name}", "torch")(reference_{name})


def create_benchmark_config(datatype):
    available_backends = get_supported_backends()
    if not available_backends:
        return None
    backends, names, styles = zip(*available_backends)
    dtype_name = str(datatype).split(".")[-1]
    return triton.testing.Benchmark(
        x_names=["N"],
        x_vals=[2**i for i in range(12, 26, 2)],
        line_arg="backend",
        line_vals=list(backends),
        line_names=list(names),
        styles=list(styles),
        ylabel="{ylabel}",
        plot_name={plot},
        args={{"datatype": datatype}},
    )


@triton.testing.perf_report([create_benchmark_config(dt) for dt in [torch.float16, torch.bfloat16]])
def bench_{name}(N, backend, datatype, device="cuda"):
    x = torch.randn(N, dtype=datatype, device=device)
    fn = lambda: tilegym.ops.{name}(x, backend=backend)
    ref = lambda: reference_{name}(x)
{chk}    ms = triton.testing.do_bench(fn)
{retline}

if __name__ == "__main__":
    bench_{name}.run(print_data=True)
'''

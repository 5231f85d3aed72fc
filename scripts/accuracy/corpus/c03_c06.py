from common import *
from elem import *


def c03_leaky_relu(r):
    """Agent C: forgets the stub docstring, appends the module import at the end, plot name without suffix."""
    append(r, OPS, stub("leaky_relu", params="    negative_slope: float = 0.01,\n", docstring=False))
    write(r, "src/tilegym/ops/cutile/leaky_relu.py", module(
        "leaky_relu", "ct.where(v > 0, v, v * negative_slope)", sig_extra="negative_slope: float = 0.01, ",
        kernel_extra_params="negative_slope: float, ", kernel_args="negative_slope, "))
    init_module(r, "from . import leaky_relu", where="end")
    init_func(r, "from .leaky_relu import leaky_relu")
    init_all(r, "leaky_relu")
    write(r, "tests/ops/test_leaky_relu.py", test(
        "leaky_relu", "Test_LeakyReLU", "torch.nn.functional.leaky_relu(input, 0.01)"))
    write(r, "tests/benchmark/bench_leaky_relu.py", bench(
        "leaky_relu", "torch.nn.functional.leaky_relu(input, 0.01)", plot='f"leaky-relu-{dtype_name}"'))


def c04_hardswish(r):
    """Agent D: the test imports the cuTile function; the benchmark times without checking."""
    append(r, OPS, stub("hardswish"))
    write(r, "src/tilegym/ops/cutile/hardswish.py", module(
        "hardswish", "v * ct.minimum(ct.maximum(v + 3.0, 0.0), 6.0) / 6.0"))
    init_module(r, "from . import hardswish")
    init_func(r, "from .hardswish import hardswish")
    init_all(r, "hardswish")
    write(r, "tests/ops/test_hardswish.py", test(
        "hardswish", "Test_Hardswish", "torch.nn.functional.hardswish(input)",
        import_line="from tilegym.ops.cutile.hardswish import hardswish\n", call="hardswish"))
    write(r, "tests/benchmark/bench_hardswish.py", bench(
        "hardswish", "torch.nn.functional.hardswish(input)", check=False))


def c05_clamp_scale(r):
    """Agent E: the cuTile function drops max_val and changes min_val's default; ALL_BACKENDS lacks torch."""
    append(r, OPS, stub("clamp_scale", params="    scale: float,\n    min_val: float = -1.0,\n    max_val: float = 1.0,\n"))
    write(r, "src/tilegym/ops/cutile/clamp_scale.py", module(
        "clamp_scale", "ct.minimum(ct.maximum(v * scale, min_val), 1.0)", sig_extra="scale: float, min_val: float = 0.0, ",
        kernel_extra_params="scale: float, min_val: float, ", kernel_args="scale, min_val, "))
    init_module(r, "from . import clamp_scale")
    init_func(r, "from .clamp_scale import clamp_scale")
    init_all(r, "clamp_scale")
    t = test("clamp_scale", "Test_ClampScale", "torch.clamp(input * 2.0, -1.0, 1.0)")
    t = t.replace('{"input": x}', '{"input": x, "scale": 2.0}').replace("def reference(input):", "def reference(input, scale):").replace("input * 2.0", "input * scale")
    write(r, "tests/ops/test_clamp_scale.py", t)
    b = bench("clamp_scale", "torch.clamp(input * scale, min_val, max_val)", torch_entry=False,
              call_extra=", scale: float = 2.0, min_val: float = -1.0, max_val: float = 1.0")
    b = b.replace("tilegym.ops.clamp_scale(x, backend=backend)", "tilegym.ops.clamp_scale(x, 2.0, backend=backend)")
    write(r, "tests/benchmark/bench_clamp_scale.py", b)


def c06_swish_gate(r):
    """Agent F: an experimental op; Step 3 adds only the module import."""
    append(r, OPS, stub("swish_gate", params="    beta: float = 1.0,\n"))
    m = module("swish_gate", "v / (1.0 + ct.exp(-beta * v))", sig_extra="beta: float = 1.0, ",
               kernel_extra_params="beta: float, ", kernel_args="beta, ")
    m = m.replace("from tilegym.backend import register_impl\n", "from tilegym.backend import register_impl\nfrom tilegym.experimental import experimental_kernel\n")
    m = m.replace("@ct.kernel\n", "@experimental_kernel\n@ct.kernel\n")
    write(r, "src/tilegym/ops/cutile/experimental/swish_gate.py", m)
    init_func(r, "from .experimental import swish_gate")
    t = test("swish_gate", "Test_SwishGate", "input * torch.sigmoid(input)").replace("from .. import common", "from tests import common")
    write(r, "tests/ops/experimental/test_swish_gate.py", t)
    write(r, "tests/benchmark/experimental/bench_swish_gate.py", bench("swish_gate", "input * torch.sigmoid(input)"))

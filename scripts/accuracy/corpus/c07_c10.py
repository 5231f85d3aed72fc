from common import *
from elem import *


def c07_softmax_dim(r):
    """Agent G modifies softmax: a dim parameter in the stub and the cuTile function only."""
    replace(r, OPS, '''def softmax(
    x: torch.Tensor,
    use_tma: bool = False,
    **kwargs: Any,''', '''def softmax(
    x: torch.Tensor,
    use_tma: bool = False,
    dim: int = -1,
    **kwargs: Any,''')
    replace(r, OPS, "        use_tma: Whether to use TMA (Tensor Memory Accelerator) implementation\n",
            "        use_tma: Whether to use TMA (Tensor Memory Accelerator) implementation\n        dim: Dimension to reduce; only the last dimension (-1) is supported\n")
    replace(r, "src/tilegym/ops/cutile/softmax.py", '''def softmax(
    x,
    use_tma=False,
    **kwargs,
):''', '''def softmax(
    x,
    use_tma=False,
    dim=-1,
    **kwargs,
):
    if dim not in (-1, x.ndim - 1):
        raise NotImplementedError("cuTile softmax reduces over the last dimension only")''')


def c08_dropout_eval(r):
    """Agent H adds an eval-mode test to test_dropout.py without the backend pattern."""
    append(r, "tests/ops/test_dropout.py", '''    @pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
    def test_op_eval_mode(self, dtype):
        x = torch.randn(4096, dtype=dtype, device="cuda")
        y = tilegym.ops.dropout(x, seed=123, p=0.5, training=False)
        torch.testing.assert_close(y, x)
'''.replace("\n\n\n", "\n"))

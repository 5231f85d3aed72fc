import cuda.tile as ct
from tilegym.backend import register_impl
register_impl()
register_impl("cond")(missing_fn)
register_impl(name="cond", backend="cutile")(lambda x: x)
register_impl("cond", backend=BACKEND)
register_impl(*args)(f)
x = register_impl("lambda_op", "cutile")
x(ct)

@ct.kernel
def k(*args, **kwargs):
    ct.arange(*args)
    ct.load(shape=kwargs)
    ct.full()

@register_impl("cond", backend="cutile")
@register_impl("cond", backend="triton")
def cond(x, out=None):
    if out is None:
        pass
    return

@register_impl("method_op", backend="cutile")
class NotAFunction:
    pass
# tilegym-lint: skip-step=
# tilegym-lint: skip-step=99 reason=
# tilegym-lint: skip-step=3 reason="unterminated

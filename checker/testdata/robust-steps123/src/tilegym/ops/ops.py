from tilegym.backend import dispatch
from tilegym.backend import dispatch as d2
NAME = "dyn"

@dispatch
def bare(x):
    pass

@dispatch()
def noargs(x):
    pass

@dispatch(NAME)
def dynamic(x):
    pass

@dispatch(f"fmt{NAME}")
def fstr(x):
    pass

@d2("a.b.c")
def c(*args, **kwargs):
    ...

@dispatch("")
def empty():
    raise

@dispatch("lambda_op")
def lambda_op(x, /, y=lambda: 0, *a, k, **kw):
    """doc"""
    raise NotImplementedError from None

class K:
    @dispatch("method_op")
    def method_op(self):
        raise NotImplementedError

@dispatch("nested")
async def nested(x):
    raise NotImplementedError

if True:
    @dispatch("cond")
    def cond(x, out: "Optional[torch.Tensor]" = None, **kwargs):
        "doc"
        raise NotImplementedError()

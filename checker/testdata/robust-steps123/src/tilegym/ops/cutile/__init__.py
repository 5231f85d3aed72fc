from tilegym.backend import is_backend_available
from . import *
from .. import something
from ... import way_up
__all__ = compute()
if is_backend_available():
    pass
if is_backend_available(1):
    from .sub import missing
if is_backend_available("cutile"):
    __all__ += names()
    __all__.extend(other)
    __all__.append(1)
    from . import z, a, m
    from .sub.deeper import f as g

from tilegym.backend import register_impl
register_impl("cond", "torch")(reference_cond)
def reference_cond(*a): pass
register_impl("cond", "torch")(reference_cond)

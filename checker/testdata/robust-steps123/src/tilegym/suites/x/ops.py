from tilegym.backend import dispatch

@dispatch("y.wrong")
def wrong(**kwargs):
    raise NotImplementedError

@dispatch("x")
def x(**kwargs):
    raise NotImplementedError

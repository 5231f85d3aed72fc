from tilegym.ops import cond, nothing
import tilegym.ops as o
o.cond()

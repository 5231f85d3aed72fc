def (:

"""
The V5 wing: V5's own commands (`cmdset.V5CmdSet`) and its extras to the shared +roll, +check
and +odds (`wing.WING`). Only this package (and `rules.v5*`) speaks V5's words.
"""

"""
`option`: Evennia's, with a screen size held to its bounds before it is set, so the line the
player reads names the size the game uses (20-250 columns, 10-200 lines;
`typeclasses.inputfilter.SIZE_BOUNDS`). The session's flags bound it anyway
(`typeclasses.serversession.BoundedFlags`); without this the player read "changed to
3000000" for a width of 250.
"""

from evennia import default_cmds

from storyteller_dice.typeclasses.inputfilter import SIZE_BOUNDS, bounded_size

NAMES = {"SCREENWIDTH": "screen width", "SCREENHEIGHT": "screen height"}


class CmdOption(default_cmds.CmdOption):
    __doc__ = default_cmds.CmdOption.__doc__

    def func(self):
        name = (self.lhs or "").strip().upper()
        if self.rhs and name in SIZE_BOUNDS:
            sizes = bounded_size(name, self.rhs.strip())
            if sizes is None:
                low, high = SIZE_BOUNDS[name]
                self.msg(f"The {NAMES[name]} is a whole number from {low} to {high}, not '{self.rhs.strip()}'.")
                return
            self.rhs = str(sizes[0])
        super().func()

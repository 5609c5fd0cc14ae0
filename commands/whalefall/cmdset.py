"""The Whalefall wing's commands, added to every character when the game runs Whalefall."""

from evennia import CmdSet

from .partial import CmdPartial


class WhalefallCmdSet(CmdSet):
    """Whalefall: the GM's ruling on a partial check."""

    key = "WhalefallCmdSet"

    def at_cmdset_creation(self):
        self.add(CmdPartial())

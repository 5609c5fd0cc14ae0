"""The Whalefall wing's commands, added to every character when the game runs Whalefall."""

# From its module, not Evennia's flat API (`evennia.CmdSet` is None until Evennia is
# initialised): the wing imports this at its top, and tests import the wing when collected.
from evennia.commands.cmdset import CmdSet

from .partial import CmdPartial


class WhalefallCmdSet(CmdSet):
    """Whalefall: the GM's ruling on a partial check."""

    key = "WhalefallCmdSet"

    def at_cmdset_creation(self):
        self.add(CmdPartial())

"""The V20 wing's commands, added to every character when the game runs V20."""

from evennia import CmdSet

from .contest import CmdContest
from .health import CmdDamage, CmdHeal


class V20CmdSet(CmdSet):
    """V20: health (+damage, +heal) and resisted actions (+contest)."""

    key = "V20CmdSet"

    def at_cmdset_creation(self):
        for command in (CmdDamage, CmdHeal, CmdContest):
            self.add(command())

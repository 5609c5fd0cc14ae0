"""The Seyruun wing's commands, added to every character when the game runs Seyruun."""

from evennia import CmdSet

from .contest import CmdContest, CmdResist
from .reroll import CmdReroll
from .teamwork import CmdTeamwork


class SeyruunCmdSet(CmdSet):
    """Seyruun: contested, resisted and team rolls, and staff's Willpower rerolls."""

    key = "SeyruunCmdSet"

    def at_cmdset_creation(self):
        for command in (CmdContest, CmdResist, CmdTeamwork, CmdReroll):
            self.add(command())

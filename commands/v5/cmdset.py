"""The V5 wing's commands, added to every character when the game runs V5."""

from evennia import CmdSet

from .contest import CmdContest
from .humanity import CmdFrenzy, CmdRemorse
from .hunger import CmdHunger, CmdRouse
from .teamwork import CmdTeamwork
from .willpower import CmdWillpower


class V5CmdSet(CmdSet):
    """V5: the Beast and the Blood, Willpower, contests and teamwork."""

    key = "V5CmdSet"

    def at_cmdset_creation(self):
        for command in (CmdContest, CmdTeamwork, CmdWillpower, CmdRouse, CmdHunger, CmdRemorse, CmdFrenzy):
            self.add(command())

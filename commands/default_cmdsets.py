"""
Command sets. The dice commands are gathered in `DiceCmdSet` and merged into the character
cmdset, so every puppeted character has them.
"""

from evennia import CmdSet, default_cmds

from .contest import CmdContest
from .hunger import CmdHunger, CmdRouse
from .humanity import CmdFrenzy, CmdRemorse
from .nospoof import CmdNospoof
from .odds import CmdOdds
from .rolllog import CmdRolls
from .rolls import CmdCheck, CmdRoll
from .sheet import CmdApprove, CmdSheet, CmdStat
from .speech import CmdPage, CmdPose, CmdSay, CmdWhisper
from .teamwork import CmdTeamwork
from .willpower import CmdWillpower


class DiceCmdSet(CmdSet):
    """The Storyteller dice system: sheet, rolls and staff tools."""

    key = "DiceCmdSet"

    def at_cmdset_creation(self):
        for command in (
            CmdSheet, CmdStat, CmdApprove,  # the sheet
            CmdRoll, CmdCheck, CmdContest, CmdTeamwork, CmdWillpower,  # rolls
            CmdRouse, CmdHunger, CmdRemorse, CmdFrenzy,  # the Beast and the Blood
            CmdOdds, CmdRolls,  # odds and the record
        ):
            self.add(command())


class CharacterCmdSet(default_cmds.CharacterCmdSet):
    """In-game commands of a puppeted character: Evennia's defaults plus the dice system."""

    key = "DefaultCharacter"

    def at_cmdset_creation(self):
        super().at_cmdset_creation()
        # Stock speech, made unable to forge a system line (commands/speech.py).
        for command in (CmdSay, CmdPose, CmdWhisper):
            self.add(command())
        self.add(DiceCmdSet)


class AccountCmdSet(default_cmds.AccountCmdSet):
    """Commands available to the Account at all times."""

    key = "DefaultAccount"

    def at_cmdset_creation(self):
        super().at_cmdset_creation()
        self.add(CmdPage())  # commands/speech.py
        self.add(CmdNospoof())


class UnloggedinCmdSet(default_cmds.UnloggedinCmdSet):
    """Commands available before logging in."""

    key = "DefaultUnloggedin"

    def at_cmdset_creation(self):
        super().at_cmdset_creation()


class SessionCmdSet(default_cmds.SessionCmdSet):
    """Commands available on the Session level once logged in."""

    key = "DefaultSession"

    def at_cmdset_creation(self):
        super().at_cmdset_creation()

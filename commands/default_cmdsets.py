"""
Command sets. The dice commands are gathered in `DiceCmdSet` and merged into the character
cmdset, so every puppeted character has them: the shared ones (sheet, +roll, +check, +odds,
+rolls) for every system, and the configured system's wing's own (`commands/<key>/`, e.g.
`commands.v5.cmdset.V5CmdSet`), only when that system is configured.
"""

from evennia import CmdSet, default_cmds

from .building import CmdCreate, CmdDig, CmdName, CmdOpen
from .dice_base import dice_wing
from .help import CmdHelp
from .nospoof import CmdNospoof
from .ooc import CmdOOC, CmdUnpuppet
from .fairness import CmdDice
from .odds import CmdOdds
from .options import CmdOption
from .rolllog import CmdRolls
from .rolls import CmdCheck, CmdRoll
from .sheet import CmdApprove, CmdSheet, CmdStat
from .speech import CmdPage, CmdPose, CmdSay, CmdSetDesc, CmdWhisper
from .unloggedin import CmdUnconnectedCreate


class DiceCmdSet(CmdSet):
    """The Storyteller dice system: sheet, rolls and staff tools."""

    key = "DiceCmdSet"

    def at_cmdset_creation(self):
        for command in (
            CmdSheet, CmdStat, CmdApprove,  # the sheet
            CmdRoll, CmdCheck,  # rolls
            CmdOdds, CmdRolls,  # odds and the record
            CmdDice,  # +dice/fairness
        ):
            self.add(command())
        wing = dice_wing()
        if wing.cmdset is not None:
            self.add(wing.cmdset)


class CharacterCmdSet(default_cmds.CharacterCmdSet):
    """In-game commands of a puppeted character: Evennia's defaults plus the dice system."""

    key = "DefaultCharacter"

    def at_cmdset_creation(self):
        super().at_cmdset_creation()
        # Stock speech and descriptions, made unable to forge a system line (commands/speech.py).
        for command in (CmdSay, CmdPose, CmdWhisper, CmdSetDesc):
            self.add(command())
        for command in (CmdOOC, CmdUnpuppet, CmdHelp):  # ooc <text>; help (commands/help.py)
            self.add(command())
        for command in (CmdName, CmdCreate, CmdDig, CmdOpen):  # the name rule (commands/building.py)
            self.add(command())
        self.add(DiceCmdSet)


class AccountCmdSet(default_cmds.AccountCmdSet):
    """Commands available to the Account at all times."""

    key = "DefaultAccount"

    def at_cmdset_creation(self):
        super().at_cmdset_creation()
        self.add(CmdPage())  # commands/speech.py
        self.add(CmdNospoof())
        self.add(CmdHelp())  # a topic named exactly as typed first (commands/help.py)
        self.add(CmdOption())  # screen sizes held to their bounds (commands/options.py)


class UnloggedinCmdSet(default_cmds.UnloggedinCmdSet):
    """Commands available before logging in."""

    key = "DefaultUnloggedin"

    def at_cmdset_creation(self):
        super().at_cmdset_creation()
        self.add(CmdUnconnectedCreate())  # asks Y/N without showing the password (commands/unloggedin.py)


class SessionCmdSet(default_cmds.SessionCmdSet):
    """Commands available on the Session level once logged in."""

    key = "DefaultSession"

    def at_cmdset_creation(self):
        super().at_cmdset_creation()

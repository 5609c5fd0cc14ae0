"""
Command sets a host game adds to its own (README: "Add to an existing game"). The dice
commands are gathered in `DiceCmdSet`, merged into the host's character cmdset: the shared
ones (sheet, +roll, +check, +odds, +rolls) for every system, and the configured system's
wing's own (`commands/<key>/`, e.g. `commands.v5.cmdset.V5CmdSet`), only when that system is
configured. The rest is in sets of their own, so a host takes what it wants: `SpeechCmdSet`,
`BuildingCmdSet`, `HelpCmdSet`, `DiceAccountCmdSet`, `DiceUnloggedinCmdSet`.

`DiceCmdSet`'s commands are as `commands.keys` arranges them: renamed or left out by
`DICE_COMMAND_KEYS`, and a command (or alias) the host's own cmdsets already have left to the
host's. While `commands.keys` builds the host's cmdsets to read their names, every cmdset here
adds nothing (`keys.probing()`), so the host's names are the host's alone.
"""

from evennia import CmdSet

from . import keys
from .building import CmdCreate, CmdDig, CmdName, CmdOpen
# The classes of `DiceCmdSet`'s commands (commands/catalogue.py); named here too, as before.
from .catalogue import SHARED_COMMANDS, dice_command_classes  # noqa: F401
from .help import CmdHelp
from .nospoof import CmdNospoof
from .ooc import CmdOOC, CmdUnpuppet
from .options import CmdOption
from .speech import CmdPage, CmdPose, CmdSay, CmdSetDesc, CmdWhisper
from .unloggedin import CmdUnconnectedCreate, CmdUnconnectedEncoding


class DiceCmdSet(CmdSet):
    """The Storyteller dice system: sheet, rolls and staff tools."""

    key = "DiceCmdSet"

    def at_cmdset_creation(self):
        if keys.probing():
            return
        for command in keys.arranged(dice_command_classes()):
            self.add(command)


class SpeechCmdSet(CmdSet):
    """
    The stock speech commands made unable to forge a roll or system line (commands/speech.py),
    and `ooc <text>` (the stock `ooc`, leaving the character, is `unpuppet`). For a host's
    character cmdset, beside `DiceCmdSet`.
    """

    key = "SpeechCmdSet"

    def at_cmdset_creation(self):
        if keys.probing():
            return
        # Stock speech and descriptions, made unable to forge a system line (commands/speech.py).
        for command in (CmdSay, CmdPose, CmdWhisper, CmdSetDesc, CmdOOC, CmdUnpuppet):
            self.add(command())


class BuildingCmdSet(CmdSet):
    """
    The stock `@name`, `@create`, `@dig` and `@open`, holding every new name to the name rule
    (commands/building.py, typeclasses/names.py): for a host's character cmdset.
    """

    key = "DiceBuildingCmdSet"

    def at_cmdset_creation(self):
        if keys.probing():
            return
        for command in (CmdName, CmdCreate, CmdDig, CmdOpen):
            self.add(command())


class HelpCmdSet(CmdSet):
    """`help` that shows a topic named exactly as typed first (commands/help.py): `help dice`."""

    key = "DiceHelpCmdSet"

    def at_cmdset_creation(self):
        if keys.probing():
            return
        self.add(CmdHelp())


class DiceAccountCmdSet(CmdSet):
    """For a host's account cmdset: `page` (unable to forge a line), `+nospoof`, and `option`
    with the screen sizes held to their bounds."""

    key = "DiceAccountCmdSet"

    def at_cmdset_creation(self):
        if keys.probing():
            return
        self.add(CmdPage())
        self.add(CmdNospoof())
        self.add(CmdOption())  # screen sizes held to their bounds (commands/options.py)


class DiceUnloggedinCmdSet(CmdSet):
    """For a host's login screen: `create` asks Y/N without showing the password; `encoding`
    takes only a text encoding."""

    key = "DiceUnloggedinCmdSet"

    def at_cmdset_creation(self):
        if keys.probing():
            return
        self.add(CmdUnconnectedCreate())
        self.add(CmdUnconnectedEncoding())  # only a text encoding (commands/unloggedin.py)

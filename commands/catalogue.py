"""
The commands `DiceCmdSet` holds, as classes: the shared ones (`SHARED_COMMANDS`) and the
configured system's wing's (`dice_command_classes()`), and what `commands.keys` decides for
them in this game:

- `current_key(key)`: the key our command answers to in this game, or None (the web panel
  sends that, never "+roll" as written: with our +roll left out it offers no Roll and no
  Verify, which would reach the host's command).
- `collision_lines()`: one line per name the host's cmdsets and ours both have (the staff
  notice at login); `report_collisions()` logs them (the server start hook).

Apart from `commands.keys` (which imports no command, so that `keys.settings_problem()` runs
before Evennia is loaded) and from `commands.default_cmdsets` (the cmdsets, which import this).
"""

from evennia.utils import logger

from . import keys
from .dice_base import dice_wing
from .fairness import CmdDice
from .odds import CmdOdds
from .ooc import CmdOOC
from .rolllog import CmdRolls
from .rolls import CmdCheck, CmdRoll
from .sheet import CmdApprove, CmdSheet, CmdStat

_PACKAGE = __name__.split(".")[0]  # storyteller_dice

# The shared commands of `DiceCmdSet` (commands/keys.py's SHARED_KEYS writes out their names).
SHARED_COMMANDS = (
    CmdSheet, CmdStat, CmdApprove,  # the sheet
    CmdRoll, CmdCheck,  # rolls
    CmdOdds, CmdRolls,  # odds and the record
    CmdDice,  # +dice/fairness
    CmdOOC,  # `ooc <text>`; bare, Evennia's own leave-your-character (it extends the stock one)
)


def dice_command_classes():
    """The classes of `DiceCmdSet`'s commands as written: the shared ones, then the wing's."""
    wing = dice_wing()
    found = list(SHARED_COMMANDS)
    if wing.cmdset is not None:
        found += [type(command) for command in wing.cmdset().commands]
    return found


def our_commands():
    """The classes of `DiceCmdSet`'s commands in this game: the shared ones and the wing's."""
    return list(dice_command_classes())


def current_key(key):
    """The key our command `key` ("+roll") answers to in this game, or None (left out)."""
    wanted = str(key).lower()
    shared = [cls for cls in SHARED_COMMANDS if str(cls.key).lower() == wanted]
    for cls in shared or our_commands():
        if str(cls.key).lower() == wanted:
            return keys.decide(cls).key
    return None


def collision_lines():
    """One line per name the host and we both have (see the rulings in `commands.keys`); []
    when none."""
    lines = []
    for cls in our_commands():
        lines += keys.decide(cls).lines
    return lines


def report_collisions():
    """Log `collision_lines()` in the server log (the server start hook calls this)."""
    try:
        lines = collision_lines()
    except Exception:  # noqa: BLE001 - comparing names must never stop a start
        logger.log_trace(f"{_PACKAGE}: could not compare command names with the host's")
        return []
    for line in lines:
        logger.log_warn(line)
    return lines

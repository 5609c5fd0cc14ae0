"""
An unexpected error in a command is one line for the player and a full traceback in the log.

Evennia reports an error a command did not catch through `evennia.commands.cmdhandler._msg_err`:
with `IN_GAME_ERRORS` (Evennia's default) the player saw the whole traceback, file paths and
all; without it, three lines holding the exception's own message (which can carry data or a
path) and "Please file a bug report". Part of the opt-in bundle (`typeclasses.hardening`,
`DICE_HARDEN_GAME`): `install()` (from `hardening.at_server_init`) puts `report_error` in its
place for every command, stock Evennia ones and the login screen's included, and the bundle
turns `IN_GAME_ERRORS` off for the rest (command set errors).

**Ruling:** everyone, staff too, gets the same line, "Something went wrong; staff have been told
(error 3F9A2C).": the six-character reference is in the log beside the traceback, so staff
find it there and a player can quote it. The log also has who met it and (from Evennia) the
line they typed, with passwords masked.
"""

import secrets

from evennia.commands import cmdhandler
from evennia.utils import logger

MESSAGE = "Something went wrong; staff have been told (error {ref})."


def new_reference():
    """Six capital hex digits: enough to find one error in a day's log."""
    return secrets.token_hex(3).upper()


def report_error(receiver, stringtuple=None, cmdid=None):
    """
    Called inside the `except` of Evennia's command handler (as its `_msg_err`): log the
    traceback with a reference and tell `receiver` one line with that reference.
    """
    ref = new_reference()
    try:
        who = f"{receiver.key} (#{receiver.id})"
    except Exception:
        who = repr(receiver)
    logger.log_trace(f"error {ref}: an unexpected error in a command of {who}")
    receiver.msg(cmdhandler.err_helper(MESSAGE.format(ref=ref), cmdid=cmdid))
    return ref


def install():
    """Make `report_error` Evennia's reporter of untrapped command errors."""
    cmdhandler._msg_err = report_error

"""
What a host game's start hooks call (server/conf/at_server_startstop.py; README: "Add to an
existing game"). Evennia has no signal for a server start, so these are one line each there.

- `at_server_init()`: build the configured dice system once (`DICE_SYSTEM` and its settings
  such as `V5_BESTIAL_FAILURE`); an unknown key or a bad setting stops the start with a clear
  message in the log; with `DICE_HARDEN_GAME` on, the bundle's Server-side patches
  (`typeclasses.hardening.at_server_init`).
- `at_server_start()`: pending dice state (challenges, teamwork, the +willpower window) is
  kept in the database; the challenges that ran out while the server was down are expired,
  the others get their timers back, connected players are told what is still pending, and
  the notice on puppeting is connected before any session can puppet (the Character
  typeclass never imports from `commands/`). Stored names that break the name rule
  (typeclasses/names.py: made before it, or around it) are reported in the log, one line
  each, and to staff at their next login; they are not renamed (see the rulings there).
  The web client's dice panel gets its answers from `commands.panel`. The start log says what
  the bundle leaves unprotected (`typeclasses.hardening.at_server_start`).
"""

from evennia.utils import logger

from ..typeclasses import hardening, names, system
from . import panel, pending


def at_server_init():
    hardening.at_server_init()
    system.check_configured_system()


def at_server_start():
    panel.install()
    hardening.at_server_start()
    pending.connect_puppet_hook()
    pending.at_server_start()
    try:
        names.report_bad_names()
    except Exception:  # noqa: BLE001 - a report must never stop the game from starting
        logger.log_trace("the stored-name report")

"""
The package's server start hooks. `RollLogConfig.ready()` (rolllog/apps.py) appends this
module to the host's `AT_SERVER_STARTSTOP_MODULE`, so Evennia calls it after the host's own
hooks with no line in the host's `server/conf/at_server_startstop.py` (a host without that file,
or without its stock functions, is served the same). Evennia calls the functions a module has;
the others are left out.

- `at_server_init()`: build the configured dice system once (`DICE_SYSTEM` and its settings
  such as `V5_BESTIAL_FAILURE`; the app's start check has already refused a bad one, this
  builds it before the first command); the opt-in bundle's own start
  (`hardening.at_server_init`, nothing unless `DICE_HARDEN_GAME = True`).
- `at_server_start()`: pending dice state (challenges, teamwork, the +willpower window) is
  kept in the database; the challenges that ran out while the server was down are expired,
  the others get their timers back, connected players are told what is still pending, and
  the notice on puppeting is connected before any session can puppet (the Character
  typeclass never imports from `commands/`). The command keys the host's cmdsets and ours
  share are logged, one line each (`catalogue.report_collisions`), and stored names that break the
  name rule (typeclasses/names.py: made before it, or around it) are reported in the log, one
  line each; both are shown to staff at their next login (`staff_notice_lines`, through
  Evennia's login signal, so no Account class of ours is needed). Names are not renamed (see
  the rulings there). Limbo gets the dice text at the package's first start, over Evennia's
  stock text only (`welcome.describe_limbo_once`). The web client's dice panel gets its
  answers from `commands.panel`. A report never stops the game from starting.
"""

from evennia.server.signals import SIGNAL_ACCOUNT_POST_LOGIN
from evennia.utils import logger

from ..typeclasses import hardening, names, system, welcome
from . import catalogue, panel, pending_lifecycle

LOGIN_NOTICE = "storyteller_dice_staff_notice"


def at_server_init():
    hardening.at_server_init()
    system.check_configured_system()


def at_server_start():
    panel.install()
    pending_lifecycle.connect_puppet_hook()
    pending_lifecycle.at_server_start()
    SIGNAL_ACCOUNT_POST_LOGIN.connect(_on_login, dispatch_uid=LOGIN_NOTICE)
    for report, what in ((catalogue.report_collisions, "the command key report"),
                         (names.report_bad_names, "the stored-name report"),
                         (welcome.describe_limbo_once, "Limbo's first description"),
                         (hardening.at_server_start, "the bundle's start")):
        try:
            report()
        except Exception:  # noqa: BLE001 - a report must never stop the game from starting
            logger.log_trace(what)


def staff_notice_lines(account):
    """What a member of staff is told at login: the shared command keys (superusers) and the
    stored names that break the name rule (Admins)."""
    lines = []
    if account is not None and getattr(account, "is_superuser", False):
        lines += catalogue.collision_lines()
    notice = names.staff_notice(account)
    if notice:
        lines.append(notice)
    return lines


def _on_login(sender, session=None, **kwargs):
    try:
        for line in staff_notice_lines(sender):
            sender.msg(line, session=session)
    except Exception:  # noqa: BLE001 - a notice must never stop a login
        logger.log_trace("the staff notice at login")

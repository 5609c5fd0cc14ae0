"""
The opt-in bundle: `DICE_HARDEN_GAME = True` in the game's settings (default False) turns on
what protects the host's *whole* game rather than our dice. Everything here changes how
Evennia itself treats every player, and most of it replaces or wraps a private name of
Evennia's, so a game asks for it; the dice need none of it.

What the bundle turns on (each module's docstring says why and how):

- **The session class** (`SERVER_SESSION_CLASS`, `typeclasses.serversession`): the input
  filter (control, escape and bidi characters never reach a command, `typeclasses.inputfilter`),
  screen sizes bounded however they are set, one line's and one reply's size bounded, and each
  session's commands taking turns with everyone else's.
- **The session handler** (`SERVER_SESSION_HANDLER_CLASS`, `typeclasses.sessionhandler`): a
  screen reader's text stripped once, on the Server, for every message (stock Evennia's too),
  and the same message to many sessions sent to the Portal as one (`typeclasses.amp_batch`).
- **The Portal's session handler** (`PORTAL_SESSION_HANDLER_CLASS`, `typeclasses.portal_sessions`):
  what a player types while the Server is not up (first start, restart, a Server that died) is
  held by the Portal, bounded, and read once the Server is up, after the connection screen.
- **AMP framing** (`typeclasses.amp_framing`, in both processes) and the Portal's side of
  batching (`amp_batch.install_portal`): the bundle's plugin modules are appended to
  `SERVER_SERVICES_PLUGIN_MODULES` / `PORTAL_SERVICES_PLUGIN_MODULES`
  (`typeclasses.hardening_server`, `typeclasses.hardening_portal`), so the game's own plugin
  modules stay as they are.
- **Bounded client options** (`typeclasses.client_options`, appended to `INPUT_FUNC_MODULES`).
- **No traceback for a player** (`typeclasses.player_errors`, in place of
  `cmdhandler._msg_err`, and `IN_GAME_ERRORS = False`).
- **The account's name as text** on the staff channels' connect lines
  (`typeclasses.connect_channel`).
- **Durable before sending** (`typeclasses.durable`): with `SYNC_BEFORE_SENDING = True` (and the
  database set to commit without waiting for the disk, as this repository's game does), nothing
  reaches a player before what was written is on disk. Without the bundle the database commits
  as the game configured it: SQLite's and PostgreSQL's defaults wait for the disk at every
  commit, so a stored roll is durable before anyone is told of it either way, and
  `SYNC_BEFORE_SENDING` does nothing (a line at start says so when it is set).

What the dice need works without the bundle: a roll goes to each receiver by its own `msg()`
(`amp_batch` only when the bundle's session handler is the game's, `batched()` below), and our
lines reach a screen reader already stripped, as markup its Portal parses once
(`typeclasses.screenreader`), whichever session handler the game has.

**Rulings.**

- The session class and handler are set only where the game left Evennia's defaults
  (`evennia.settings_default`): a game that set its own keeps it, and the start log says, one
  line each, what is then not protected. A game's own class that is a subclass of ours is
  ours for this purpose (nothing is reported).
- Only `True` turns the bundle on; any other value is off, and `settings_problem()` names it (a
  string "False" must not turn on what changes every player's session).
- Settings are completed, never replaced: lists are appended to (as new lists, so Evennia's
  default lists stay as they are), and only once however often `complete_settings` runs.

docs/hardening.md is the page for a game's staff. The calls (from
`rolllog.apps.RollLogConfig.ready()` and `commands.hooks`):
`complete_settings(settings)`, `at_server_init()`, `at_server_start()`; and for the start-time
checks, `settings_problem()`.
"""

import contextlib
import functools

SETTING = "DICE_HARDEN_GAME"

_PACKAGE = "storyteller_dice.typeclasses"
SESSION_CLASS = f"{_PACKAGE}.serversession.ServerSession"
SESSION_HANDLER_CLASS = f"{_PACKAGE}.sessionhandler.ServerSessionHandler"
PORTAL_SESSION_HANDLER_CLASS = f"{_PACKAGE}.portal_sessions.PortalSessionHandler"
SERVER_PLUGIN = f"{_PACKAGE}.hardening_server"
PORTAL_PLUGIN = f"{_PACKAGE}.hardening_portal"
CLIENT_OPTIONS = f"{_PACKAGE}.client_options"

#: What a game's own class setting leaves unprotected, named in the start line.
NOT_PROTECTED = {
    "SERVER_SESSION_CLASS": (
        SESSION_CLASS,
        "the input filter (control and bidi characters in input), bounded screen sizes, the line "
        "and reply size bounds, commands taking turns",
    ),
    "SERVER_SESSION_HANDLER_CLASS": (
        SESSION_HANDLER_CLASS,
        "a screen reader's text stripped once for every message (the dice's own lines are "
        "stripped anyway), one AMP message for many sessions",
    ),
    "PORTAL_SESSION_HANDLER_CLASS": (
        PORTAL_SESSION_HANDLER_CLASS,
        "input typed while the Server is not up held and read once it is (else it is lost)",
    ),
}


def enabled(settings=None):
    """Whether the game asked for the bundle (`DICE_HARDEN_GAME = True`; anything else is off)."""
    if settings is None:
        from django.conf import settings
    return getattr(settings, SETTING, False) is True


def settings_problem(settings=None):
    """One line when `DICE_HARDEN_GAME` is set to something other than True or False, else None."""
    if settings is None:
        from django.conf import settings
    value = getattr(settings, SETTING, False)
    if isinstance(value, bool):
        return None
    return f"{SETTING} must be True or False, not {value!r}."


def _evennia_default(name):
    from evennia import settings_default

    return getattr(settings_default, name, None)


def _appended(settings, name, module):
    """`settings.<name>` (a str, list or tuple) as a new list ending in `module`, once."""
    current = getattr(settings, name, None)
    if current is None:
        current = []
    elif isinstance(current, str):
        current = [current]
    current = list(current)
    if module not in current:
        current.append(module)
    setattr(settings, name, current)


def complete_settings(settings):
    """
    Complete `settings` (Django's, in `ready()`) for the bundle; nothing unless
    `DICE_HARDEN_GAME` is true. Idempotent. Evennia reads every setting changed here after
    `django.setup()` (the Server's and the Portal's), so a change made in `ready()` is seen.
    """
    if not enabled(settings):
        return
    for name, (ours, _lost) in NOT_PROTECTED.items():
        if getattr(settings, name, None) == _evennia_default(name):
            setattr(settings, name, ours)
    _appended(settings, "SERVER_SERVICES_PLUGIN_MODULES", SERVER_PLUGIN)
    _appended(settings, "PORTAL_SERVICES_PLUGIN_MODULES", PORTAL_PLUGIN)
    _appended(settings, "INPUT_FUNC_MODULES", CLIENT_OPTIONS)
    settings.IN_GAME_ERRORS = False


@functools.lru_cache(maxsize=16)  # asked at every roll's sending: a game's class is loaded once
def _is_ours(path, ours):
    """Whether the class at `path` is ours or a subclass of it (False when it cannot be loaded)."""
    if path == ours:
        return True
    try:
        from evennia.utils.utils import class_from_module

        return issubclass(class_from_module(path), class_from_module(ours))
    except Exception:  # noqa: BLE001 - the game's own class failing to load is Evennia's to report
        return False


def start_lines(settings=None):
    """
    The start log's lines: one per protection that is off because the game set its own class
    (with the bundle on), and one when `SYNC_BEFORE_SENDING` is set without the bundle.
    """
    if settings is None:
        from django.conf import settings
    lines = []
    if not enabled(settings):
        if getattr(settings, "SYNC_BEFORE_SENDING", False):
            lines.append(f"storyteller_dice: SYNC_BEFORE_SENDING does nothing without {SETTING} = True: "
                         "the database's commits are as durable as its own settings make them.")
        return lines
    for name, (ours, lost) in NOT_PROTECTED.items():
        path = getattr(settings, name, None)
        if not _is_ours(path, ours):
            lines.append(f"storyteller_dice: {SETTING} is on, but {name} is the game's own ({path}); "
                         f"not protected: {lost}.")
    return lines


def handler_is_ours(settings=None):
    """Whether the bundle's session handler (or a subclass) is the game's: messages can be held."""
    if settings is None:
        from django.conf import settings
    return enabled(settings) and _is_ours(getattr(settings, "SERVER_SESSION_HANDLER_CLASS", None),
                                          SESSION_HANDLER_CLASS)


def batched():
    """
    A context in which the same message to many sessions goes to the Portal as one
    (`amp_batch.batched`), with the bundle's session handler; else one that does nothing, each
    receiver's `msg()` sending as Evennia does.
    """
    if not handler_is_ours():
        return contextlib.nullcontext()
    from . import amp_batch

    return amp_batch.batched()


def at_server_init():
    """In the Server, first of the start hooks: the Server-side patches, when the bundle is on."""
    if not enabled():
        return
    from . import connect_channel, durable, player_errors

    player_errors.install()
    connect_channel.install()
    durable.install()


def at_server_start():
    """In the Server, once started: the start log's lines (`start_lines`)."""
    from evennia.utils import logger

    for line in start_lines():
        logger.log_warn(line)

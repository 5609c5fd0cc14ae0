"""
Server startstop hooks

This module contains functions called by Evennia at various
points during its startup, reload and shutdown sequence. It
allows for customizing the server operation as desired.

This module must contain at least these global functions:

at_server_init()
at_server_start()
at_server_stop()
at_server_reload_start()
at_server_reload_stop()
at_server_cold_start()
at_server_cold_stop()

"""


def at_server_init():
    """
    This is called first as the server is starting up, regardless of how.

    The dice system (`DICE_SYSTEM`, and its settings such as `V5_BESTIAL_FAILURE`) is built
    here once: an unknown key or a bad setting stops the start with a clear message in the log.
    An unexpected error in a command is one line for the player from here on
    (`typeclasses.player_errors`).
    """
    from storyteller_dice.typeclasses import player_errors
    from storyteller_dice.typeclasses.system import check_configured_system

    player_errors.install()

    check_configured_system()


def at_server_start():
    """
    This is called every time the server starts up, regardless of
    how it was shut down.

    Pending dice state (challenges, teamwork, the +willpower window) is kept in the database;
    here the challenges that ran out while the server was down are expired, the others get
    their timers back, and connected players are told what is still pending for them. The
    notice on puppeting (what is pending, what expired while away) is connected here too,
    before any session can puppet: the Character typeclass never imports from `commands/`.

    Stored names that break the name rule (typeclasses/names.py: made before it, or around
    it) are reported in the log, one line each, and to staff at their next login; they are
    not renamed (see the rulings there).
    """
    from storyteller_dice.commands import pending
    from storyteller_dice.typeclasses.names import report_bad_names

    pending.connect_puppet_hook()
    pending.at_server_start()
    try:
        report_bad_names()
    except Exception:  # noqa: BLE001 - a report must never stop the game from starting
        from evennia.utils import logger

        logger.log_trace("the stored-name report")


def at_server_stop():
    """
    This is called just before the server is shut down, regardless
    of it is for a reload, reset or shutdown.
    """
    pass


def at_server_reload_start():
    """
    This is called only when server starts back up after a reload.
    """
    pass


def at_server_reload_stop():
    """
    This is called only time the server stops before a reload.
    """
    pass


def at_server_cold_start():
    """
    This is called only when the server starts "cold", i.e. after a
    shutdown or a reset.
    """
    pass


def at_server_cold_stop():
    """
    This is called only when the server goes down due to a shutdown or
    reset.
    """
    pass

"""
The opt-in bundle (`DICE_HARDEN_GAME = True`): what protects the host's whole game rather than
our dice.
"""

# stub: replaced by the keys/bundle/traits work

_DEFAULT_SESSION = "evennia.server.serversession.ServerSession"
_DEFAULT_HANDLER = "evennia.server.sessionhandler.ServerSessionHandler"


def _on(settings):
    return bool(getattr(settings, "DICE_HARDEN_GAME", False))


def complete_settings(settings):
    """From `RollLogConfig.ready()`: the bundle's settings (nothing unless the setting is on)."""
    if not _on(settings):
        return
    if settings.SERVER_SESSION_CLASS == _DEFAULT_SESSION:
        settings.SERVER_SESSION_CLASS = "storyteller_dice.typeclasses.serversession.ServerSession"
    if settings.SERVER_SESSION_HANDLER_CLASS == _DEFAULT_HANDLER:
        settings.SERVER_SESSION_HANDLER_CLASS = "storyteller_dice.typeclasses.sessionhandler.ServerSessionHandler"
    settings.IN_GAME_ERRORS = False


def at_server_init():
    from django.conf import settings

    if _on(settings):
        from . import player_errors

        player_errors.install()


def at_server_start():
    return None

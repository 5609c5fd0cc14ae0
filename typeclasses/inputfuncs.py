"""
The web client's dice panel's input function (loaded through `settings.INPUT_FUNC_MODULES`;
every public function defined here is an inputfunc: `name(session, *args, **kwargs)`).

Bounding the client's options (Evennia's `client_options` and `webclient_options`) is the
opt-in bundle's (`typeclasses.client_options`, `DICE_HARDEN_GAME`): it replaces Evennia's own
functions for every player, where this module adds one of ours.
"""

from storyteller_dice.typeclasses import panel


def dice_panel(session, *args, **kwargs):
    """The web client's dice panel asking (`typeclasses.panel.receive`): hello, odds, actions."""
    panel.receive(session, {key: value for key, value in kwargs.items() if key != "cmdid"})

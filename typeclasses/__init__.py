"""
The package's typeclass parts, mixed into a host game's own typeclasses:

- `DiceCharacterMixin` (`typeclasses.characters`): the character sheet;
- `DiceAccountMixin` (`typeclasses.accounts`): +nospoof on pages;
- `DiceChannelMixin` (`typeclasses.channels`): channel messages follow the speech rules;
- `DiceObjectMixin` (`typeclasses.names`): every object's name shown as text (the host's
  `ObjectParent`).

They are loaded on first use (`from storyteller_dice.typeclasses import DiceCharacterMixin`),
so importing this package needs no Django set-up.
"""

import importlib

_PUBLIC = {
    "DiceCharacterMixin": "characters",
    "DiceAccountMixin": "accounts",
    "DiceChannelMixin": "channels",
    "DiceObjectMixin": "names",
}


def __getattr__(name):
    if name in _PUBLIC:
        return getattr(importlib.import_module(f"{__name__}.{_PUBLIC[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = sorted(_PUBLIC)

"""
The dice commands, each system's own in its wing (`commands/<system>/`).

Public names (loaded on first use, so importing this package needs no Evennia set-up):
`DiceCmdSet`, `SpeechCmdSet`, `BuildingCmdSet`, `HelpCmdSet`, `DiceAccountCmdSet`,
`DiceUnloggedinCmdSet`
(commands/default_cmdsets.py) and `hooks` (the server start hooks).
"""

import importlib

_PUBLIC = ("DiceCmdSet", "SpeechCmdSet", "BuildingCmdSet", "HelpCmdSet", "DiceAccountCmdSet",
           "DiceUnloggedinCmdSet")


def __getattr__(name):
    if name in _PUBLIC:
        return getattr(importlib.import_module(f"{__name__}.default_cmdsets"), name)
    if name == "hooks":
        return importlib.import_module(f"{__name__}.hooks")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [*_PUBLIC, "hooks"]

"""
Storyteller Dice for Evennia, as one installable package.

Public names (kept stable; see README.md, "Add to an existing game"):

- `storyteller_dice.rules`: the pure rules of every system (standard library only: importable
  with no Django or Evennia set-up);
- `storyteller_dice.commands.DiceCmdSet` (every dice command of the configured system),
  `storyteller_dice.commands.SpeechCmdSet` (say, pose, whisper and `ooc <text>`, made unable to
  forge a roll line), `storyteller_dice.commands.DiceAccountCmdSet` (page and +nospoof) and
  `storyteller_dice.commands.hooks` (the server start hooks);
- `storyteller_dice.typeclasses.DiceCharacterMixin` (and `DiceAccountMixin`,
  `DiceChannelMixin`), mixed into a host's own typeclasses;
- the Django app `"storyteller_dice.rolllog"` (app label `rolllog`) and its URLconf
  `storyteller_dice.rolllog.urls`.

The repository's folders `rules/`, `commands/`, `typeclasses/` and `rolllog/` are the
subpackages (setup.py maps them). Importing this package imports nothing else, so
`import storyteller_dice.rules` needs neither Django nor Evennia.
"""

import os as _os

__version__ = "0.1.0"


def _checkout_root():
    """The repository root when this is a checkout's `storyteller_dice/` (not an installed copy)."""
    here = _os.path.dirname(_os.path.abspath(__file__))
    root = _os.path.dirname(here)
    if _os.path.isfile(_os.path.join(here, "rules", "__init__.py")):
        return None  # an installed package: the subpackages are inside it
    markers = ("pyproject.toml", _os.path.join("rules", "__init__.py"), _os.path.join("commands", "__init__.py"))
    return root if all(_os.path.exists(_os.path.join(root, m)) for m in markers) else None


# From a checkout the subpackages are the sibling folders: an editable install finds them
# through its own finder, and this makes a bare checkout on sys.path do the same.
_ROOT = _checkout_root()
if _ROOT is not None and _ROOT not in __path__:
    __path__.append(_ROOT)

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
subpackages (pyproject.toml's `[tool.setuptools]` maps them). Importing this package imports nothing else, so
`import storyteller_dice.rules` needs neither Django nor Evennia.
"""

__version__ = "1.0.0"

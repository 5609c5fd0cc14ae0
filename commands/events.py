"""
What the commands tell whoever listens, without knowing who listens: one Django signal per
event, so the module that makes the event (`commands.dice_base`) imports none of its listeners
and no listener needs to be imported before it (this module imports nothing of `commands/`).

- `ROLL_SHOWN`: a roll was just shown (`dice_base.announce`), sent with `receivers`, the
  `dice_base.Announced` list (its `entry` is the stored roll, or None when nothing was
  recorded). The web client's dice panel listens (`commands.panel`: their panels list it).
"""

from django.dispatch import Signal

ROLL_SHOWN = Signal()


def roll_shown(receivers):
    """Tell every listener that a roll was shown to `receivers` (a listener's error is raised,
    as a call would raise it: the roll is stored and sent by then)."""
    ROLL_SHOWN.send(sender=None, receivers=receivers)

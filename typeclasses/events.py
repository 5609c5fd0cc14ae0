"""
What a character's stored state tells whoever listens once a change is saved, without knowing
who listens (the writers import none of their listeners). One Django signal each:

- `SHEET_CHANGED`, sent with `character` and `what` ("values", "specialties", "approved" or
  "flags"): every write of `DiceCharacterMixin`'s sheet, whoever made it (the player, staff
  from telnet, a roll spending Willpower).
- `PENDING_CHANGED`, sent with `obj` and `key`: a value of `commands.pending` kept or emptied
  on `obj` (a contest's challenge, on both characters; a roll kept for a reroll).

The web client's dice panel listens (`typeclasses.panel`, `commands.panel`): that character's
panels, and only theirs, are sent the sheet, or what the game offers them now.
"""

from django.dispatch import Signal
from evennia.utils import logger

SHEET_CHANGED = Signal()
PENDING_CHANGED = Signal()


def sheet_changed(character, what):
    """Tell every listener that `character`'s sheet changed (`what` changed)."""
    _send(SHEET_CHANGED, f"sheet change of {character} ({what})", {"character": character, "what": what})


def pending_changed(obj, key):
    """Tell every listener that the pending value `key` of `obj` was kept or emptied."""
    _send(PENDING_CHANGED, f"pending {key} of {obj}", {"obj": obj, "key": key})


def _send(signal, event, kwargs):
    """A listener's error is logged, never raised: the change is saved and the player told by
    then, and a listener (a web page's panel) must never stop a command."""
    for receiver, answer in signal.send_robust(sender=None, **kwargs):
        if isinstance(answer, Exception):
            logger.log_err(f"{event}: {receiver} failed: {answer!r}")

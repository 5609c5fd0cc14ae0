"""
What a character's sheet tells whoever listens once a change is saved, without knowing who
listens (the sheet's typeclass imports none of its listeners): `SHEET_CHANGED`, one Django
signal, sent with `character` and `what` ("values", "specialties", "approved" or "flags").
Every write of `DiceCharacterMixin` sends it, whoever made the change (the player, staff from
telnet, a roll spending Willpower). The web client's dice panel listens (`typeclasses.panel`:
the sheet and its trackers go to that character's panels, and only to theirs).
"""

from django.dispatch import Signal
from evennia.utils import logger

SHEET_CHANGED = Signal()


def sheet_changed(character, what):
    """Tell every listener that `character`'s sheet changed (`what` changed). A listener's
    error is logged, never raised: the change is saved and the player told by then."""
    for receiver, answer in SHEET_CHANGED.send_robust(sender=None, character=character, what=what):
        if isinstance(answer, Exception):
            logger.log_err(f"sheet change of {character} ({what}): {receiver} failed: {answer!r}")

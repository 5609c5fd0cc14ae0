"""
V5's words for a character, read through the shared sheet: Hunger, Willpower left, frenzy.

The shared typeclass (`typeclasses.characters.Character`) stores sheet values and knows no
system; what V5 derives from them (`V5Sheet.state`) is read here from `character.roller()`.
"""

from ..dice_base import has_sheet  # noqa: F401 - the wing's commands import it from here

FRENZY = "frenzy"  # the sheet flag (typeclasses.characters.SHEET) a failed frenzy test sets


def hunger(character):
    return character.roller().state.get("hunger", 0)


def willpower_left(character):
    return character.willpower_left()


def spend_willpower(character, amount=1):
    """Mark Superficial Willpower damage through the sheet's one way to spend it
    (`DiceCharacterMixin.spend_willpower`); refused when Willpower is exhausted."""
    character.spend_willpower(amount)


def in_frenzy(character):
    """Set by a failed frenzy test, cleared with +frenzy/end."""
    return character.flag(FRENZY)


def set_frenzy(character, value):
    character.set_flag(FRENZY, value)

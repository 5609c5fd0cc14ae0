"""
V5's words for a character, read through the shared sheet: Hunger, Willpower left, frenzy.

The shared typeclass (`typeclasses.characters.Character`) stores sheet values and knows no
system; what V5 derives from them (`V5Sheet.state`) is read here from `character.roller()`.
"""

from storyteller_dice.rules.errors import DiceError

FRENZY = "frenzy"  # the Attribute (category "sheet") a failed frenzy test sets


def has_sheet(obj):
    return hasattr(obj, "roller") and hasattr(obj, "set_trait")


def state(character):
    return character.roller().state


def hunger(character):
    return state(character).get("hunger", 0)


def willpower_left(character):
    return state(character).get("willpower_left", 0)


def spend_willpower(character, amount=1):
    """Mark Superficial Willpower damage; refused when Willpower is exhausted."""
    if willpower_left(character) < amount:
        raise DiceError("Your Willpower is exhausted: there is no Willpower left to spend.")
    return character.set_trait("willpower superficial", character.trait("willpower superficial") + amount)


def in_frenzy(character):
    """Set by a failed frenzy test, cleared with +frenzy/end."""
    return character.flag(FRENZY)


def set_frenzy(character, value):
    character.set_flag(FRENZY, value)

"""
V5's words for a character, read through the shared sheet (Hunger, frenzy), and who a V5 test
(+rouse, +remorse, +frenzy) is made for: the caller, or (staff) someone else.

The shared typeclass (`typeclasses.characters.Character`) stores sheet values and knows no
system; what V5 derives from them (`V5Sheet.state`) is read here from `character.roller()`.
"""

from storyteller_dice.rules.display import escape
from storyteller_dice.rules.errors import DiceError

from ..dice_base import announce, named_or_self, tell_subject
from ..last_roll import NotRerollable, remember_roll

FRENZY = "frenzy"  # the sheet flag (typeclasses.characters.SHEET) a failed frenzy test sets


def hunger(character):
    return character.roller().state.get("hunger", 0)


def in_frenzy(character):
    """Set by a failed frenzy test, cleared with +frenzy/end."""
    return character.flag(FRENZY)


def set_frenzy(character, value):
    character.set_flag(FRENZY, value)


def who_makes(actor, subject, what):
    """`Anna makes a Rouse check`, or staff's `Anna has Bob make a Rouse check` (escaped)."""
    if subject == actor:
        return f"{escape(actor.key)} makes {what}"
    return f"{escape(actor.key)} has {escape(subject.key)} make {what}"


def subject_with_sheet(caller, name, what, yourself):
    """The caller, or (staff only) the character `name` finds, with a sheet to roll `what` on;
    `yourself` is the refusal when the caller has none."""
    target = named_or_self(caller, name, f"Only staff make {what} for someone else.")
    if not hasattr(target, "set_trait"):
        raise DiceError(f"{escape(target.key)} has no character sheet." if target != caller else yourself)
    return target


def announce_test(actor, subject, text, record, reason):
    """Store and show a test made for `subject` (told even elsewhere); a test of the actor's
    own is their last roll, one +willpower refuses with `reason`."""
    if subject != actor:
        record["subject"] = subject
    tell_subject(actor, subject, text, announce(actor, text, record=record))
    if subject == actor:
        remember_roll(actor, NotRerollable(reason))

"""
Who a V5 test is made for: the caller, or (staff) someone else, as +rouse, +remorse and
+frenzy read it and say it.
"""

from storyteller_dice.rules.display import escape
from storyteller_dice.rules.errors import DiceError

from ..dice_base import named_or_self
from .willpower import NotRerollable, remember_roll


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


def not_rerollable(actor, subject, reason):
    """A test of the caller's own is their last roll, one +willpower refuses with `reason`."""
    if subject == actor:
        remember_roll(actor, NotRerollable(reason))

"""
The V5 roll helpers the wing's commands share: the `hunger <n>` ending of a contest's or the
odds' side (the extended rolls are the shared `commands.extended`, with V5's rules in
`rules.v5.extended`; the roll an extended roll's reroll corrects is `commands.last_roll`'s).
"""

import dataclasses
import re

from storyteller_dice.rules import v5
from storyteller_dice.rules.errors import DiceError

from ..dice_base import whole_number

_HUNGER = re.compile(r"^(?P<pool>.*?)\s*\bhunger\s+(?P<value>\S+)\s*$", re.IGNORECASE | re.DOTALL)


def split_hunger(text):
    """`6 vs 2 hunger 2` -> ("6 vs 2", 2); `6` -> ("6", None). The Hunger goes last."""
    found = _HUNGER.match(text.strip())
    if not found:
        return text.strip(), None
    value = whole_number(found.group("value"), f"Hunger must be a whole number from 0 to {v5.MAX_HUNGER}",
                         v5.check_hunger)
    pool = found.group("pool").strip()
    if not pool:
        raise DiceError("Say how many dice before 'hunger'.")
    return pool, value


def at_hunger(text, roller):
    """(`text` without its `hunger <n>` ending, `roller` at that Hunger when one was given)."""
    text, level = split_hunger(text)
    return text, roller if level is None else dataclasses.replace(roller, state={**roller.state, "hunger": level})

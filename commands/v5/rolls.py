"""
The V5 wing's part of the shared +roll/+check (plugged in by `commands.v5.wing`) and the V5
roll helpers its other commands share: the `<pool> [vs <difficulty>][/willpower]` split, the
`hunger <n>` ending, the bestial failure rule, the dice the `/willpower` ending rerolls, and
the +willpower window of an extended roll's latest roll (the extended rolls themselves are
the shared `commands.extended`, with V5's rules in `rules.v5.extended`).
"""

import re

from django.conf import settings

from storyteller_dice.rules import extended as rules_extended
from storyteller_dice.rules import v5
from storyteller_dice.rules.display import format_pool
from storyteller_dice.rules.errors import DiceError

from .. import extended
from ..dice_base import dice_system, split_comment, whole_number
from .willpower import LastRoll, remember_roll

_WILLPOWER_SUFFIX = re.compile(r"/\s*(?:willpower|wp)\s*$", re.IGNORECASE)
_VS = re.compile(r"^(?P<pool>.*?)\s+vs\.?\s+(?P<difficulty>\S.*)$", re.IGNORECASE | re.DOTALL)
_VS_ONLY = re.compile(r"^vs\.?\s+", re.IGNORECASE)
_HUNGER = re.compile(r"^(?P<pool>.*?)\s*\bhunger\s+(?P<value>\S+)\s*$", re.IGNORECASE | re.DOTALL)


def bestial_rule():
    return getattr(settings, "V5_BESTIAL_FAILURE", "official")


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


def split_roll_args(text):
    """
    Split `<pool> [vs <difficulty>][/willpower] [# comment]`.

    Returns:
        (pool text, difficulty or None, willpower flag, comment)
    """
    text, comment = split_comment(text)
    willpower = False
    suffix = _WILLPOWER_SUFFIX.search(text)
    if suffix:
        willpower = True
        text = text[: suffix.start()].strip()
    difficulty = None
    match = _VS.match(text)
    if match:
        text = match.group("pool").strip()
        difficulty = whole_number(match.group("difficulty"), "The difficulty must be a whole number of successes",
                                  v5.check_difficulty)
    elif _VS_ONLY.match(text):
        raise DiceError("Say what to roll before 'vs'.")
    return text, difficulty, willpower, comment


def willpower_picks(result, accumulating=False):
    """
    The dice the rules' `/willpower` ending rerolls (the `failures` choice), and why none when
    none: only when the roll did not win (`rules.v5.willpower_ending`; docs/v5.md, 'Rulings').
    """
    if accumulating:
        # An extended roll's step adds its successes to a total: "it already wins" (at
        # difficulty 1) is no reason to keep it, so the failures are rerolled all the same.
        picks = v5.choose_failures(result)
        return picks, "" if picks else v5.ENDING_NO_FAILURES
    decision = v5.willpower_ending(result)
    return (decision.indexes if decision.reroll else ()), decision.reason


class ExtendedLastRoll(LastRoll):
    """The latest roll of an extended roll (`commands.extended`): a Willpower reroll corrects the total."""

    judged_alone = False

    def __init__(self, caller, run, number, **kwargs):
        super().__init__(**kwargs)
        self.caller = caller
        self.run = run
        self.number = number

    def check(self):
        state = extended.load(self.caller)
        if state is None or state.run != self.run or state.rolls != self.number:
            raise DiceError("That extended roll was stopped or rolled again; its last roll can no longer be rerolled.")

    def apply(self, new):
        rules = dice_system().extended
        step = rules.step(new)
        state = rules_extended.correct_last(extended.load(self.caller), step)
        extended.save(self.caller, state)
        self.result = new
        return [extended.progress_line(state, rules, step)]


def remember_extended(cmd, state, result, view, record, receivers):
    """The extended roll's latest roll, for a later +willpower (in the roll's own commit)."""
    remember_roll(cmd.caller, ExtendedLastRoll(
        cmd.caller, state.run, state.rolls, result=result, summary=f"extended roll {state.rolls} of {format_pool(view)}",
        difficulty_given=False, private=state.private, record=record, entry=receivers.entry, receivers=receivers))

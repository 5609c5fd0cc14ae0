"""
The V5 wing's part of the shared +roll/+check (plugged in by `commands.v5.wing`) and the V5
roll helpers its other commands share: the `<pool> [vs <difficulty>][/willpower]` split, the
`hunger <n>` ending, the bestial failure rule, the `/willpower` ending's at-once reroll, and
extended rolls (`/extended`, `/status`, `/stop`: see `extended_roll`).
"""

import re
import time

from django.conf import settings

from storyteller_dice.rules import v5, v5_extended
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import build_pool
from storyteller_dice.rules.randomness import get_rng

from ..dice_base import announce, split_comment, whole_number, width_of
from ..rolls import named_audience, private_to, split_shared
from .character import hunger, spend_willpower, willpower_left
from .display import BADGE, escape, fit, fitted, format_pool, format_reroll, format_roll
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


def willpower_at_once(caller, result, rng, difficulty_given, accumulating=False):
    """
    The rules' `/willpower` ending: reroll the `failures` choice right after the roll, only
    when the roll did not win (`rules.v5.willpower_ending`; docs/v5.md, 'Rulings').

    Returns:
        (the roll before, or None when nothing was rerolled; the roll now; the line to show)
    """
    if accumulating:
        # An extended roll's step adds its successes to a total: "it already wins" (at
        # difficulty 1) is no reason to keep it, so the failures are rerolled all the same.
        picks = v5.choose_failures(result)
        if not picks:
            return None, result, f"  |wWillpower|n: {v5.ENDING_NO_FAILURES}"
    else:
        decision = v5.willpower_ending(result)
        if not decision.reroll:
            return None, result, f"  |wWillpower|n: {decision.reason}"
        picks = decision.indexes
    spend_willpower(caller)
    rerolled = v5.reroll(result, picks, rng=rng)
    return result, rerolled, format_reroll(result, rerolled, "failures", difficulty_given)


# ---------------------------------------------------------------- extended rolls (docs/v5.md)

EXTENDED_SWITCHES = frozenset(("extended", "status", "stop"))
EXTENDED_KEY = "extended_roll"
DICE_CATEGORY = "dice"


def stored_extended(caller):
    """(ExtendedState, stored dict) of the caller's extended roll, or (None, None)."""
    data = caller.attributes.get(EXTENDED_KEY, category=DICE_CATEGORY)
    if not data:
        return None, None
    data = dict(data)
    return v5_extended.ExtendedState.from_dict(dict(data.get("state") or {})), data


def save_extended(caller, state, data):
    data = dict(data)
    data["state"] = state.to_dict()
    caller.attributes.add(EXTENDED_KEY, data, category=DICE_CATEGORY)
    return data


def extended_progress(state, result=None):
    """`  Extended: 7/10 after 2 rolls.` (with the bestial failure note for this roll)."""
    rolls = f"{state.rolls} roll{'s' if state.rolls != 1 else ''}"
    text = f"  |wExtended|n: {state.total}/{state.target} after {rolls}"
    if state.complete:
        text += ": |gcomplete|n"
    if result is not None and result.bestial_failure:
        text += f" ({BADGE}bestial failure|n on this roll: the total is kept)"
    return text + "."


def describe_extended(state):
    rolls = f"{state.rolls} roll{'s' if state.rolls != 1 else ''}"
    done = ", complete" if state.complete else ""
    return f"{escape(state.pool)} toward {state.target}: {state.total}/{state.target} after {rolls}{done}"


class ExtendedLastRoll(LastRoll):
    """The latest roll of an extended roll: a Willpower reroll corrects the total."""

    judged_alone = False

    def __init__(self, caller, run, number, **kwargs):
        super().__init__(**kwargs)
        self.caller = caller
        self.run = run
        self.number = number

    def check(self):
        state, data = stored_extended(self.caller)
        if state is None or data.get("run") != self.run or state.rolls != self.number:
            raise DiceError("That extended roll was stopped or rolled again; its last roll can no longer be rerolled.")

    def apply(self, new):
        state, data = stored_extended(self.caller)
        state = v5_extended.correct_last_roll(state, self.result, new)
        save_extended(self.caller, state, data)
        self.result = new
        return [extended_progress(state, new)]


def extended_roll(cmd):
    """
    `+roll/extended <pool> vs <target>` starts an extended roll and makes its first roll;
    `+roll/extended` rolls again (the same pool, read from your sheet now, with your Hunger
    now); `/status` shows it; `/stop` drops it. The state lives in a database Attribute on
    the character (category "dice"), so it survives a restart.

    **Ruling**: started /private, every roll of it is private; `=<name>, ...` shows a roll to
    those named, as with any +roll/private, and is said again on each roll
    (`+roll/extended =Bob`): someone shown the first roll may have left since, and nobody is
    shown a roll they were not named for.
    """
    caller = cmd.caller
    switches = set(cmd.switches)
    try:
        state, data = stored_extended(caller)
    except DiceError:
        if switches != {"stop"} or cmd.args.strip():
            raise
        # The refusal says "stop it and start again": a damaged state must still be dropped.
        caller.attributes.remove(EXTENDED_KEY, category=DICE_CATEGORY)
        caller.msg("You stop your damaged extended roll.")
        return
    if "status" in switches or "stop" in switches:
        if "status" in switches and "stop" in switches:
            raise DiceError("Use /status or /stop, not both.")
        if "willpower" in switches or "private" in switches:
            raise DiceError("/status and /stop take no other switch.")
        if cmd.args.strip():
            raise DiceError("/status and /stop take nothing after them.")
        if state is None:
            raise DiceError("You have no extended roll.")
        if "stop" in switches:
            caller.attributes.remove(EXTENDED_KEY, category=DICE_CATEGORY)
            caller.msg(fit(f"You stop your extended roll of {describe_extended(state)}.", width_of(caller)))
        else:
            caller.msg(fit(f"Your extended roll: {describe_extended(state)}.", width_of(caller)))
        return

    args, names = split_shared(cmd.args)
    text, target, willpower, comment = split_roll_args(args)
    willpower = willpower or "willpower" in switches
    if text:
        if target is None:
            raise DiceError("Say the total to reach: +roll/extended <pool> vs <target>.")
        if state is not None and not state.complete:
            raise DiceError(f"You already have an extended roll going ({describe_extended(state)}); "
                            "roll it with /extended or drop it with /stop.")
        state = v5_extended.start(text, target)
        data = {"private": "private" in switches, "numbers_only": cmd.numbers_only,
                "run": f"{caller.id}-{time.time():.6f}"}
        title = "starts an extended roll toward"
    else:
        if target is not None:
            raise DiceError("Say what to roll before 'vs'.")
        if state is None:
            raise DiceError("You have no extended roll going: start one with +roll/extended <pool> vs <target>.")
        if state.complete:
            raise DiceError(f"Your extended roll is complete ({state.total}/{state.target}); "
                            "start a new one with +roll/extended <pool> vs <target>.")
        if "private" in switches and not data.get("private"):
            raise DiceError("This extended roll is public; /private only applies when starting one.")
        title = "continues an extended roll toward"
    private = bool(data.get("private"))
    shared = named_audience(caller, names, private, f"{cmd.key}/extended")
    table = None if data.get("numbers_only") else caller.trait_table()
    pool = build_pool(state.pool, table)
    if willpower and willpower_left(caller) < 1:
        raise DiceError("Your Willpower is exhausted: you cannot reroll with Willpower.")

    rng = get_rng()
    result = v5_extended.roll(pool.dice, hunger(caller), rng=rng, bestial_rule=bestial_rule())
    title = f"{title} {state.target} (roll {state.rolls + 1}):"
    lines = [format_roll(caller.key, pool, result, False, comment, private_to=private_to(caller, private, shared),
                         title=title)]
    initial = None
    if willpower:
        initial, result, line = willpower_at_once(caller, result, rng, False, accumulating=True)
        lines.append(line)
    state = v5_extended.add_roll(state, result)
    data = save_extended(caller, state, data)
    lines.append(extended_progress(state, result))
    record = {
        "kind": "extended",
        "command": cmd.raw_string.strip(),
        "pool": pool,
        "result": result,
        "initial": initial,
        "difficulty_given": False,
        "comment": comment,
        "details": {"target": state.target, "total": state.total, "roll": state.rolls,
                    "complete": state.complete},
    }
    summary = f"extended roll {state.rolls} of " + format_pool(pool, result.pool, result.hunger_level, 1, False)

    def keep(receivers):  # the +willpower window, in the roll's own commit
        remember_roll(caller, ExtendedLastRoll(
            caller, data["run"], state.rolls, result=result, summary=summary, difficulty_given=False, private=private,
            record=record, entry=receivers.entry, receivers=receivers))

    announce(caller, fitted("\n".join(lines)), private=private, shared_with=shared, record=record, keep=keep)



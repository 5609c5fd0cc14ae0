"""
Extended rolls (`+roll/extended`, `/status`, `/stop`, and the same on +check), one flow for
every system whose `System.extended` holds its rules (`rules.extended.ExtendedRules`):

- `+roll/extended <pool> <word> <total>` starts one and makes its first roll (`<word>` is the
  system's: `vs`, or V20's `for`); `+roll/extended` rolls it again: the same pool, read from
  the sheet as it is now; an ending typed after it (`+roll/extended /willpower`) or a switch
  goes with that roll only. `/status` shows it, `/stop` drops it.
- The state (`rules.extended.ExtendedRoll`) is pending state on the character
  (`commands.pending`), so it survives a restart; it is written in the roll's own commit.
- The system rolls, judges and draws each roll as any +roll (`parse`, `roll`, `view`), then its
  rules say what the roll adds (`ExtendedRules.step`); the wing may change the roll right after
  it is made (`Wing.after_roll`: V5's `/willpower`), keep state with it (`extended_keep`,
  where it offers it: `commands.wing_features.ExtendedKeeper`) and pay for it
  (`Wing.extended_rolled`).

**Rulings**: started /private, every roll of it is private; `=<name>, ...` shows a roll to those
named, as with any +roll/private, and is said again on each roll (`+roll/extended =Bob`):
someone shown the first roll may have left since, and nobody is shown a roll they were not
named for. A switch of the system's that does not go with an extended roll is refused, never
ignored.
"""

import re
import time

from storyteller_dice.rules import extended as rules_extended
from storyteller_dice.rules.display import escape, format_roll, wrap
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from . import pending
from .dice_base import announce, dice_system, split_comment, whole_number, width_of
from .roll_parts import EXTENDED_SWITCHES, named_audience, private_to, roll_record, split_shared
from .wing_features import ExtendedKeeper

SWITCHES = frozenset(EXTENDED_SWITCHES)
STATE = "extended_roll"  # the pending value's key
SHARED = frozenset(("private", "verify")) | SWITCHES


# ---------------------------------------------------------------- the state


def load(character):
    """The character's `ExtendedRoll`, or None; DiceError when the stored value is damaged."""
    data = pending.load(character, STATE)
    return None if data is None else rules_extended.ExtendedRoll.from_dict(data)


def save(character, state):
    pending.save(character, STATE, state.to_dict())


def clear(character):
    pending.remove(character, STATE)


def describe(state, rules):
    return rules_extended.describe(state, rules, pool=escape(state.pool))


def progress_line(state, rules, step=None):
    """`  Extended: 7/10 after 2 rolls: complete.` (the system's note for this roll in brackets)."""
    return f"  |wExtended|n: {rules_extended.progress(state, rules, step)}"


def start_syntax(cmd, rules):
    return f"{cmd.key}/extended {rules.syntax}"


def no_roll(cmd, rules):
    """The one refusal when there is no extended roll (to roll, show or stop)."""
    return DiceError(f"You have no extended roll: start one with {start_syntax(cmd, rules)}.")


def pending_lines(character):
    """The open extended roll, told on connecting (nothing when complete, damaged or none)."""
    rules = dice_system().extended
    try:
        state = load(character) if rules is not None else None
    except DiceError:
        return []
    if state is None or state.complete:
        return []
    return [f"Your extended roll is open: {describe(state, rules)} (+roll/extended rolls it again, "
            "+roll/stop drops it)."]


# ---------------------------------------------------------------- the command


def extended_roll(cmd, wing):
    """Run `+roll/extended`, `/status` or `/stop` (`cmd.system` is the game's system)."""
    rules = cmd.system.extended
    switches = set(cmd.switches)
    try:
        state = load(cmd.caller)
    except DiceError:
        if switches != {"stop"} or cmd.args.strip():
            raise
        # The refusal says "stop it and start again": a damaged state must still be dropped.
        clear(cmd.caller)
        cmd.msg("You stop your damaged extended roll.")
        return
    if switches & {"status", "stop"}:
        status_or_stop(cmd, rules, state)
        return
    refuse_switches(cmd, rules)
    args, names = split_shared(cmd.args)
    text, comment = split_comment(args)
    state, text, fresh = start_or_continue(cmd, rules, state, text)
    roll_step(cmd, wing, state, text, fresh, names, comment)


def status_or_stop(cmd, rules, state):
    switches = set(cmd.switches)
    if {"status", "stop"} <= switches:
        raise DiceError("Use /status or /stop, not both.")
    if switches - SWITCHES:
        raise DiceError("/status and /stop take no other switch.")
    if cmd.args.strip():
        raise DiceError("/status and /stop take nothing after them.")
    if state is None:
        raise no_roll(cmd, rules)
    if "stop" in switches:
        clear(cmd.caller)
        text = f"You stop your extended roll of {describe(state, rules)}."
    else:
        text = f"Your extended roll: {describe(state, rules)}."
    cmd.msg("\n".join(wrap(text, width_of(cmd.caller))))


def refuse_switches(cmd, rules):
    allowed = SHARED | set(rules.switches)
    extra = [name for name in cmd.switches if name not in allowed]
    if extra:
        raise DiceError(f"/{extra[0]} does not go with /extended: roll that on its own.")


def _target_pattern(word):
    return re.compile(rf"^(?P<pool>.*?)\s*(?<!\S){re.escape(word)}\.?\s+(?P<target>[^\s/]+)\s*(?P<ending>/.*)?$",
                      re.IGNORECASE | re.DOTALL)


def start_or_continue(cmd, rules, state, text):
    """
    (the state to roll, the text this roll parses, whether it starts): a start is the pool and
    the total (`rules.syntax`); anything else typed is an ending for this roll alone.
    """
    if text and not text.startswith("/"):
        found = _target_pattern(rules.target_word).match(text)
        if not found:
            raise DiceError(f"Say the total to reach: {start_syntax(cmd, rules)}.")
        if not found.group("pool").strip():
            raise DiceError(f"Say what to roll before '{rules.target_word}'.")
        target = whole_number(found.group("target"), "The target total is a whole number of successes",
                              rules_extended.check_target)
        if state is not None and not state.complete:
            raise DiceError(f"You already have an extended roll going ({describe(state, rules)}); "
                            "roll it with /extended or drop it with /stop.")
        state = rules_extended.start(found.group("pool"), target, private="private" in cmd.switches,
                                     switches=[name for name in cmd.switches if name in rules.lasting],
                                     numbers_only=cmd.numbers_only, run=f"{cmd.caller.id}-{time.time():.6f}")
        return state, f"{state.pool} {found.group('ending') or ''}".strip(), True
    if state is None:
        raise no_roll(cmd, rules)
    if state.complete:
        raise DiceError(f"Your extended roll is complete ({state.total}/{state.target}); "
                        f"start a new one with {start_syntax(cmd, rules)}.")
    if "private" in cmd.switches and not state.private:
        raise DiceError("This extended roll is public; /private only applies when starting one.")
    return state, f"{state.pool} {text}".strip(), False


def roll_step(cmd, wing, state, text, fresh, names, comment):
    """Make one roll of the extended roll, store it with the new state, show it."""
    caller, system = cmd.caller, cmd.system
    rules = system.extended
    shared = named_audience(caller, names, state.private, f"{cmd.key}/extended")
    roller = caller.roller()
    switches = frozenset(name for name in cmd.switches if name in rules.switches) | frozenset(state.switches)
    request = rules.request(system.parse(text, switches, roller=roller, numbers_only=state.numbers_only))
    wing.before_roll(cmd, request, roller)
    rng = get_rng()
    first = system.roll(request, roller, rng=rng)
    result, initial, extra = wing.after_roll(cmd, request, first, rng)
    step = rules.step(result)
    after = rules_extended.add(state, step)
    shown = system.view(first, request)
    view = system.view(result, request) if result is not first else shown
    verb = f"{'starts' if fresh else 'continues'} an extended roll toward {state.target} (roll {after.rolls}):"
    shown_to, name, line = private_to(caller, state.private, shared), caller.key, progress_line(after, rules, step)

    def render(width):
        lines = [format_roll(shown, name, verb=verb, comment=comment, private_to=shown_to, width=width)]
        lines.extend(extra(width))
        lines.extend(wrap(line, width))
        return "\n".join(lines)

    record = step_record(cmd, view, result, request, after, comment)
    if initial is not None:
        record["initial"] = system.view(initial, request)

    def keep(receivers):  # the new state and the wing's, in the roll's own commit
        save(caller, after)
        if isinstance(wing, ExtendedKeeper):
            wing.extended_keep(cmd, after, request, result, record, receivers)

    receivers = announce(caller, render, private=state.private, shared_with=shared, record=record, keep=keep)
    wing.extended_rolled(cmd, request, result, record, receivers)


def step_record(cmd, view, result, request, state, comment):
    progress = {"target": state.target, "total": state.total, "rolls": state.rolls, "complete": state.complete}
    record = roll_record(cmd, "extended", request, result, view, comment, data={"extended": progress})
    record["summary"] = f"{record['summary']}; extended {state.total} of {state.target}"[:250]
    return record

"""+roll/extended, /status and /stop (Seyruun): successes accumulate toward a target total."""

from storyteller_dice.rules import seyruun
from storyteller_dice.rules.engine import read_whole, split_vs
from storyteller_dice.rules.errors import DiceError

from ..dice_base import dice_system, split_comment
from storyteller_dice.rules.display import escape
from .common import EXTENDED, base_record, can_pay, clear_state, load_state, pay, replace_request, roll_request, \
    save_state, show_roll

MAX_TARGET = 100


def _check_target(value):
    if not 1 <= value <= MAX_TARGET:
        raise DiceError(f"An extended roll's target total is 1 to {MAX_TARGET} successes, not {value}.")
    return value


def progress_text(state):
    progress = state["progress"]
    botches = f", {progress.botches} botched" if progress.botches else ""
    rolls = f"{progress.rolls} roll{'s' if progress.rolls != 1 else ''}"
    if progress.complete:
        return f"Extended: complete, {progress.total} of {progress.target} successes in {rolls}{botches}."
    return f"Extended: {progress.total} of {progress.target} successes after {rolls}{botches}."


def pending_lines(character):
    state = load_state(character, EXTENDED)
    if not state or state["progress"].complete:
        return []
    return [f"[Roll] Your extended roll of {escape(state['text'])} is open: "
            f"{state['progress'].total} of {state['progress'].target} successes (+roll/extended rolls again)."]


def extended_roll(cmd):
    caller = cmd.caller
    state = load_state(caller, EXTENDED)
    switches = set(cmd.switches)
    if "stop" in switches:
        if not state:
            raise DiceError("You have no extended roll to stop.")
        clear_state(caller, EXTENDED)
        cmd.msg(f"Extended roll stopped ({progress_text(state)[len('Extended: '):]})")
        return
    if "status" in switches:
        if not state:
            raise DiceError("You have no extended roll: +roll/extended <pool> vs <target total> starts one.")
        cmd.msg(f"Your extended roll of {escape(state['text'])}. {progress_text(state)}")
        return

    system = dice_system()
    text, comment = split_comment(cmd.args)
    roller = caller.roller()
    switches = frozenset(opt for opt in cmd.switches if opt in system.roll_switches)
    fresh = bool(text.strip())
    if fresh:
        if state and not state["progress"].complete:
            raise DiceError("You already have an extended roll open: +roll/extended rolls it again, "
                            "+roll/stop drops it.")
        pool_text, target_text = split_vs(text)
        if target_text is None:
            raise DiceError("Say the target total: +roll/extended <pool> vs <successes>.")
        # An ending (/willpower) after the total belongs to the pool's roll.
        target_text, slash, ending = target_text.partition("/")
        target = read_whole(target_text, "The target total is a whole number of successes", _check_target)
        request = system.parse(pool_text + (f" /{ending}" if slash else ""), switches, roller=roller)
        state = {"text": request.text, "progress": seyruun.Extended(target=target),
                 "private": "private" in cmd.switches}
    else:
        if not state:
            raise DiceError("You have no extended roll: +roll/extended <pool> vs <target total> starts one.")
        if state["progress"].complete:
            raise DiceError("Your extended roll is complete: start a new one with +roll/extended <pool> vs <total>.")
        request = system.parse(state["text"], switches, roller=roller)
    # Each roll is judged alone at Simple; the target is the total's.
    request = replace_request(request, target=seyruun.MIN_DIFFICULTY, target_given=False)
    can_pay(roller, system.costs(request))
    result, view = roll_request(request, roller)
    state["progress"] = state["progress"].add(result.result)
    line = progress_text(state)
    record = base_record(cmd, "extended", view, result, request, comment=comment,
                         details={"extended": {"total": state["progress"].total, "target": state["progress"].target,
                                               "rolls": state["progress"].rolls}})
    show_roll(caller, view, verb="rolls (extended)", comment=comment, private=state["private"],
              extra=lambda width: [f"  |w{line}|n"], record=record)
    pay(caller, system.costs(request))
    save_state(caller, EXTENDED, state)


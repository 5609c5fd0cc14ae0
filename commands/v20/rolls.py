"""
The V20 wing's own rolls: split actions (`+roll/multi`) and extended actions
(`+roll/extended`, `/status`, `/stop`). Both go through the System (`parse`, `roll`, `view`,
`record`) as the shared +roll does, so defaulting, wound penalties and Specialties apply to
each action as to any roll.

Multiple actions: `+roll/multi <pool>[ vs <d>], <pool>[ vs <d>][, ...] [= <split>]
[= <name>, ...]`.
Each pool is read as a roll of its own (wound penalty off each); the smallest pool of the
ordinary actions is split among them (`rules.v20.split_actions`), a `*` in front of an action
marks a Celerity action, which rolls its full pool. The room gets one message with every action;
the log one record with each action as a side (`sides`) and each action's system record in
`data["actions"]`.

Extended actions: `+roll/extended <pool> [vs <d>] for <total>`; net successes add up, a botch
resets the total to 0 (`rules.v20.add_roll`). The action is an Attribute on the character
(`commands.v20.character.EXTENDED`) until it is complete or stopped: it survives a restart.

**Rulings**: /willpower, /auto and /retry are refused with /multi and /extended (one Willpower a
turn goes on one roll: roll that action alone); /ignorepain with /multi costs 1 Willpower for
the whole turn. An extended roll is rolled with the wounds of the moment it is rolled.

/private goes with both, names and all, as with any +roll/private. After `=`, /multi reads a
list that starts with a number as the split and anything else as names, so both can be given,
in either order (`= 2 1 = Bob`): a split always starts with a digit, and the few names that do
(if the game allows them) are read as a split, so such a character is named on a roll of
its own. An
extended action started /private stays private on every roll; the names are those typed with
each roll (`+roll/extended =Bob`), as a +roll/private names its audience each time: someone
shown the first roll may have left, and nobody is shown a roll they were not named for.
"""

import dataclasses
import re

from storyteller_dice.rules import v20
from storyteller_dice.rules.display import format_roll
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from ..dice_base import announce, split_comment, whole_number
from storyteller_dice.rules.display import escape
from ..rolls import named_audience, private_to, roll_summary, split_shared
from . import character as v20_character

MULTI_SWITCHES = frozenset(("spec", "ignorepain"))
MAX_ACTIONS = 10
_FOR = re.compile(r"\s+for\s+(\S+)\s*$", re.IGNORECASE)


def _refuse_switches(cmd, allowed, what):
    extra = [s for s in cmd.switches if s in cmd.system.roll_switches and s not in allowed]
    if extra:
        raise DiceError(f"/{extra[0]} does not go with {what}: roll that action on its own.")


_SPLIT = re.compile(r"\s*[0-9]")


def split_multi(text):
    """`<actions> [= <split>] [= <names>]`, either order -> (actions, split text or None, names text or None)."""
    head, *tails = text.split("=")
    split = names = None
    for tail in tails:
        if _SPLIT.match(tail) or not tail.strip():
            if split is not None:
                raise DiceError("Give the split once: the dice of each action after '=', e.g. '= 2 1'.")
            split = tail
        elif names is not None:
            raise DiceError("Give the names once, after '=' (names are separated by commas).")
        else:
            names = tail
    return head, split, names


def read_split(text):
    numbers = [word for word in re.split(r"[\s,/]+", text.strip()) if word]
    if not numbers:
        raise DiceError("Give the split after '=': the dice of each action, e.g. '= 2 1'.")
    return [whole_number(n, "Each action of a split gets a whole number of dice") for n in numbers]


def multi_roll(cmd):
    caller, system = cmd.caller, cmd.system
    _refuse_switches(cmd, MULTI_SWITCHES, "/multi")
    private = "private" in cmd.switches
    text, comment = split_comment(cmd.args)
    head, tail, names = split_multi(text)
    actions = [part.strip() for part in head.split(",")]
    if not any(actions):
        raise DiceError("Declare the actions, separated by commas.")
    if not all(actions):
        raise DiceError("An action is missing in the list (actions are separated by commas).")
    if len(actions) > MAX_ACTIONS:
        raise DiceError(f"Declare at most {MAX_ACTIONS} actions in a turn.")
    split = read_split(tail) if tail is not None else None
    shared = named_audience(caller, split_shared(f"={names}")[1] if names is not None else [], private,
                            f"{cmd.key}/multi")
    celerity = [index for index, action in enumerate(actions) if action.startswith("*")]
    actions = [action.lstrip("*").strip() for action in actions]
    roller = caller.roller()
    switches = frozenset(s for s in cmd.switches if s in MULTI_SWITCHES)
    requests = [system.parse(action, switches, roller=roller, numbers_only=cmd.numbers_only) for action in actions]
    dice = v20.split_actions([request.dice for request in requests], split, celerity)
    costs = system.costs(requests[0])  # /ignorepain: once for the turn
    for trait, points in costs.items():
        if roller.get("willpower_left", 0) < points:
            raise DiceError("Your Willpower is exhausted: /ignorepain needs 1 temporary Willpower.")
    ordinary = [i for i in range(len(actions)) if i not in celerity]
    smallest = min(requests[i].dice for i in ordinary)
    rng = get_rng()
    rolled = []
    for index, (request, share) in enumerate(zip(requests, dice)):
        if index in celerity:
            note = "Celerity: full pool"
        else:
            note = f"split: {share} of {smallest} dice"
        request = dataclasses.replace(request, dice=share,
                                      extra=request.extra + (("notes", request.get("notes", ()) + (note,)),))
        result = system.roll(request, roller, rng=rng)
        rolled.append((request, result, system.view(result, request)))
    count = len(rolled)
    shown_to = private_to(caller, private, shared)
    name = caller.key

    def render(width):
        lines = []
        for index, (_, _, view) in enumerate(rolled):
            lines.append(format_roll(view, name, verb=f"rolls action {index + 1} of {count}:",
                                     comment=comment if index == 0 else "",
                                     private_to=shown_to if index == count - 1 else None,
                                     prefix="[Private roll]" if private else None, width=width))
        return "\n".join(lines)

    summary = "; ".join(f"action {i + 1}: {roll_summary(view)}" for i, (_, _, view) in enumerate(rolled))
    record = {
        "kind": "multi",
        "command": cmd.raw_string.strip(),
        "comment": comment,
        "system": system.key,
        "view": rolled[0][2],
        "sides": [{"label": f"action {i + 1}" + (" (Celerity)" if i in celerity else ""), "view": view}
                  for i, (_, _, view) in enumerate(rolled)],
        "data": {"system": system.key, "split": list(dice), "celerity": celerity,
                 "actions": [system.record(result, request) for request, result, _ in rolled]},
        "summary": summary[:250],
    }
    announce(caller, render, private=private, shared_with=shared, record=record)
    v20_character.pay(caller, costs)


def extended_roll(cmd):
    caller, system = cmd.caller, cmd.system
    switches = set(cmd.switches)
    current = v20_character.extended(caller)
    if "status" in switches or "stop" in switches:
        if cmd.args.strip():
            raise DiceError("/status and /stop take nothing after them.")
        if not current:
            raise DiceError("You have no extended action going: start one with +roll/extended <pool> for <total>.")
        where = (f"Your extended action ({escape(current['text'])}) stands at {current['total']} of "
                 f"{current['target']} successes after {current['rolls']} "
                 f"{'roll' if current['rolls'] == 1 else 'rolls'}")
        if "stop" in switches:
            v20_character.set_extended(caller, None)
            cmd.msg(f"{where}: stopped.")
        else:
            cmd.msg(f"{where}.")
        return
    _refuse_switches(cmd, frozenset(("spec",)), "/extended")
    text, names = split_shared(cmd.args)
    text, comment = split_comment(text)
    if text:
        found = _FOR.search(text)
        if not found:
            raise DiceError("Say the total to reach: +roll/extended <pool> [vs <difficulty>] for <total>.")
        if current and not v20.ExtendedState(**_state_fields(current)).complete:
            raise DiceError("You have an extended action going: +roll/extended rolls it again, +roll/stop ends it.")
        target = whole_number(found.group(1), "The total to reach is a whole number of successes")
        state = v20.start_extended(target)
        current = {"text": text[: found.start()].strip(), "spec": "spec" in switches,
                   "private": "private" in switches, "target": state.target, "total": 0, "rolls": 0}
    elif not current:
        raise DiceError("Start an extended action first: +roll/extended <pool> [vs <difficulty>] for <total>.")
    shared = named_audience(caller, names, current["private"], f"{cmd.key}/extended")
    roller = caller.roller()
    request = system.parse(current["text"], frozenset(("spec",)) if current["spec"] else frozenset(), roller=roller,
                           numbers_only=cmd.numbers_only)
    result = system.roll(request, roller, rng=get_rng())
    state = v20.add_roll(v20.ExtendedState(**_state_fields(current)), result)
    view = system.view(result, request)
    if state.reset:
        line = f"  Extended: a botch resets the total to 0 (of {state.target})."
    elif state.complete:
        line = f"  Extended: {state.total} of {state.target}: complete after {state.rolls} " \
               f"{'roll' if state.rolls == 1 else 'rolls'}."
    else:
        line = f"  Extended: {state.total} of {state.target} ({state.remaining} to go)."
    private = current["private"]
    shown_to = private_to(caller, private, shared)
    name = caller.key

    def render(width):
        return format_roll(view, name, verb="rolls (extended)", comment=comment, private_to=shown_to,
                           width=width) + "\n" + line

    record = {
        "kind": "extended",
        "command": cmd.raw_string.strip(),
        "comment": comment,
        "system": system.key,
        "view": view,
        "data": {**system.record(result, request), "extended": {"target": state.target, "total": state.total,
                                                                "rolls": state.rolls, "reset": state.reset}},
        "summary": f"{roll_summary(view)}; extended {state.total} of {state.target}"[:250],
    }
    announce(caller, render, private=private, shared_with=shared, record=record)
    if state.complete:
        v20_character.set_extended(caller, None)
    else:
        v20_character.set_extended(caller, {**current, "total": state.total, "rolls": state.rolls})


def _state_fields(data):
    return {"target": data["target"], "total": data["total"], "rolls": data["rolls"]}

"""
The V20 wing's own roll: split actions (`+roll/multi`). It goes through the System (`parse`,
`roll`, `view`, `record`) as the shared +roll does, so defaulting, wound penalties and
Specialties apply to each action as to any roll. (Extended actions are the shared
`commands.extended`, with V20's rules in `rules.v20.V20Extended`.)

Multiple actions: `+roll/multi <pool>[ vs <d>], <pool>[ vs <d>][, ...] [= <split>]
[= <name>, ...]`.
Each pool is read as a roll of its own (wound penalty off each); the smallest pool of the
ordinary actions is split among them (`rules.v20.split_actions`), a `*` in front of an action
marks a Celerity action, which rolls its full pool. The room gets one message with every action;
the log one record with each action as a side (`sides`) and each action's system record in
`data["actions"]`.

**Rulings**: /willpower, /auto and /retry are refused with /multi and /extended (one Willpower a
turn goes on one roll: roll that action alone); /ignorepain with /multi costs 1 Willpower for
the whole turn (and is refused with /extended). An extended roll is rolled with the wounds of
the moment it is rolled.

/private goes with /multi, names and all, as with any +roll/private. After `=`, /multi reads a
list that starts with a number as the split and anything else as names, so both can be given,
in either order (`= 2 1 = Bob`): a split always starts with a digit, and the few names that do
(if the game allows them) are read as a split, so such a character is named on a roll of
its own.
"""

import dataclasses
import re

from storyteller_dice.rules import v20
from storyteller_dice.rules.display import format_roll
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from ..dice_base import announce, split_comment, whole_number
from ..rolls import named_audience, private_to, roll_summary, split_shared
from . import character as v20_character

MULTI_SWITCHES = frozenset(("spec", "ignorepain"))
MAX_ACTIONS = 10


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


def read_actions(cmd):
    """The declared actions of `+roll/multi` -> (actions, Celerity indexes, split or None, audience, comment)."""
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
    shared = named_audience(cmd.caller, split_shared(f"={names}")[1] if names is not None else [],
                            "private" in cmd.switches, f"{cmd.key}/multi")
    celerity = [index for index, action in enumerate(actions) if action.startswith("*")]
    return [action.lstrip("*").strip() for action in actions], celerity, split, shared, comment


def roll_actions(system, requests, dice, celerity, roller):
    """Roll each action with its share of the dice: [(request, result, view), ...]."""
    smallest = min(request.dice for i, request in enumerate(requests) if i not in celerity)
    rng = get_rng()
    rolled = []
    for index, (request, share) in enumerate(zip(requests, dice)):
        note = "Celerity: full pool" if index in celerity else f"split: {share} of {smallest} dice"
        request = dataclasses.replace(request, dice=share,
                                      extra=request.extra + (("notes", request.get("notes", ()) + (note,)),))
        result = system.roll(request, roller, rng=rng)
        rolled.append((request, result, system.view(result, request)))
    return rolled


def multi_roll(cmd):
    caller, system = cmd.caller, cmd.system
    _refuse_switches(cmd, MULTI_SWITCHES, "/multi")
    private = "private" in cmd.switches
    actions, celerity, split, shared, comment = read_actions(cmd)
    roller = caller.roller()
    switches = frozenset(s for s in cmd.switches if s in MULTI_SWITCHES)
    requests = [system.parse(action, switches, roller=roller, numbers_only=cmd.numbers_only) for action in actions]
    dice = v20.split_actions([request.dice for request in requests], split, celerity)
    costs = system.costs(requests[0])  # /ignorepain: once for the turn
    for trait, points in costs.items():
        if roller.get("willpower_left", 0) < points:
            raise DiceError("Your Willpower is exhausted: /ignorepain needs 1 temporary Willpower.")
    rolled = roll_actions(system, requests, dice, celerity, roller)
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

    announce(caller, render, private=private, shared_with=shared, record=multi_record(cmd, rolled, dice, celerity,
                                                                                       comment))
    v20_character.pay(caller, costs)


def multi_record(cmd, rolled, dice, celerity, comment):
    system = cmd.system
    summary = "; ".join(f"action {i + 1}: {roll_summary(view)}" for i, (_, _, view) in enumerate(rolled))
    return {
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

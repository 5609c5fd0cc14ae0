"""
What the Seyruun commands share: paying a roll's costs from the sheet, rolling a parsed request,
showing it through the shared display and storing it, and the kept state (the last roll for a
Willpower reroll, a reroll request) as plain data in Attributes
(`commands.pending`), so it survives a reload and a stop/start.
"""

import dataclasses

from storyteller_dice.rules.display import format_roll, wrap
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from .. import pending
from ..dice_base import announce, dice_system, send, width_of
from ..rolls import private_to

LAST_ROLL = "seyruun_last_roll"
REROLL_REQUEST = "seyruun_reroll_request"


def pay(character, costs):
    """Spend what a roll costs (`SeyruunSystem.costs`: Willpower only) through the sheet's one
    way to spend Willpower (`DiceCharacterMixin.spend_willpower`); nothing when free."""
    unknown = set(costs) - {"willpower_left"}
    if unknown:
        raise DiceError(f"Nothing on a Seyruun sheet pays {', '.join(sorted(unknown))}.")
    if costs.get("willpower_left", 0):
        character.spend_willpower(costs["willpower_left"])


def can_pay(roller, costs):
    """Refuse (DiceError) before any die is rolled when the roller cannot pay `costs`."""
    for key, amount in costs.items():
        if roller.get(key, 0) < amount:
            raise DiceError("You have no Willpower left to spend." if key == "willpower_left"
                            else f"You cannot pay {amount} {key}.")


def show_roll(caller, view, *, verb, comment="", private=False, shared=(), extra=None, record=None):
    """
    Store and show one roll: the shared roll line (`rules.display.format_roll`), then `extra`
    (a callable width -> list of lines), at each receiver's width. Returns `announce`'s receivers.
    """
    names = private_to(caller, private, shared)
    name = caller.key

    def render(width):
        lines = [format_roll(view, name, verb=verb, comment=comment, private_to=names, width=width)]
        for line in (extra(width) if extra else []):
            lines.extend(wrap(line, width))
        return "\n".join(lines)

    return announce(caller, render, private=private, shared_with=list(shared), record=record)


def roll_request(request, roller=None):
    """Roll a parsed request with the game's source of randomness: (result, view)."""
    system = dice_system()
    result = system.roll(request, roller, rng=get_rng())
    return result, system.view(result, request)


def base_record(cmd, kind, view, result, request, comment="", **more):
    system = dice_system()
    record = {
        "kind": kind,
        "command": cmd.raw_string.strip(),
        "comment": comment,
        "system": system.key,
        "view": view,
        "data": system.record(result, request),
        "summary": f"{view.score_text}: {view.outcome.label}",
    }
    record.update(more)
    return record


def tell(receivers, text):
    """A message (markup, player text escaped) to each receiver at its width."""
    return send(receivers, lambda width: "\n".join(wrap(text, width)))


def tell_one(obj, text):
    obj.msg("\n".join(wrap(text, width_of(obj))))


# ---------------------------------------------------------------- kept state


def save_state(obj, key, value):
    pending.save(obj, key, pending.to_plain(value))


def load_state(obj, key):
    return pending.from_plain(pending.load(obj, key))


def clear_state(obj, key):
    pending.remove(obj, key)


def replace_request(request, **changes):
    return dataclasses.replace(request, **changes)

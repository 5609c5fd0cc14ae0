"""
The Willpower reroll of a failed roll, with the Storyteller's approval (Seyruun): the player
asks with `+roll/reroll`, staff grant it with `+reroll/approve <name>` (or `/deny` it). Nothing
is spent until it is granted. See the rulings in `commands.seyruun.wing`.
"""

import dataclasses

from storyteller_dice.rules import seyruun
from storyteller_dice.rules.engine import REROLLED
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from .. import pending
from ..dice_base import DiceCommand, dice_system, find_character, is_staff, split_comment, staff_in_room
from storyteller_dice.rules.display import escape, format_reroll
from storyteller_dice.typeclasses import access
from .common import LAST_ROLL, REROLL_REQUEST, clear_state, load_state, pay, save_state, show_roll, tell, tell_one

COST = {"willpower_left": 1}


def last_roll(character):
    """The roll kept for a Willpower reroll (`wing.remember_roll`), or None."""
    kept = load_state(character, LAST_ROLL)
    return kept if kept and kept.get("roll") is not None else None


def check_rerollable(kept):
    """Refuse (DiceError) a kept roll that cannot be rerolled."""
    if kept is None:
        raise DiceError("You have no roll to reroll: +roll or +check first.")
    roll = kept["roll"].result
    if roll.win:
        raise DiceError("Your last roll succeeded; only a failed roll can be rerolled.")
    if roll.rerolled:
        raise DiceError("Your last roll has already been rerolled.")
    return roll


def pending_lines(character):
    request = load_state(character, REROLL_REQUEST)
    if not request:
        return []
    return [f"[Roll] Your Willpower reroll of roll {escape(request['code'] or '')} waits for staff "
            "(+reroll/approve)."]


def request_reroll(cmd):
    """`+roll/reroll [# reason]`: ask staff for a Willpower reroll of the caller's last roll."""
    caller = cmd.caller
    _, reason = split_comment(cmd.args)
    kept = last_roll(caller)
    check_rerollable(kept)
    if caller.willpower_left() < 1:
        raise DiceError("You have no Willpower left to spend on a reroll.")
    if load_state(caller, REROLL_REQUEST):
        raise DiceError("You already asked to reroll that roll; staff will answer.")
    staff = [obj for obj in staff_in_room(caller) if obj != caller]
    save_state(caller, REROLL_REQUEST, {"code": kept["code"], "reason": reason, "told": staff})
    because = f" ({escape(reason)})" if reason else ""
    cmd.msg(f"You ask the Storyteller to reroll your roll {escape(kept['code'] or '')} with Willpower{because}. "
            "Nothing is spent until staff grant it.")
    tell(staff, f"[Roll] {escape(caller.key)} asks to reroll roll {escape(kept['code'] or '')} with "
                f"Willpower{because}: +reroll/approve {escape(caller.key)} or +reroll/deny {escape(caller.key)}.")


def tell_withdrawn(character, request):
    """A new roll withdrew `request`: the player is told, and the staff told of it or here now."""
    code = escape(request.get("code") or "")
    tell_one(character, f"[Roll] Your request to reroll roll {code} with Willpower is withdrawn: you rolled "
                        "again. Ask again with +roll/reroll if this roll fails.")
    staff = [obj for obj in list(request.get("told") or ()) + staff_in_room(character)
             if obj is not None and obj != character]
    tell(staff, f"[Roll] {escape(character.key)}'s request to reroll roll {code} with Willpower is withdrawn: "
                "they rolled again.")


def _requests():
    out = []
    for holder in pending.holders(REROLL_REQUEST):
        request = load_state(holder, REROLL_REQUEST)
        if request:
            out.append((holder, request))
    return out


def _marked(view):
    """The view with every die marked rerolled (the whole roll is rerolled)."""
    groups = tuple(dataclasses.replace(group, dice=tuple(dataclasses.replace(die, marks=die.marks | {REROLLED})
                                                          for die in group.dice)) for group in view.groups)
    return dataclasses.replace(view, groups=groups)


def _check_grant(staff, character, kept):
    """Refuse (DiceError) a reroll that cannot be granted now; the request is then dropped."""
    roller = access.read_traits(staff, character, "Only staff grant or refuse rerolls.")
    try:
        check_rerollable(kept)
        if roller.get("willpower_left", 0) < 1:
            raise DiceError(f"{escape(character.key)} has no Willpower left; the request is dropped.")
    except DiceError:
        clear_state(character, REROLL_REQUEST)
        raise


def grant(staff, character):
    """Reroll `character`'s requested roll: spend 1 Willpower, roll, show and record it."""
    request = load_state(character, REROLL_REQUEST)
    if not request:
        raise DiceError(f"{escape(character.key)} has not asked for a reroll.")
    kept = last_roll(character)
    if kept is None or kept["code"] != request["code"]:
        clear_state(character, REROLL_REQUEST)
        raise DiceError(f"{escape(character.key)}'s request no longer matches their last roll; it is dropped.")
    _check_grant(staff, character, kept)
    system = dice_system()
    before = kept["roll"]
    fresh = seyruun.reroll(before.result, approved=True, rng=get_rng())
    after = dataclasses.replace(before, result=fresh)
    old_view, view = system.view(before), system.view(after)
    shown = _marked(view)
    code = kept["code"]
    shared = [obj for obj in kept["shared"] if obj is not None]
    private = kept["private"]
    label = f"Willpower, granted by {staff.key}"

    def extra(width):
        return format_reroll(old_view, shown, "Willpower", width=width,
                             detail=f"granted by {staff.key}").split("\n")[:1] + [
            f"  (reroll of roll {escape(code or '')}; 1 Willpower spent)"]

    record = {
        "kind": "reroll",
        "command": f"+reroll/approve {character.key}",
        "comment": kept.get("comment", ""),
        "system": system.key,
        "view": view,
        "initial": old_view,
        "data": system.record(after),
        "summary": f"{view.score_text}: {view.outcome.label}",
        "parent": code,
        "details": {"approved_by": staff.key, "label": label},
    }
    receivers = show_roll(character, shown, verb="rerolls with Willpower", comment=kept.get("comment", ""),
                          private=private, shared=shared, extra=extra, record=record)
    pay(character, COST)
    clear_state(character, REROLL_REQUEST)
    kept["roll"] = after
    kept["code"] = getattr(receivers, "code", None) or code
    save_state(character, LAST_ROLL, kept)
    if staff not in receivers:
        tell_one(staff, f"You granted {escape(character.key)}'s Willpower reroll: {escape(view.score_text)}, "
                        f"{escape(view.outcome.label)}.")
    return receivers


class CmdReroll(DiceCommand):
    """
    Grant or refuse a Willpower reroll a player asked for (staff).

    Usage:
      +reroll
      +reroll/approve <character>
      +reroll/deny <character> [# <reason>]

    Switches:
      approve   - grant it: 1 Willpower is spent and every die of the
                  failed roll is rolled again, shown to the roll's audience
                  and recorded with the original roll as its parent
      deny      - refuse it (nothing is spent)

    Without a switch, lists the rerolls waiting. Players ask with
    +roll/reroll (see +help +roll); nothing is spent until staff grant it.
    A new roll by the player withdraws their request (they and you are
    told).
    (The shared +approve approves character sheets.)

    Examples:
      +reroll
      +reroll/approve Alice
      +reroll/deny Alice # the scene has moved on
    """

    key = "+reroll"
    aliases = ["reroll"]
    locks = "cmd:all()"
    switch_options = ("approve", "deny")
    usage = "+reroll/approve <character> or +reroll/deny <character>"

    def run(self):
        caller = self.caller
        if not is_staff(caller):
            raise DiceError("Only staff grant or refuse rerolls; ask for one with +roll/reroll.")
        text, reason = split_comment(self.args)
        if not self.switches:
            waiting = _requests()
            if not waiting:
                self.msg("No Willpower rerolls are waiting.")
                return
            lines = ["Willpower rerolls waiting:"] + [
                f"  {escape(holder.key)}: roll {escape(request['code'] or '')}"
                + (f" ({escape(request['reason'])})" if request.get("reason") else "") for holder, request in waiting]
            self.msg("\n".join(lines))
            return
        if not text.strip():
            raise DiceError("Name the character whose reroll you answer.")
        character = find_character(caller, text)
        if "approve" in self.switches:
            grant(caller, character)
            return
        if not load_state(character, REROLL_REQUEST):
            raise DiceError(f"{escape(character.key)} has not asked for a reroll.")
        clear_state(character, REROLL_REQUEST)
        because = f" ({escape(reason)})" if reason else ""
        self.msg(f"You refused {escape(character.key)}'s Willpower reroll{because}.")
        if character != caller:
            tell_one(character, f"{escape(caller.key)} refused your Willpower reroll{because}; nothing was spent.")

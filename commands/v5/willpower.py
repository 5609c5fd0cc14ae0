"""
+willpower: spend one Willpower to reroll up to three regular dice of your last roll, made in
the last 10 minutes (kept by `commands.last_roll`: the window survives a reload and runs on in
wall-clock time). Drawn by the shared display from the V5 System's views; recorded with the
roll as its parent. The rulings (what is rerollable, the strategies and when they are refused,
`crits` asking for /confirm) are in docs/v5.md, "Willpower"; the choice of dice is the V5
System's (`willpower_choice`, `willpower_dice`), or the player's by position (`/position`, what
the web client's result card sends: `dice_at`).
"""

import re
import time

from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import exact_odds as v5_odds
from storyteller_dice.rules.display import PREFIX, PRIVATE_PREFIX, escape, wrap
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from .. import pending
from ..dice_base import DiceCommand, announce, dice_system, has_sheet, width_of
from ..last_roll import last_roll, remember_roll, reroll_request, share_state, views

REROLL_WINDOW = 600  # seconds: a Willpower reroll follows the roll it changes


def pending_lines(character):
    """The +willpower window of the character's last roll, for the notice on connecting."""
    last = last_roll(character)
    if last is None or not last.rerollable:
        return []
    try:
        last.check()
        if last.current().rerolled:
            return []
    except Exception:  # noqa: BLE001 - a roll whose context is gone is not pending
        return []
    left = REROLL_WINDOW - (time.time() - last.time)
    if left > 0:
        return [f"{PREFIX} You may still reroll your last roll ({last.summary}) with +willpower "
                f"for {pending.minutes(left)}."]
    if not getattr(last, "closed_told", False):
        last.closed_told = True
        remember_roll(character, last)
        return [f"{PREFIX} The {REROLL_WINDOW // 60} minutes to reroll your last roll ({last.summary}) "
                "with +willpower ran out."]
    return []


def rerollable_roll(caller):
    """
    The caller's last roll and its result, if Willpower may still reroll it.

    Raises:
        DiceError: no recent roll, too old, not rerollable, or already rerolled.
    """
    last = last_roll(caller)
    if last is None:
        raise DiceError("You have no recent roll to reroll.")
    if time.time() - last.time > REROLL_WINDOW:
        raise DiceError(f"Your last roll was more than {REROLL_WINDOW // 60} minutes ago; "
                        "Willpower rerolls a roll just made.")
    if not last.rerollable:
        raise DiceError(last.reason)
    last.check()
    result = last.current()
    if result.rerolled:
        raise DiceError("Your last roll has already been rerolled with Willpower (once per roll).")
    refusal = v5.reroll_refusal(result)
    if refusal:
        raise DiceError(refusal)
    return last, result


def panel_actions(character):
    """
    The web client's dice panel: `+willpower` while the last roll may still be rerolled and
    the reroll it asks for would be made: the command's own refusals (no Willpower left, no
    regular die, a reroll that raises no chance: a roll that already won, say) offer nothing.

    With it, `dice` for the roll's result card, where the player picks the dice: the roll's
    code, its regular faces in order, the dice `+willpower` alone would take (`picks`,
    positions from 0), how many may be taken, and the switch that names dice by position.
    """
    try:
        last, result = rerollable_roll(character)
        left = max(0, int(REROLL_WINDOW - (time.time() - last.time)))
        if character.willpower_left() < 1 or not left:
            return []
        system = dice_system()
        _label, strategy, faces = system.willpower_choice("")
        picks = system.willpower_dice(result, strategy, faces, last.judged_alone)
    except DiceError:
        return []
    dice = {"code": str(getattr(last.entry, "code", last.entry) or ""), "regular": list(result.regular),
            "picks": list(picks), "most": v5.MAX_REROLL, "switch": "/position"}
    return [{"label": "Reroll with Willpower", "command": "+willpower", "seconds": left, "dice": dice}]


POSITIONS = re.compile(r"^\d{1,3}(?:[\s,]+\d{1,3})*$")


def dice_at(result, text):
    """
    The regular dice at the positions `text` names (`+willpower/position 1 3`: counted from 1,
    left to right along `Dice:`), as (label, indexes). The label names their faces, as
    `+willpower <faces>` does, so the reroll reads the same whichever way the dice were named.

    Raises:
        DiceError: no positions, not numbers, more than the limit, one named twice, or no
            regular die there (Hunger dice are never rerolled).
    """
    if not result.regular:
        raise DiceError("That roll has no regular dice (all are Hunger dice); no Willpower spent.")
    text = text.strip()
    count = len(result.regular)
    if not POSITIONS.match(text):
        raise DiceError(f"Name the dice to reroll by their positions in Dice:, from 1 to {count} "
                        "(like +willpower/position 1 3); no Willpower spent.")
    places = [int(each) for each in re.split(r"[\s,]+", text)]
    if len(places) > v5.MAX_REROLL:
        raise DiceError(f"Willpower rerolls at most {v5.MAX_REROLL} dice.")
    if len(set(places)) != len(places):
        raise DiceError("Name each die once; no Willpower spent.")
    for place in places:
        if not 1 <= place <= count:
            shown = " ".join(str(face) for face in result.regular)
            raise DiceError(f"There is no regular die at position {place} (regular dice: {shown}, "
                            f"positions 1 to {count}); Hunger dice are never rerolled.")
    indexes = tuple(sorted(place - 1 for place in places))
    return "dice " + " ".join(str(result.regular[i]) for i in indexes), indexes


class CmdWillpower(DiceCommand):
    """
    Spend Willpower to reroll up to three dice of your last roll.

    Usage:
      +willpower [failures, crits, messy or best]
      +willpower <dice faces>
      +willpower/position <positions>
      +willpower/confirm crits

    Costs one Superficial Willpower damage; rerolls up to three regular dice
    of your last roll (of the last 10 minutes), once; never Hunger dice.
    Whoever saw the roll sees the new dice and outcome.

    Which dice:
      failures - up to three regular dice under 6 (the default)
      crits    - with one unpaired 10 showing, up to three non-10s, to
                 chase a critical
      messy    - the regular 10s that make a critical messy, when the roll
                 still wins without them
      best     - the dice that give the best exact chance to win (then the
                 least chance of a messy critical, then the most successes)
      2 3      - the first regular dice showing these faces
      /position 1 3 - the 1st and 3rd regular dice of Dice: (what the
                 web client's card sends when you pick dice on it)
    A strategy that raises neither the chance to win nor lowers the
    chance of a messy critical is refused, and nothing is spent. `crits`
    on a roll that already wins shows the chances and asks you to repeat
    it as +willpower/confirm crits.

    Rerollable: +roll, +check, extended rolls, your side of a +contest or
    +teamwork roll; not Rouse, Remorse, frenzy or rating rolls.

    Examples:
      +willpower
      +willpower crits
      +willpower 2 3 5
    """

    key = "+willpower"
    aliases = ["willpower", "+wp"]
    locks = "cmd:all()"
    # the refusals' reminder, as before /position (whose own refusals show its syntax)
    usage = "+willpower [failures, crits, messy, best or <dice faces>]"
    switch_options = ("confirm", "position")

    def run(self):
        caller, system = self.caller, dice_system()
        if not has_sheet(caller):
            raise DiceError("Only characters with a sheet spend Willpower.")
        last, result = rerollable_roll(caller)
        by_position = "position" in self.switches
        if by_position:
            (label, picks), strategy = dice_at(result, self.args), None
        else:
            label, strategy, faces = system.willpower_choice(self.args)
        if caller.willpower_left() < 1:
            raise DiceError(caller.sheet.no_willpower.format(need=1, left=0))
        if not by_position:
            picks = system.willpower_dice(result, strategy, faces, last.judged_alone)
        warning = v5_odds.warning_for(result, strategy, picks) if strategy and last.judged_alone else None
        if warning and "confirm" not in self.switches:
            text = f"{warning} Nothing spent yet: to reroll all the same, +willpower/confirm {strategy}."
            caller.msg("\n".join(wrap(text, width_of(caller))))
            return
        caller.spend_willpower()
        self.show(last, result, v5.reroll(result, picks, rng=get_rng()), label, picks)

    def show(self, last, result, new, label, picks):
        """Show the reroll to the roll's audience and record it with the roll as its parent."""
        caller = self.caller
        extra = last.apply(new)
        remember_roll(caller, last)
        share_state(caller, last)
        prefix = PRIVATE_PREFIX if last.private else PREFIX
        lines = [f"{prefix} {escape(caller.key)} spends Willpower to reroll: {last.summary}",
                 last.format_reroll(result, new, label), *extra]
        before, after = views(result, new, last.difficulty_given)
        record = {"kind": "willpower", "command": self.raw_string.strip(), "system": after.system,
                  "view": after, "initial": before,
                  "data": dice_system().record(new, reroll_request(new, last.difficulty_given)),
                  "summary": f"{after.score_text}: {after.outcome.label}", "parent": last.entry,
                  "details": {"strategy": label, "rerolled": list(picks)}}
        announce(caller, lambda width: "\n".join(wrap("\n".join(lines), width)), private=last.private,
                 shared_with=last.receivers, record=record)

"""
+remorse and +frenzy: the V5 Humanity rolls (rules in `rules.v5_humanity`, rulings there).

Both roll no Hunger dice and cannot be rerolled with Willpower. A Remorse test updates the
sheet (Stains cleared, Humanity kept or one lower) before anyone is told. A frenzy test reads
the sheet (current Willpower, Humanity); a failed one marks the character as in frenzy on the
sheet (saved before anyone is told) until `+frenzy/end`.
"""

import re

from storyteller_dice.rules import v5, v5_humanity, v5_sheet
from storyteller_dice.rules.display import append_code
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from ..dice_base import (DiceCommand, announce, find_character, is_staff, record_action, send, split_comment,
                        tell_room, whole_number)
from .character import has_sheet, in_frenzy, set_frenzy, willpower_left
from .display import BADGE, MAX_COMMENT, escape, fitted, format_faces, format_outcome
from .willpower import NotRerollable, remember_roll

REMORSE_PREFIX = "|w[Remorse]|n"
FRENZY_PREFIX = "|w[Frenzy]|n"
_VS = re.compile(r"^(?P<who>.*?)\s*(?:(?:^|\s)vs\.?\s+(?P<difficulty>\S.*))?$", re.IGNORECASE | re.DOTALL)


def _tell_subject(caller, target, render, receivers):
    """The character rolled for, when not among those told: the same message, code and all, at
    their own width (`render` is a callable width -> text)."""
    if target == caller or (receivers is not None and target in receivers):
        return
    code = getattr(receivers, "code", None)
    text = render if code is None else (lambda width: append_code(render(width), code, width=width))
    send([target], text, from_obj=caller)


def _target(cmd, name, what):
    """The caller, or (staff only) the named character."""
    caller = cmd.caller
    target = caller
    if name.strip():
        target = find_character(caller, name)
        if target != caller and not is_staff(caller):
            raise DiceError(f"Only staff make {what} for someone else.")
    if not hasattr(target, "set_trait"):
        raise DiceError(f"{escape(target.key)} has no character sheet." if target != caller
                        else "Only characters with a sheet roll this.")
    return target


def _who_makes(actor, subject, what):
    if subject == actor:
        return f"{escape(actor.key)} makes {what}"
    return f"{escape(actor.key)} has {escape(subject.key)} make {what}"


def _not_rerollable(actor, subject, what):
    if subject == actor:
        remember_roll(actor, NotRerollable(f"A {what} is not rerolled with Willpower."))


class CmdRemorse(DiceCommand):
    """
    Make a Remorse test for your Stains.

    Usage:
      +remorse
      +remorse <character>     (staff)

    Roll one die for each empty Humanity box: 10 - Humanity - Stains, at
    least 1 die, with no Hunger dice. Any success keeps your Humanity; no
    success lowers it by 1. Either way your Stains are cleared. Without
    Stains there is no test. The sheet is updated before the room sees the
    roll. Willpower does not reroll a Remorse test.

    Examples:
      +remorse
      +remorse Alice
    """

    key = "+remorse"
    aliases = ["remorse"]
    locks = "cmd:all()"
    usage = "+remorse  or (staff) +remorse <character>"

    def run(self):
        caller = self.caller
        target = _target(self, self.args, "Remorse tests")
        values = target.sheet_values
        humanity, stains = values["humanity"], values["stains"]
        try:
            result = v5_humanity.roll_remorse(humanity, stains, rng=get_rng())
        except DiceError as err:
            raise DiceError(f"{escape(target.key)}: {err}" if target != caller else str(err)) from None
        target.set_trait("stains", result.stains_after)  # saved before anyone is told
        target.set_trait("humanity", result.humanity_after)
        dice = result.roll.pool
        header = (f"{REMORSE_PREFIX} {_who_makes(caller, target, 'a Remorse test')}: Humanity {humanity}, "
                  f"Stains {stains} ({dice} {'die' if dice == 1 else 'dice'}, no Hunger dice)")
        noun = "success" if result.roll.successes == 1 else "successes"
        if result.kept:
            verdict = f"|gHumanity kept at {result.humanity_after}|n; Stains cleared."
        elif result.lost_to_the_beast:
            verdict = f"{BADGE}Humanity drops to 0|n: the Beast has won; Stains cleared."
        else:
            verdict = f"|yHumanity drops to {result.humanity_after}|n; Stains cleared."
        text = fitted(f"{header}\n  {format_faces(result.roll)}  =>  {result.roll.successes} {noun}: {verdict}")
        record = {
            "kind": "remorse",
            "command": self.raw_string.strip(),
            "pool": f"10 - Humanity {humanity} - Stains {stains}",
            "result": result.roll,
            "summary": (f"Humanity kept at {humanity}" if result.kept
                        else f"Humanity {humanity} -> {result.humanity_after}") + "; Stains cleared",
            "details": {"humanity_before": humanity, "stains_before": stains,
                        "humanity_after": result.humanity_after},
        }
        if target != caller:
            record["subject"] = target
        receivers = announce(caller, text, record=record)
        _tell_subject(caller, target, text, receivers)
        _not_rerollable(caller, target, "Remorse test")


class CmdFrenzy(DiceCommand):
    """
    Make a frenzy test to hold the Beast back.

    Usage:
      +frenzy [vs <difficulty>] [# <comment>]
      +frenzy <character> [vs <difficulty>]     (staff)
      +frenzy/end [<character>]

    Switches:
      end - the frenzy is over: clear it from the sheet (yours, or staff
            for anyone)

    Roll your current Willpower (the boxes not marked by damage) plus one
    third of your Humanity, rounded down, at least 1 die, with no Hunger
    dice, against the difficulty the Storyteller gives for the trigger. With
    enough successes you resist; otherwise you frenzy. Without a difficulty
    the roll only shows its successes. A failed test marks you as in frenzy
    on your sheet until +frenzy/end. Willpower does not reroll the test.

    Examples:
      +frenzy vs 3
      +frenzy vs 2 # the hunter's torch
      +frenzy Alice vs 4
      +frenzy/end
    """

    key = "+frenzy"
    aliases = ["frenzy"]
    locks = "cmd:all()"
    usage = ("+frenzy [vs <difficulty>] [# <comment>]  or (staff) +frenzy <character> [vs <difficulty>]"
             "  or +frenzy/end [<character>]")
    switch_options = ("end",)

    def run(self):
        caller = self.caller
        if "end" in self.switches:
            self.end_frenzy()
            return
        text, comment = split_comment(self.args)
        parsed = _VS.match(text)
        who, typed = parsed.group("who"), parsed.group("difficulty")
        difficulty = None
        if typed is not None:
            difficulty = whole_number(typed, "The difficulty must be a whole number of successes",
                                      v5.check_difficulty)
        target = _target(self, who, "frenzy tests")
        willpower, humanity = willpower_left(target), target.trait("humanity")
        # Impaired (Stains beyond Humanity, docs/v5.md): -2 dice, as on every pool.
        penalty = v5_sheet.impairment(target.sheet_values)
        result = v5_humanity.roll_frenzy(willpower, humanity, difficulty, rng=get_rng(), penalty=penalty)
        given = result.difficulty_given
        dice = result.roll.pool
        total = willpower + result.humanity_dice - penalty
        pool = (f"Willpower {willpower} + Humanity {humanity} / 3 ({result.humanity_dice})"
                + (f" - {penalty} Impaired" if penalty else "") + f" = {total}"
                + (" (rolled as 1)" if total < 1 else ""))
        header = (f"{FRENZY_PREFIX} {_who_makes(caller, target, 'a frenzy test')}: {pool} "
                  f"({dice} {'die' if dice == 1 else 'dice'}, no Hunger dice)")
        if given:
            header += f", vs {difficulty}"
        if comment:
            header += f" # {escape(comment, MAX_COMMENT)}"
        lines = [header, f"  {format_faces(result.roll)}  =>  {format_outcome(result.roll, given)}"]
        if penalty:
            lines.append(f"  {v5_sheet.IMPAIRED_NOTE}.")
        if result.resisted is True:
            lines.append(f"  => |g{escape(target.key)} resists the frenzy.|n")
        elif result.resisted is False:
            set_frenzy(target, True)  # saved before anyone is told
            lines.append(f"  => |r{escape(target.key)} frenzies: the Beast takes over.|n "
                         "(+frenzy/end when it is over)")
        record = {
            "kind": "frenzy",
            "command": self.raw_string.strip(),
            "comment": comment,
            "pool": pool,
            "result": result.roll,
            "difficulty_given": given,
            "details": {"willpower": willpower, "humanity": humanity, "resisted": result.resisted},
        }
        if target != caller:
            record["subject"] = target
        text = fitted("\n".join(lines))
        receivers = announce(caller, text, record=record)
        _tell_subject(caller, target, text, receivers)
        _not_rerollable(caller, target, "frenzy test")

    def end_frenzy(self):
        caller = self.caller
        target = caller
        if self.args.strip():
            target = find_character(caller, self.args)
        if target != caller and not is_staff(caller):
            raise DiceError("Only staff end someone else's frenzy.")
        if not has_sheet(target):
            raise DiceError(f"{escape(target.key)} has no character sheet.")
        if not in_frenzy(target):
            raise DiceError(f"{escape(target.key)} is not in frenzy." if target != caller
                            else "You are not in frenzy.")
        set_frenzy(target, False)
        text = f"{FRENZY_PREFIX} {escape(target.key)} comes out of frenzy."
        if target != caller:
            text += f" (ended by {escape(caller.key)})"
        record_action(caller, target, "frenzy_end", "frenzy ended", command=self.raw_string.strip(),
                      private=False, room=caller.location)
        told = tell_room(caller, fitted(text))
        if target not in told:
            send([target], fitted(text), from_obj=caller)

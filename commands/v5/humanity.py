"""
+remorse and +frenzy: the V5 Humanity rolls (rules in `rules.v5.humanity`, rulings there).

Both roll no Hunger dice and cannot be rerolled with Willpower. A Remorse test updates the
sheet (Stains cleared, Humanity kept or one lower) before anyone is told. A frenzy test reads
the sheet (current Willpower, Humanity); a failed one marks the character as in frenzy on the
sheet (saved before anyone is told) until `+frenzy/end`.
"""

from storyteller_dice.rules.v5 import humanity as v5_humanity, sheet as v5_sheet
from storyteller_dice.rules.display import comment_suffix, escape, fitted, format_dice, format_outcome, format_pool
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng
from storyteller_dice.rules.v5.system import SYSTEM as V5

from ..dice_base import DiceCommand, has_sheet, named_or_self, record_action, split_comment, tell_room, tell_subject
from .character import announce_test, in_frenzy, set_frenzy, subject_with_sheet, who_makes

REMORSE_PREFIX = "|w[Remorse]|n"
FRENZY_PREFIX = "|w[Frenzy]|n"
YOURSELF = "Only characters with a sheet roll this."


def _remorse_text(actor, subject, view, result):
    """`[Remorse] Anna makes a Remorse test: Humanity 7, Stains 2 (1 die, no Hunger dice)`, then the
    dice and the verdict (`: the Beast has won` when Humanity reaches 0)."""
    beast = ": the Beast has won" if result.lost_to_the_beast else ""
    return fitted(f"{REMORSE_PREFIX} {who_makes(actor, subject, 'a Remorse test')}: {format_pool(view)}\n"
                  f"  {format_dice(view)}  =>  {format_outcome(view)}{beast}; Stains cleared.")


def _frenzy_text(actor, subject, view, result, comment):
    """The test's lines: the pool and the dice, then Impairment, then whether the Beast won."""
    header = f"{FRENZY_PREFIX} {who_makes(actor, subject, 'a frenzy test')}: {format_pool(view)}"
    lines = [header + comment_suffix(comment), f"  {format_dice(view)}  =>  {format_outcome(view)}"]
    if result.penalty:
        lines.append(f"  {v5_sheet.IMPAIRED_NOTE}.")
    if result.resisted is True:
        lines.append(f"  => |g{escape(subject.key)} resists the frenzy.|n")
    elif result.resisted is False:
        lines.append(f"  => |r{escape(subject.key)} frenzies: the Beast takes over.|n (+frenzy/end when it is over)")
    return "\n".join(lines)


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
        target = subject_with_sheet(self.caller, self.args, "Remorse tests", YOURSELF)
        caller = self.caller
        values = target.sheet_values
        humanity, stains = values["humanity"], values["stains"]
        try:
            result = v5_humanity.roll_remorse(humanity, stains, rng=get_rng())
        except DiceError as err:
            raise DiceError(f"{escape(target.key)}: {err}" if target != caller else str(err)) from None
        target.set_trait("stains", result.stains_after)  # saved before anyone is told
        target.set_trait("humanity", result.humanity_after)
        view = V5.remorse_view(result)
        text = _remorse_text(caller, target, view, result)
        record = {
            "kind": "remorse", "command": self.raw_string.strip(), "system": V5.key, "view": view,
            "data": V5.record(result.roll),
            "summary": (f"Humanity kept at {humanity}" if result.kept
                        else f"Humanity {humanity} -> {result.humanity_after}") + "; Stains cleared",
            "details": {"humanity_before": humanity, "stains_before": stains,
                        "humanity_after": result.humanity_after},
        }
        announce_test(caller, target, text, record, "A Remorse test is not rerolled with Willpower.")


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
        who, difficulty = v5_humanity.parse_frenzy(text)
        target = subject_with_sheet(caller, who, "frenzy tests", YOURSELF)
        willpower, humanity = target.willpower_left(), target.trait("humanity")
        # Impaired (Stains beyond Humanity, docs/v5.md): -2 dice, as on every pool.
        penalty = v5_sheet.impairment(target.sheet_values)
        result = v5_humanity.roll_frenzy(willpower, humanity, difficulty, rng=get_rng(), penalty=penalty)
        if result.resisted is False:
            set_frenzy(target, True)  # saved before anyone is told
        view = V5.frenzy_view(result)
        text = fitted(_frenzy_text(caller, target, view, result, comment))
        record = {
            "kind": "frenzy", "command": self.raw_string.strip(), "comment": comment, "system": V5.key,
            "view": view, "data": V5.record(result.roll),
            "details": {"willpower": willpower, "humanity": humanity, "resisted": result.resisted},
        }
        announce_test(caller, target, text, record, "A frenzy test is not rerolled with Willpower.")

    def end_frenzy(self):
        caller = self.caller
        target = named_or_self(caller, self.args, "Only staff end someone else's frenzy.")
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
        tell_subject(caller, target, fitted(text), tell_room(caller, fitted(text)))

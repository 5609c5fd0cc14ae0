"""
V20 resisted actions: `+contest` (docs/v20.md): both sides roll; the one with more net
successes wins and keeps its net minus the other's (`rules.v20.resist`); equal nets: nobody
wins (no tie goes to the defender in V20).

**Ruling**: the Storyteller (staff) rolls a resisted action for both sides at once, from each
character's own sheet (their wounds and defaulting apply); a botch on either side is shown as
that side's outcome, and the margin is counted from the nets as they stand.
"""

from storyteller_dice.rules import v20
from storyteller_dice.rules.display import format_roll
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import get_rng

from ..dice_base import (DiceCommand, announce, dice_system, find_character, is_staff, split_comment, split_connected)
from storyteller_dice.rules.display import escape
from ..rolls import roll_summary


def read_side(caller, text):
    name, colon, pool = text.partition(":")
    if not colon or not name.strip() or not pool.strip():
        raise DiceError("Write each side as <character>: <pool> [vs <difficulty>].")
    character = find_character(caller, name, room_only=True)
    if not hasattr(character, "roller"):
        raise DiceError(f"{escape(character.key)} has no character sheet.")
    return character, pool.strip()


class CmdContest(DiceCommand):
    """
    Roll a resisted action between two characters (staff).

    Usage:
      +contest <character>: <pool> [vs <diff>] =
               <character>: <pool> [vs <diff>] [# <comment>]

    Switches:
      private - show it only to the two characters and staff here

    Both roll their own pools (their wounds, Specialties and untrained
    Abilities apply, default difficulty 6). The side with more net successes
    wins and keeps its net successes minus the other's; equal nets: nobody
    wins. The room sees both rolls and the verdict; it is kept on the roll
    log as one entry.

    Examples:
      +contest Anna: dex+brawl = Bruno: dex+athletics vs 7
      +contest Anna: man+subterfuge vs 7 = Bruno: per+empathy # the lie
    """

    key = "+contest"
    aliases = ["contest"]
    locks = "cmd:all()"
    switch_options = ("private",)
    usage = "+contest <character>: <pool> [vs <diff>] = <character>: <pool> [vs <diff>] [# <comment>]"

    def run(self):
        caller = self.caller
        if not is_staff(caller):
            raise DiceError("Only staff roll a resisted action for both sides; ask the Storyteller.")
        text, comment = split_comment(self.args)
        first_text, equals, second_text = text.partition("=")
        if not equals:
            raise DiceError("Put '=' between the two sides.")
        system = dice_system()
        sides = [read_side(caller, first_text), read_side(caller, second_text)]
        if sides[0][0] == sides[1][0]:
            raise DiceError("A resisted action needs two different characters.")
        rng = get_rng()
        rolled = []
        for character, pool in sides:
            roller = character.roller()
            request = system.parse(pool, frozenset(), roller=roller)
            result = system.roll(request, roller, rng=rng)
            rolled.append((character, request, result, system.view(result, request)))
        outcome = v20.resist(rolled[0][2], rolled[1][2])
        names = [escape(rolled[0][0].key), escape(rolled[1][0].key)]
        if outcome.winner is None:
            verdict = f"equal nets ({rolled[0][2].successes} each): nobody wins"
        else:
            winner = names[0] if outcome.winner == "first" else names[1]
            verdict = f"{winner} wins by {outcome.margin} {'success' if outcome.margin == 1 else 'successes'}"
        private = "private" in self.switches
        shown = split_connected([rolled[0][0], rolled[1][0]])[0]
        private_to = [character.key for character in shown] + ["staff"] if private else None

        def render(width):
            lines = []
            for index, (character, _, _, view) in enumerate(rolled):
                lines.append(format_roll(view, character.key, verb="resists:" if index else "rolls:",
                                         comment=comment if index == 0 else "",
                                         prefix="[Private contest]" if private else "[Contest]", width=width))
            lines.append(f"  Verdict: {verdict}.")
            if private_to:
                lines.append("  (private: shown to " + ", ".join(escape(n) for n in private_to) + ")")
            return "\n".join(lines)

        record = {
            "kind": "contest",
            "command": self.raw_string.strip(),
            "comment": comment,
            "system": system.key,
            "view": rolled[0][3],
            "sides": [{"label": character.key, "view": view} for character, _, _, view in rolled],
            "verdict": verdict,
            "subject": rolled[0][0],
            "data": {"system": system.key, "sides": [system.record(result, request)
                                                     for _, request, result, _ in rolled],
                     "winner": outcome.winner, "margin": outcome.margin},
            "summary": f"{roll_summary(rolled[0][3])} vs {roll_summary(rolled[1][3])}: {verdict}"[:250],
        }
        shared = [rolled[0][0], rolled[1][0]]
        announce(caller, render, private=private, shared_with=shared if private else (), record=record)

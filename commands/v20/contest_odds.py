"""
+odds/contest (V20): a resisted action's exact chances (`rules.v20.contest_odds`), its sides
written as +contest's staff form writes them ('=' between them; 'vs' is each side's own
difficulty, default 6):

    +odds/contest <pool> [vs <diff>] = <dice> [vs <diff>]          (an NPC: no sheet, no wounds)
    +odds/contest <pool> [vs <diff>] = <character>[: <pool> [vs <diff>]]
    +odds/contest <character>: <pool> [vs <diff>] = <character>: <pool> [vs <diff>]

**Rulings** (docs/v20.md, "Resisted actions"): an unnamed left side is your own sheet; `=
<character>` alone rolls the first side's pool; a character is read from their sheet (staff, or
your own characters: `commands.contest_odds.read_character`); one character on both sides is
refused; no switches (a Specialty is named in the pool; a resisted action spends no Willpower).
"""

import re
from typing import NamedTuple

from storyteller_dice.rules.display import escape
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.v20.contest_odds import contest_odds
from storyteller_dice.rules.v20.system import describe as pool_text

from ..contest_odds import format_contest, odds_roller, only_contest, parse_side, read_character, side_name
from ..dice_base import refusal_text, split_comment, width_of

USAGE = "+odds/contest <pool> [vs <diff>] = [<character>:] <pool> [vs <diff>]"
OTHER_SIDE = "The other side is a number of dice (= 5 vs 7) or a character (= <name>: <pool> [vs <diff>])."
# What a pool of dice or traits has and a character's name does not (a name may have digits).
_POOLISH = re.compile(r"[+\-()]|\bvs\b|^[0-9]+$", re.IGNORECASE)
_LETTER = re.compile(r"[A-Za-z]")  # a name may have been meant
_VS = re.compile(r"\bvs\b", re.IGNORECASE)


class Side(NamedTuple):
    """One side: its label ("you", "they" or a name, escaped), the parsed request, the character."""

    label: str
    request: object
    character: object = None
    unnamed: bool = False  # "you" or "they": "you win", not "you wins"


def _named_side(cmd, name, pool_text, hint=""):
    character = read_character(cmd.caller, name, hint=hint)
    label = side_name(character.key)
    request = parse_side(cmd.system, pool_text, character.roller(), whose=f"{escape(character.key)}'s side")
    return Side(label, request, character)


def contest_sides(cmd):
    """The two `Side`s of `+odds/contest <first> = <second>`."""
    system, caller = cmd.system, cmd.caller
    text, _ = split_comment(cmd.args)
    first_text, equals, second_text = (part.strip() for part in text.partition("="))
    if not equals or not first_text or not second_text:
        raise DiceError("Put '=' between the two sides: <pool> [vs <diff>] = <dice or character> [vs <diff>].")
    name, colon, pool_text = (part.strip() for part in first_text.partition(":"))
    if colon:
        if not name or not pool_text:
            raise DiceError("Write a named side as <character>: <pool> [vs <diff>].")
        first = _named_side(cmd, name, pool_text)
    else:
        first = Side("you", parse_side(system, first_text, odds_roller(cmd)), caller, unnamed=True)
        pool_text = first_text
    name, colon, their_pool = (part.strip() for part in second_text.partition(":"))
    if colon:
        if not name or not their_pool:
            raise DiceError("Write a named side as <character>: <pool> [vs <diff>].")
        second = _named_side(cmd, name, their_pool)
    else:
        try:
            second = Side("they", parse_side(system, second_text, None, numbers_only=True), unnamed=True)
        except DiceError as err:
            if _POOLISH.search(second_text):
                hint = f" {OTHER_SIDE}" if _LETTER.search(_VS.sub(" ", second_text)) else ""
                raise DiceError(f"Their side: {refusal_text(err)}{hint}") from None
            second = _named_side(cmd, second_text, pool_text, hint=OTHER_SIDE)
    if first.character is not None and first.character == second.character:
        raise DiceError("A resisted action needs two different characters.")
    return first, second


def describe(side):
    """`Dexterity 3 + Brawl 2 (Grappling) = 5 dice, difficulty 6`, escaped (a Specialty is player text)."""
    request = side.request
    pool = pool_text(request.pool, request.get("penalty", 0), request.get("health_level", ""), request.dice)
    return f"{escape(pool)}, difficulty {request.target}"


def format_odds(first, second, figures, width=80):
    def wins(side):
        return f"{side.label} {'win' if side.unnamed else 'wins'} (more net successes)"

    head = [f"{first.label}: {describe(first)}",
            f"vs {'' if second.unnamed else second.label + ': '}{describe(second)}"]
    for side in (first, second):
        notes = side.request.get("notes", ())
        if notes:
            head.append(f"{side.label}: {escape('; '.join(notes))}")
    outcomes = [(wins(first), figures["first_wins"]), ("tie (equal nets: nobody wins)", figures["tie"]),
                (wins(second), figures["second_wins"])]
    return format_contest(
        head, outcomes,
        side_rows=[("botch", figures["first_botch"], figures["second_botch"])],
        side_names=(first.label, second.label),
        notes=["Exact, by counting; a botch is 0 net successes here, and the winner keeps its net "
               "minus the other's."],
        width=width)


def contest_odds_command(cmd):
    """Run +odds/contest (`cmd` is the +odds command; `cmd.system` is V20)."""
    cmd.usage = USAGE
    only_contest(cmd)
    first, second = contest_sides(cmd)
    figures = contest_odds(*((side.request.dice, side.request.target, side.request.option("spec"))
                             for side in (first, second)))
    cmd.msg(format_odds(first, second, figures, width=width_of(cmd.caller)))

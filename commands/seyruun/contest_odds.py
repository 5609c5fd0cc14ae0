"""
+odds/contest (Seyruun): a contested roll's exact chances (`rules.seyruun.contest_odds`):

    +odds/contest <your pool> vs <their pool>                (numbers: an NPC, 3+2)
    +odds/contest <your pool> vs <their pool>=<character>    (their sheet rolls it)
    +odds/contest <your pool> vs <character>                 (your pool, from their sheet)

**Rulings** (docs/seyruun.md): you are the attacker; a tie goes to the defender unless your base
Attribute is higher (`commands.seyruun.contest.base_attribute`); naming a character reads their
sheet (staff, or your own characters); nothing is spent; a difficulty inside a side is refused.
"""

import re

from storyteller_dice.rules.display import escape
from storyteller_dice.rules.engine import split_vs
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.seyruun.contest_odds import contest_odds

from ..contest_odds import format_contest, odds_roller, only_contest, parse_side, read_character, side_name, win_rows
from ..dice_base import refusal_text, split_comment, width_of
from .contest import base_attribute

USAGE = "+odds/contest <your pool> vs <their pool>[=<character>]   or   vs <character>"
OTHER_SIDE = ("Their side is a pool of numbers (vs 3+2), a character's pool (vs dex+stealth=<name>) "
              "or a character (vs <name>).")
_POOLISH = re.compile(r"[+\-/()]|^[0-9]+$")


def _compared(request):
    """The request, refused if it has a difficulty (a contest compares successes)."""
    if request.target_given:
        raise DiceError("A contest has no difficulty: each side's successes are compared. Put one pool "
                        "on each side of 'vs'.")
    return request


def contest_sides(cmd):
    """(your request, their request, their character or None)."""
    system, caller = cmd.system, cmd.caller
    text, _ = split_comment(cmd.args)
    other_name = None
    if "=" in text:
        text, other_name = (part.strip() for part in text.split("=", 1))
        if not other_name:
            raise DiceError("Name the character after '='.")
    mine_text, theirs_text = split_vs(text)
    if theirs_text is None or not mine_text:
        raise DiceError("Say both sides: your pool, 'vs', then theirs (numbers like 3+2, or a character).")
    mine = _compared(parse_side(system, mine_text, odds_roller(cmd)))
    if other_name:
        character = read_character(caller, other_name, dice="numbers (vs 3+2)")
        theirs = parse_side(system, theirs_text, character.roller(), whose=f"{escape(character.key)}'s side")
        return mine, _compared(theirs), character
    try:
        theirs = parse_side(system, theirs_text, None, numbers_only=True)
    except DiceError as err:
        if _POOLISH.search(theirs_text):
            raise DiceError(f"Their side: {refusal_text(err)}") from None
    else:
        return mine, _compared(theirs), None
    character = read_character(caller, theirs_text, dice="numbers (vs 3+2)", hint=OTHER_SIDE)
    theirs = parse_side(system, mine_text, character.roller(), whose=f"{escape(character.key)}'s side")
    return mine, _compared(theirs), character


def format_odds(mine, theirs, character, figures, width=80):
    them = side_name(character.key) if character is not None else "they"
    a_attr, d_attr = base_attribute(mine.pool), base_attribute(theirs.pool)
    head = [f"you: {escape(mine.pool.describe())} (base Attribute {a_attr})",
            f"vs {them + ': ' if character is not None else ''}{escape(theirs.pool.describe())} "
            f"(base Attribute {d_attr})"]
    for label, request in (("you", mine), (them, theirs)):
        notes = request.pool.notes()
        if notes:
            head.append(f"{label}: {escape('; '.join(notes))}")
    named = "s" if character is not None else ""
    taker = "you take" if figures["tie_winner"] == "attacker" else f"{them} take{named}"
    outcomes, overall = win_rows(figures, them, bool(named), tie=f"tie ({taker} it: base Attribute {a_attr} to {d_attr})")
    notes = []
    if mine.pool.chance or theirs.pool.chance:
        notes.append("A chance die's botch (a 1) is a dramatic botch.")
    notes.append("Exact, by counting; a tie goes to the defender unless your base Attribute is higher.")
    return format_contest(head, outcomes, overall=overall,
                          side_rows=[("botch", figures["attacker_botch"], figures["defender_botch"])],
                          side_names=("you", them), notes=notes, width=width)


def contest_odds_command(cmd):
    """Run +odds/contest (`cmd` is the +odds command; `cmd.system` is Seyruun)."""
    cmd.usage = USAGE
    only_contest(cmd)
    mine, theirs, character = contest_sides(cmd)
    figures = contest_odds(mine.dice, theirs.dice, base_attribute(mine.pool), base_attribute(theirs.pool))
    cmd.msg(format_odds(mine, theirs, character, figures, width=width_of(cmd.caller)))

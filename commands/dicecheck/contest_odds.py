"""
+odds/contest (The Dice Check): an opposed check's exact chances (`rules.dicecheck.contest_odds`),
written as +roll writes one:

    +odds/contest <your pool>:<their trait> <character>    STR:STR Bob
    +odds/contest <your pool>:<their dice>                 STR:12d(6+), Swords (Cut):9

**Rulings** (docs/dicecheck.md): you are the active side, so a tie is yours (their Hits are your
TN); naming a character reads their sheet anywhere (staff, or your own characters) and their
Focus counts only if they have it; the right side is a pool, never a TN; no other switch.
"""

from storyteller_dice.rules.dicecheck.contest_odds import contest_odds
from storyteller_dice.rules.display import escape

from ..contest_odds import format_contest, odds_roller, only_contest, read_character, side_name
from ..dice_base import split_comment, width_of
from ..odds import percent

USAGE = "+odds/contest <pool>:<their pool> <character>   or   <pool>:<dice>d(<X>+)"


def contest_sides(cmd):
    """(your request, resolved: its "other" is their CheckPool; their character or None)."""
    system, caller = cmd.system, cmd.caller
    text, _ = split_comment(cmd.args)
    request = system.parse_contest(text, roller=odds_roller(cmd))
    if not request.get("needs_target"):
        return request, None
    character = read_character(caller, request.get("target_name"), dice="dice (12d(6+))")
    return system.resolve_target(request, character.roller(), name=character.key), character


def format_odds(request, character, figures, width=80):
    other = request.get("other")
    them = side_name(character.key) if character is not None else "they"
    s = "s" if character is not None else ""
    head = [f"you: {escape(request.pool.text)}",
            f"vs {them + ': ' if character is not None else ''}{escape(other.text)}"]
    outcomes = [("you win (more hits)", figures["active_wins"]), ("tie (you take it)", figures["tie"]),
                (f"{them} win{s} (more hits)", figures["other_wins"])]
    overall = (f"You succeed overall {percent(figures['active_wins_overall'])} (your Hits at least theirs); "
               f"{them} win{s} overall {percent(figures['other_wins_overall'])}.")
    degrees = ", ".join(f"DoS {degree} {percent(p)}" for degree, p in sorted(figures["dos"].items()))
    notes = [f"Your big botch ({them} {'have' if not s else 'has'} 3 or more Hits more): "
             f"{percent(figures['big_botch'])}."]
    if degrees:
        notes.append(f"You succeed by Degree of Success: {degrees}.")
    notes.append("Exact, by counting; their Hits are your TN, so a tie is yours.")
    return format_contest(head, outcomes, overall=overall, notes=notes, width=width)


def contest_odds_command(cmd):
    """Run +odds/contest (`cmd` is the +odds command; `cmd.system` is The Dice Check)."""
    cmd.usage = USAGE
    only_contest(cmd, rolled_by="an opposed +roll")
    request, character = contest_sides(cmd)
    other = request.get("other")
    figures = contest_odds(request.dice, request.pool.threshold, other.dice, other.threshold)
    cmd.msg(format_odds(request, character, figures, width=width_of(cmd.caller)))

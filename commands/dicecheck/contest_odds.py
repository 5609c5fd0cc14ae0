"""
+odds/contest (The Dice Check): the exact chances of an opposed check before it is rolled, in
the rules' notation, as +roll writes an opposed check:

    +odds/contest <your pool>:<their trait> <character>    STR:STR Bob, Athletics (Grapple):Athletics (Grapple) Bob
    +odds/contest <your pool>:<their dice>                 STR:12d(6+), Swords (Cut):9 (9 dice at 6+)

You are the active side: your Hits against theirs, their Hits your TN. The figures are
`rules.dicecheck_contest_odds.contest_odds` (`rules.dicecheck_system.parse_contest` reads the
notation): more Hits wins; a tie is yours (Hits >= TN succeeds); your big botch (they have 3
or more Hits more) and each Degree of Success of a win. Exact Fractions
(bench/bench_contest_odds.py).

**Rulings**:

- Naming a character reads their sheet: open to staff and to a player for their own
  characters only (`commands.contest_odds`), anywhere in the game. (Plain `+odds STR:STR
  <target>` and +roll read a target in the room, as the opposed check needs them there.)
  Their Focus counts only if they have it, as in the opposed check.
- Under /contest the right side is a pool, never a TN: `STR:3` is Strength against 3 dice at
  6+ (a number is dice at 6+ on either side, as for +check).
- +odds' other switches are refused: /damage is never opposed.
"""

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
    from storyteller_dice.rules.dicecheck_contest_odds import contest_odds

    cmd.usage = USAGE
    only_contest(cmd, rolled_by="an opposed +roll")
    request, character = contest_sides(cmd)
    other = request.get("other")
    figures = contest_odds(request.dice, request.pool.threshold, other.dice, other.threshold)
    cmd.msg(format_odds(request, character, figures, width=width_of(cmd.caller)))

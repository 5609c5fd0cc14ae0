"""
What every wing's `+odds/contest` shares: reading another character's sheet for the odds, refusing +odds'
other switches, and the table of a contest's chances, drawn with `rules.display` at the
caller's width. The figures are each system's (`rules.<key>_contest_odds`); no dice logic here.

**Ruling** (every system's): naming a character reads their sheet, which a player may not see
otherwise; it is open to staff, and to a player only for their own characters (the same
account). Their sheet is never shown, but a few +odds/contest calls would reveal their dots.
"""

from storyteller_dice.rules.contest_odds import contest_figures
from storyteller_dice.rules.display import escape, shares, visible_len, wrap
from storyteller_dice.rules.engine import split_vs
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.typeclasses import access

from .dice_base import find_character, refusal_text, split_comment, width_of
from .odds import percent

NOT_YOURS = ("Only staff may read another player's character for contest odds; "
             "give their pool as {dice} instead.")


def may_read(caller, character):
    """Staff, or the caller's own character (the same account): `typeclasses.access`."""
    return access.may_use(caller, character)


def read_character(caller, name, dice="a number of dice", hint=""):
    """
    The character called `name` (anywhere in the game) whose sheet the caller may read.

    Args:
        dice (str): how the system writes a pool of plain dice, for the refusal.
        hint (str): said after "there is no character called ..." (what else the text could be).

    Raises:
        DiceError: no such character (or several), not the caller's to read, no sheet.
    """
    try:
        character = find_character(caller, name)
    except DiceError as err:
        raise DiceError(f"{err} {hint}".strip()) from None
    if not may_read(caller, character):
        raise DiceError(NOT_YOURS.format(dice=dice))
    if not hasattr(character, "roller"):
        raise DiceError(f"{escape(character.key)} has no character sheet.")
    return character


def parse_side(system, text, roller, whose=None, numbers_only=False):
    """
    One side's request, parsed with no switches (a contest's sides take none). `whose`
    ("Char2's side") prefixes a refusal, so the caller knows which side was refused.
    """
    try:
        return system.parse(text, frozenset(), roller=roller, numbers_only=numbers_only)
    except DiceError as err:
        if whose is None:
            raise
        raise DiceError(f"{whose}: {refusal_text(err)}") from None


def only_contest(cmd, rolled_by="+contest"):
    """Refuse +odds' other switches with /contest: the contest is counted as `rolled_by` rolls it."""
    others = [name for name in cmd.switches if name != "contest"]
    if others:
        raise DiceError(f"+odds/contest takes no other switch (/{others[0]}): it counts the contest as "
                        f"{rolled_by} rolls it.")


def _cells(probabilities):
    return [f"{whole}.{tenth}%" for whole, tenth in (divmod(count, 10) for count in shares(probabilities))]


def _pad(markup, columns):
    return markup + " " * max(0, columns - visible_len(markup))


def format_contest(head, outcomes, overall="", side_rows=(), side_names=("you", "they"), notes=(), width=80):
    """
    A contest's chances as text (markup; player text already escaped), within `width` columns.

    Args:
        head (list of str): the first lines (the two pools).
        outcomes (list of (label, Fraction)): the ways the contest ends, each once (they sum to
            1: shown as tenths of a percent summing to 100.0%).
        overall (str): a line after them (who wins overall, when a tie has a winner).
        side_rows (list of (label, Fraction or None, Fraction or None)): each side's own
            chances (a botch), in two columns headed by `side_names`; None: "-" (not possible
            for that side).
        notes (list of str): the last lines.
    """
    lines = [f"|w[Contest odds]|n {head[0]}"] + [f"  {line}" for line in head[1:]]
    label_w = max(visible_len(label) for label, _ in outcomes)
    for (label, _), cell in zip(outcomes, _cells([p for _, p in outcomes])):
        lines.append(f"  {_pad(label, label_w)}  {cell:>6}")
    if overall:
        lines.append(f"  {overall}")
    if side_rows:
        head_w = max(visible_len(label) for label, _, _ in side_rows)
        cols = [max(8, visible_len(name) + 2) for name in side_names]
        lines.append(f"  {' ' * head_w}  " + "  ".join(" " * (col - visible_len(name)) + name
                                                        for name, col in zip(side_names, cols)))
        for label, *chances in side_rows:
            shown = ["-" if p is None else percent(p) for p in chances]
            lines.append(f"  {_pad(label, head_w)}  " + "  ".join(f"{cell:>{col}}" for cell, col in zip(shown, cols)))
    lines.extend(f"  {note}" for note in notes)
    out = []
    for line in lines:
        out.extend(wrap(line, width))
    return "\n".join(out)


def odds_roller(cmd):
    """The caller's roller for the odds (a sheet's, or an empty one for a caller without a sheet)."""
    caller = cmd.caller
    return caller.roller() if hasattr(caller, "roller") else cmd.system.roller(caller.key, {}, {})


def win_rows(figures, them="they", named=False, noun="successes", tie="", overall_end="."):
    """
    The three ways a contest ends, `you win`, the tie, `they win` (figures `attacker_wins`, `tie`,
    `defender_wins`), and the overall line when the tie has a winner (`*_wins_overall`).
    """
    s = "s" if named else ""
    outcomes = [(f"you win (more {noun})", figures["attacker_wins"]), (tie or f"tie ({them} take{s} it)", figures["tie"]),
                (f"{them} win{s} (more {noun})", figures["defender_wins"])]
    if "attacker_wins_overall" not in figures:
        return outcomes, ""
    return outcomes, (f"You win overall {percent(figures['attacker_wins_overall'])}; {them} win{s} overall "
                      f"{percent(figures['defender_wins_overall'])}{overall_end}")


def side_name(name, limit=12):
    """A character's name for a column head or a label: escaped, at most `limit` characters."""
    return escape(name, limit)


def distribution_odds(cmd, tie_winner="defender"):
    """
    `+odds/contest <your pool> vs <their pool>` for a system whose contest sides are its
    ordinary rolls: each side's score distribution (`System.odds`, its `OddsView`) compared in
    one pass (`rules.contest_odds.contest_figures`); a tie goes to `tie_winner` ("attacker",
    "defender" or None: nobody). Your pool is read from your sheet, theirs as numbers.
    """
    only_contest(cmd)
    system = cmd.system
    mine, theirs = split_vs(split_comment(cmd.args)[0])
    if theirs is None or not mine:
        raise DiceError("Put your pool, 'vs', then the other pool.")
    roller = odds_roller(cmd)
    a = system.odds(parse_side(system, mine, roller), roller)
    b = system.odds(parse_side(system, theirs, None, whose="Their side", numbers_only=True))
    figures = contest_figures(a.distribution, b.distribution, ("attacker", "defender"), tie_winner)
    tie = {"attacker": "tie (you take it)", "defender": ""}.get(tie_winner, "tie (nobody wins)")
    outcomes, overall = win_rows(figures, noun=a.noun[1], tie=tie)
    cmd.msg(format_contest([f"you: {escape(a.pool)}", f"vs they: {escape(b.pool)}"], outcomes, overall=overall,
                           notes=["Exact, by counting."], width=width_of(cmd.caller)))

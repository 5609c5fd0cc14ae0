"""
+odds/contest (V5): the exact chances of a contest before it is rolled.

    +odds/contest <pool> [hunger <n>] vs <pool> [hunger <m>]
    +odds/contest <pool> [hunger <n>] vs <character> [with <their pool>]

Your pool is read as +roll reads it (traits from your sheet, your Hunger unless `hunger <n>`
follows it). The other side is a number of dice (Hunger 0 unless `hunger <m>` follows it) or
a character: their sheet gives the pool (the same traits as yours, or `with <their pool>`) and
their Hunger. The figures are `rules.v5_contest_odds.contest_odds`: exact Fractions, by
convolving the two sides' success counts (milliseconds at 50 dice a side, see
bench/bench_v5_odds.py).

**Rulings:**

- You are the attacker (the one who challenges, as with +contest): a tie goes to the
  defender (docs/v5.md), and the output says so.
- `vs <character>` reads another character's sheet and Hunger, which a player may not see
  otherwise: it is open to staff, and to a player only for their own characters (the same
  account). No consent flag: the other side's sheet is never shown, but a few +odds/contest
  calls would reveal their dots, so only staff or the owner may ask.
- A right-hand side that reads as a number of dice is one; anything else is a character name.
- +odds' other switches (`/reroll`, `/willpower`) are refused with /contest, in the words every
  system's +odds/contest uses: the contest is counted as +contest rolls it, with neither.
"""

import re

from storyteller_dice.rules.errors import DiceError

from ..contest_odds import only_contest
from ..dice_base import find_character, split_comment, width_of
from .rolls import split_hunger

USAGE = "+odds/contest <pool> [hunger <n>] vs <pool or character> [hunger <m>]"
_VS = re.compile(r"\s+vs\.?\s+", re.IGNORECASE)
_WITH = re.compile(r"\s+with\s+", re.IGNORECASE)


def _side(system, text, roller):
    """(request, Hunger) for one side's text under `roller` (its sheet and Hunger)."""
    import dataclasses

    text, level = split_hunger(text)
    if level is not None:
        roller = dataclasses.replace(roller, state={**roller.state, "hunger": level})
    if not text:
        raise DiceError("Say the pool on each side of 'vs'.")
    request = system.parse(text, frozenset(), roller=roller)
    if request.target_given:
        raise DiceError("A contest has no difficulty: put one pool on each side of 'vs'.")
    return request, system._hunger(roller, request)


def _number_pool(system, text):
    try:
        system.parse(split_hunger(text)[0], frozenset(), numbers_only=True)
    except DiceError:
        return False
    return True


def _may_read(caller, character):
    from storyteller_dice.typeclasses import access

    return access.may_use(caller, character)


def contest_parts(cmd):
    """((your request, Hunger, pool text), (theirs ...), the defender's name or '')."""
    from storyteller_dice.rules.engine import Roller

    system = cmd.system
    text, _ = split_comment(cmd.args)
    pieces = _VS.split(text, maxsplit=1)
    if len(pieces) != 2 or not pieces[0].strip() or not pieces[1].strip():
        raise DiceError("Put your pool, 'vs', then the other pool or a character.")
    mine_text, theirs_text = pieces[0].strip(), pieces[1].strip()
    caller = cmd.caller
    roller = caller.roller() if hasattr(caller, "roller") else system.roller(caller.key, {}, {})
    mine, my_hunger = _side(system, mine_text, roller)
    name = ""
    if _number_pool(system, theirs_text):
        theirs, their_hunger = _side(system, theirs_text, Roller(name="them", state={"hunger": 0}))
    else:
        found = _WITH.split(theirs_text, maxsplit=1)
        who = found[0].strip()
        their_pool = found[1].strip() if len(found) == 2 else split_hunger(mine_text)[0]
        if split_hunger(who)[1] is not None:
            raise DiceError("A character's Hunger comes from their sheet: leave 'hunger' out.")
        character = find_character(caller, who)
        if not _may_read(caller, character):
            raise DiceError("Only staff may read another player's character for contest odds; "
                            "give their pool as a number of dice instead.")
        if not hasattr(character, "roller"):
            raise DiceError("That character has no sheet.")
        theirs, their_hunger = _side(system, their_pool, character.roller())
        name = character.key
    return (mine, my_hunger), (theirs, their_hunger), name


def format_contest(system, mine, theirs, name, figures, width=80):
    """The contest's chances as text (markup; names escaped), within `width` columns."""
    from storyteller_dice.rules.display import _fit, escape, shares

    from ..odds import percent

    (my_request, my_hunger), (their_request, their_hunger) = mine, theirs
    my_pool = escape(system.pool_text(my_request.pool, my_request.dice, my_hunger))
    their_pool = escape(system.pool_text(their_request.pool, their_request.dice, their_hunger))
    them = escape(name) if name else "they"
    who = f"{them}: " if name else ""
    lines = [f"|w[Contest odds]|n you: {my_pool}", f"  vs {who}{their_pool}"]
    split = shares([figures["attacker_wins"], figures["tie"], figures["defender_wins"]])
    labels = ["you win (more successes)", f"tie ({them} take{'s' if name else ''} it)",
              f"{them} win{'s' if name else ''} (more successes)"]
    cells = [f"{whole}.{tenth}%" for whole, tenth in (divmod(count, 10) for count in split)]
    label_w = max(len(label) for label in labels)
    for label, cell in zip(labels, cells):
        lines.append(f"  {label:<{label_w}}  {cell:>6}")
    lines.append(f"  You win overall {percent(figures['attacker_wins_overall'])}; "
                 f"{them} win{'s' if name else ''} overall {percent(figures['defender_wins_overall'])} "
                 f"(a tie goes to the defender).")
    rows = (("critical win", "critical"), ("messy critical", "messy_critical"),
            ("bestial failure", "bestial_failure"), ("total failure", "total_failure"))
    head_w = max(len(label) for label, _ in rows)
    col = max(8, min(len(escape(name, 12)) + 2 if name else 6, 14))
    lines.append(f"  {'':<{head_w}}  {'you':>8}  {escape(name, 12) if name else 'they':>{col}}")
    for label, key in rows:
        lines.append(f"  {label:<{head_w}}  {percent(figures['attacker_' + key]):>8}  "
                     f"{percent(figures['defender_' + key]):>{col}}")
    rule = "a bestial failure is a lost roll with a Hunger 1" if system.bestial_rule == "official" \
        else "a bestial failure is a total failure with Hunger dice"
    lines.append(f"  Exact, by counting; {rule}.")
    return _fit(lines, width)


def contest_odds_command(cmd):
    """Run +odds/contest (`cmd` is the +odds command; `cmd.system` is V5)."""
    from storyteller_dice.rules.v5_contest_odds import contest_odds

    cmd.usage = USAGE
    only_contest(cmd)
    mine, theirs, name = contest_parts(cmd)
    figures = contest_odds(mine[0].dice, mine[1], theirs[0].dice, theirs[1], cmd.system.bestial_rule)
    cmd.msg(format_contest(cmd.system, mine, theirs, name, figures, width=width_of(cmd.caller)))

"""
+odds/contest (V5): the exact chances of a contest before it is rolled, drawn by the shared
contest odds (`commands.contest_odds`) from V5's figures (`rules.v5_contest_odds`).

    +odds/contest <pool> [hunger <n>] vs <pool> [hunger <m>]
    +odds/contest <pool> [hunger <n>] vs <character> [with <their pool>]

**Rulings:** you are the attacker (the one who challenges, as with +contest): a tie goes to
the defender (docs/v5.md). A right-hand side that reads as a number of dice is one (Hunger 0
unless `hunger <m>` follows); anything else is a character, whose sheet gives the pool (yours,
or `with <their pool>`) and Hunger: open to staff and to a player for their own characters only
(`commands.contest_odds.read_character`). +odds' other switches are refused.
"""

import dataclasses
import re

from storyteller_dice.rules.display import escape
from storyteller_dice.rules.engine import Roller
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.v5_contest_odds import contest_odds

from .. import contest_odds as shared
from ..dice_base import split_comment, width_of
from ..odds import percent
from .rolls import split_hunger

USAGE = "+odds/contest <pool> [hunger <n>] vs <pool or character> [hunger <m>]"
_VS = re.compile(r"\s+vs\.?\s+", re.IGNORECASE)
_WITH = re.compile(r"\s+with\s+", re.IGNORECASE)
SIDE_ROWS = (("critical win", "critical"), ("messy critical", "messy_critical"),
             ("bestial failure", "bestial_failure"), ("total failure", "total_failure"))


def _side(system, text, roller):
    """(request, Hunger) for one side's text under `roller` (its sheet and Hunger)."""
    text, level = split_hunger(text)
    if level is not None:
        roller = dataclasses.replace(roller, state={**roller.state, "hunger": level})
    if not text:
        raise DiceError("Say the pool on each side of 'vs'.")
    request = system.parse(text, frozenset(), roller=roller)
    if request.target_given:
        raise DiceError("A contest has no difficulty: put one pool on each side of 'vs'.")
    return request, system._hunger(roller, request)


def _their_side(cmd, mine_text, theirs_text):
    """(their request and Hunger, their name or '')."""
    try:
        cmd.system.parse(split_hunger(theirs_text)[0], frozenset(), numbers_only=True)
    except DiceError:
        found = _WITH.split(theirs_text, maxsplit=1) + [""]
        who, pool = found[0].strip(), found[1].strip()
    else:
        return _side(cmd.system, theirs_text, Roller(name="them", state={"hunger": 0})), ""
    if split_hunger(who)[1] is not None:
        raise DiceError("A character's Hunger comes from their sheet: leave 'hunger' out.")
    character = shared.read_character(cmd.caller, who)
    return _side(cmd.system, pool or split_hunger(mine_text)[0], character.roller()), character.key


def contest_parts(cmd):
    """((your request, Hunger), (theirs), the defender's name or '')."""
    pieces = _VS.split(split_comment(cmd.args)[0], maxsplit=1)
    if len(pieces) != 2 or not pieces[0].strip() or not pieces[1].strip():
        raise DiceError("Put your pool, 'vs', then the other pool or a character.")
    caller, system = cmd.caller, cmd.system
    roller = caller.roller() if hasattr(caller, "roller") else system.roller(caller.key, {}, {})
    mine = _side(system, pieces[0].strip(), roller)
    theirs, name = _their_side(cmd, pieces[0].strip(), pieces[1].strip())
    return mine, theirs, name


def format_contest(system, mine, theirs, name, figures, width=80):
    """The contest's chances as text (markup; names escaped), within `width` columns."""
    pools = [escape(system.pool_text(request.pool, request.dice, hunger)) for request, hunger in (mine, theirs)]
    them, s = (escape(name), "s") if name else ("they", "")
    outcomes = [("you win (more successes)", figures["attacker_wins"]), (f"tie ({them} take{s} it)", figures["tie"]),
                (f"{them} win{s} (more successes)", figures["defender_wins"])]
    overall = (f"You win overall {percent(figures['attacker_wins_overall'])}; {them} win{s} overall "
               f"{percent(figures['defender_wins_overall'])} (a tie goes to the defender).")
    rows = [(label, figures["attacker_" + key], figures["defender_" + key]) for label, key in SIDE_ROWS]
    rule = ("a bestial failure is a lost roll with a Hunger 1" if system.bestial_rule == "official"
            else "a bestial failure is a total failure with Hunger dice")
    head = [f"you: {pools[0]}", f"vs {them + ': ' if name else ''}{pools[1]}"]
    return shared.format_contest(head, outcomes, overall, rows, ("you", shared.side_name(name) if name else "they"),
                                 [f"Exact, by counting; {rule}."], width)


def contest_odds_command(cmd):
    """Run +odds/contest (`cmd` is the +odds command; `cmd.system` is V5)."""
    cmd.usage = USAGE
    shared.only_contest(cmd)
    mine, theirs, name = contest_parts(cmd)
    figures = contest_odds(mine[0].dice, mine[1], theirs[0].dice, theirs[1], cmd.system.bestial_rule)
    cmd.msg(format_contest(cmd.system, mine, theirs, name, figures, width=width_of(cmd.caller)))

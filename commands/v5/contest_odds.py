"""
+odds/contest (V5): `+odds/contest <pool> [hunger <n>] vs <pool> [hunger <m>]` or `vs <character>
[with <their pool>]`: V5's figures (`rules.v5.contest_odds`) drawn by the shared contest odds.
**Rulings**: you are the attacker, so a tie is the defender's (docs/v5.md); a right side that reads
as dice is dice, else a character, whose sheet (staff's or the owner's to read) gives the pool and Hunger.
"""

import re

from storyteller_dice.rules.display import escape
from storyteller_dice.rules.engine import Roller, split_vs
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.v5.contest_odds import contest_odds

from .. import contest_odds as shared
from ..dice_base import split_comment, width_of
from .rolls import at_hunger, split_hunger

USAGE = "+odds/contest <pool> [hunger <n>] vs <pool or character> [hunger <m>]"
_WITH = re.compile(r"\s+with\s+", re.IGNORECASE)
SIDE_ROWS = (("critical win", "critical"), ("messy critical", "messy_critical"),
             ("bestial failure", "bestial_failure"), ("total failure", "total_failure"))


def _side(system, text, roller):
    """(request, Hunger) for one side's text under `roller` (its sheet and Hunger)."""
    text, roller = at_hunger(text, roller)
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
        who, pool = (part.strip() for part in (_WITH.split(theirs_text, maxsplit=1) + [""])[:2])
    else:
        return _side(cmd.system, theirs_text, Roller(name="them", state={"hunger": 0})), ""
    if split_hunger(who)[1] is not None:
        raise DiceError("A character's Hunger comes from their sheet: leave 'hunger' out.")
    character = shared.read_character(cmd.caller, who)
    return _side(cmd.system, pool or split_hunger(mine_text)[0], character.roller()), character.key


def contest_parts(cmd):
    """((your request, Hunger), (theirs), the defender's name or '')."""
    mine_text, theirs_text = split_vs(split_comment(cmd.args)[0])
    if not theirs_text or not mine_text:
        raise DiceError("Put your pool, 'vs', then the other pool or a character.")
    mine = _side(cmd.system, mine_text, shared.odds_roller(cmd))
    return (mine,) + _their_side(cmd, mine_text, theirs_text)


def format_contest(system, mine, theirs, name, figures, width=80):
    """The contest's chances as text (markup; names escaped), within `width` columns."""
    pools = [escape(system.pool_text(request.pool, request.dice, hunger)) for request, hunger in (mine, theirs)]
    them = escape(name) if name else "they"
    outcomes, overall = shared.win_rows(figures, them, bool(name), overall_end=" (a tie goes to the defender).")
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

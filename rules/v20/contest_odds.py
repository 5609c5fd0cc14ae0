"""
Exact odds of a V20 resisted action (docs/v20.md, "Resisted actions"), decided as +contest
decides one (`rules.v20.resist`): more net successes wins; equal nets, 0 against 0 included,
mean nobody wins (`TIE_WINNER` None). A botch is a net of 0 in the comparison and each side's
own outcome. A side is (dice, difficulty, Specialty): a resisted action spends no Willpower.

Only V20's distribution is here: each side's nets as whole ways out of 10**dice
(`rules.v20.odds`, a four-term polynomial cached per pool), compared by
`rules.contest_odds.contest_figures`. "first" and "second" are the sides in the order written.

Pure Python, standard library only.
"""

from typing import NamedTuple

from .. import v20
from ..contest_odds import contest_figures

FIRST, SECOND = "first", "second"  # as rules.v20.resist names the winner; None: nobody
TIE_WINNER = None  # docs/v20.md: equal nets, nobody wins

KEYS = ("first_wins", "second_wins", "tie", "first_botch", "second_botch")


class Side(NamedTuple):
    """One side of a resisted action: dice rolled (after wounds), difficulty 2-10, Specialty."""

    dice: int
    difficulty: int = v20.DEFAULT_DIFFICULTY
    specialty: bool = False


def side_ways(side):
    """
    ((net, ways), ...) for every net that can happen, and the botch's ways, out of 10**dice.

    Raises:
        DiceError: a pool, difficulty or Specialty flag out of bounds (`rules.v20.odds`).
    """
    exact = v20.odds(side.dice, side.difficulty, specialty=side.specialty)
    total = 10**side.dice
    ways = tuple((net, int(chance * total)) for net, chance in exact["distribution"].items())
    return ways, int(exact["botch"] * total)


def side_distribution(side):
    """A side's nets, `((net, Fraction), ...)` in order (an `OddsView.distribution`)."""
    return tuple(sorted(v20.odds(side.dice, side.difficulty, specialty=side.specialty)["distribution"].items()))


def contest_odds(first, second):
    """
    Exact chances of a V20 resisted action, as Fractions.

    Args:
        first, second (Side or a (dice, difficulty, specialty) tuple): the two sides, 1-50
            dice each, difficulty 2-10.

    Returns:
        dict over KEYS: first_wins and second_wins (more net successes), tie (equal nets:
        nobody wins, `TIE_WINNER`), first_botch and second_botch (each side's own botch).

    Raises:
        DiceError: a side out of bounds.
    """
    first, second = Side(*first), Side(*second)
    a, a_botch = side_ways(first)
    b, b_botch = side_ways(second)
    extra = {"first_botch": a_botch * 10**second.dice, "second_botch": b_botch * 10**first.dice}
    return contest_figures(a, b, (FIRST, SECOND), TIE_WINNER, extra)

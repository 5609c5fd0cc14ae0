"""
Exact odds of an opposed Dice Check as a contest (docs/dicecheck.md), decided as +roll decides
one (`rules.dicecheck.evaluate_opposed`): the active side succeeds with Hits >= the other's, so
the tie is its own; its failure is a big botch when the other side has 3 or more Hits more; a
success's Degree comes from the Effect. The other side only sets the TN: no botch of its own.

Only The Dice Check's distribution is here: each side's Hits are binomial (`rules.dicecheck.odds`
at TN 0), whole ways out of 10**dice, compared by `rules.contest_odds.contest_figures`; every
margin (the big botch, each Degree) is the same pass with one side moved
(`rules.contest_odds.at_least`). The figures equal `rules.dicecheck.opposed_odds`.

Pure Python, standard library only.
"""

from fractions import Fraction

from .. import dicecheck
from ..contest_odds import at_least, contest_figures

ACTIVE, OTHER = "active", "other"
TIE_WINNER = ACTIVE  # rules.dicecheck's ruling: Hits >= TN succeeds

KEYS = ("active_wins", "other_wins", "tie", "active_wins_overall", "other_wins_overall", "big_botch")


def side_ways(pool, threshold):
    """((hits, ways), ...) out of 10**pool, for every number of Hits that can happen."""
    total = dicecheck.SIDES**pool
    return tuple((hits, int(p * total)) for hits, p in dicecheck.odds(pool, threshold, 0)["hits"].items())


def contest_odds(active_pool, active_threshold, other_pool, other_threshold):
    """
    Exact chances of an opposed check, as Fractions.

    Args:
        active_pool, other_pool (int): dice, 0-50 each (0 dice make no Hits).
        active_threshold, other_threshold (int): X of X+, 1-10.

    Returns:
        dict over KEYS: active_wins and other_wins (more Hits), tie (equal Hits: the active
        side's, `TIE_WINNER`), active_wins_overall (= the active side's success: more Hits or
        a tie), other_wins_overall (= the active side's failure), big_botch (the other side has
        3 or more Hits more); and "dos": Degree of Success -> chance, for every degree a
        success can have (summing to active_wins_overall).

    Raises:
        DiceError: a pool or threshold out of bounds.
    """
    a = side_ways(active_pool, active_threshold)
    o = side_ways(other_pool, other_threshold)
    answer = contest_figures(a, o, (ACTIVE, OTHER), TIE_WINNER, {"big_botch": at_least(o, a, dicecheck.BIG_BOTCH)})
    denominator = dicecheck.SIDES ** (active_pool + other_pool)
    # Degree d covers Effects 2**(d-1) .. 2**d - 1 (the first degree also Effect 0).
    dos, degree, low = {}, 1, 0
    while low <= active_pool:
        high = 2**degree
        ways = at_least(a, o, low) - at_least(a, o, high)
        if ways:
            dos[degree] = Fraction(ways, denominator)
        degree, low = degree + 1, high
    answer["dos"] = dos
    return answer

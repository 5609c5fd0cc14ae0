"""
Exact odds of an opposed Dice Check as a contest (docs/dicecheck.md: `Athletics (Grapple):Athletics
(Grapple)`, both sides roll and the other side's Hits are the TN), decided as +roll decides one
(`rules.dicecheck.evaluate_opposed`): the active side (the one who rolls against the other)
succeeds with Hits >= the other's Hits, so an opposed tie goes to the active side (the ruling in
`rules.dicecheck`: Hits >= TN is a success, with Effect 0). Its failure is a big botch when the
other side has 3 or more Hits more (botch margin = their Hits - yours); on a success its Degree
of Success comes from the Effect (yours - theirs). The other side is not judged: it only sets
the TN, so it has no botch of its own.

Counting: each side's Hits are binomial (`rules.dicecheck.odds` at TN 0), whole ways out of
10**dice; the sides are compared in one pass (`rules.contest_odds.compare`), and every margin
the figures need (a big botch: theirs - yours >= 3; a Degree of Success: Effect >= 2**k) is the
same pass with one side moved (`rules.contest_odds.at_least`), so no pair of Hits is multiplied
out. The figures equal `rules.dicecheck.opposed_odds` (which does multiply every pair).

Pure Python, standard library only.
"""

from fractions import Fraction

from . import dicecheck
from .contest_odds import at_least, contest_figures

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

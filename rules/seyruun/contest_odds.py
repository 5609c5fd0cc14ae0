"""
Exact odds of a Seyruun contested roll (docs/seyruun.md, "Roll types"), decided as +contest
decides one (`rules.seyruun.contest`): more successes wins; a tie goes to the defender unless
the attacker's base Attribute is higher (whole numbers from 1 up). Each side is judged at Simple
for its own botch (no successes and a 1; a chance die's 1: a dramatic botch).

Only Seyruun's distribution is here: each side's successes as whole ways out of 10**(dice
rolled) (`rules.seyruun.distribution`), compared by `rules.contest_odds.contest_figures`; the
tie goes whole to the side the Attributes give it.

Pure Python, standard library only.
"""

from .. import seyruun
from ..checks import is_int
from ..contest_odds import contest_figures
from ..errors import DiceError

ATTACKER, DEFENDER = "attacker", "defender"

KEYS = ("attacker_wins", "defender_wins", "tie", "attacker_wins_overall", "defender_wins_overall",
        "attacker_botch", "defender_botch")


def _attribute(value, whose):
    if not is_int(value) or value < 1:
        raise DiceError(f"The {whose}'s Attribute must be a whole number 1 or more, not {value!r}.")
    return value


def tie_winner(attacker_attribute, defender_attribute):
    """Who takes a tie (docs/seyruun.md): the defender, unless the attacker's base Attribute is higher."""
    attacker_attribute = _attribute(attacker_attribute, ATTACKER)
    defender_attribute = _attribute(defender_attribute, DEFENDER)
    return ATTACKER if attacker_attribute > defender_attribute else DEFENDER


def rolled(dice):
    """Dice a pool of `dice` (after modifiers) rolls: one chance die for 0 or fewer, at most 10."""
    total = seyruun.check_pool_size(dice)
    return 1 if total <= 0 else min(total, seyruun.MAX_ROLLED)


def side_ways(dice):
    """((successes, ways), ...) out of 10**rolled(dice), and the ways of a botch."""
    n = rolled(dice)
    total = 10**n
    ways = tuple((s, int(p * total)) for s, p in seyruun.distribution(dice).items())
    return ways, int(seyruun.odds(dice, seyruun.MIN_DIFFICULTY)["botch"] * total)


def contest_odds(attacker_dice, defender_dice, attacker_attribute, defender_attribute):
    """
    Exact chances of a Seyruun contested roll, as Fractions.

    Args:
        attacker_dice, defender_dice (int): each pool after modifiers (up to 50; above 10 the
            rest is overflow; 0 or fewer: a chance die).
        attacker_attribute, defender_attribute (int): the base Attributes, 1 or more.

    Returns:
        dict over KEYS, and "tie_winner" (ATTACKER or DEFENDER): attacker_wins and
        defender_wins (more successes), tie (equal successes), each side's wins overall (its
        more successes, plus the tie when it is the tie's winner) and each side's botch.

    Raises:
        DiceError: a pool above 50 dice, an Attribute below 1.
    """
    winner = tie_winner(attacker_attribute, defender_attribute)
    a, a_botch = side_ways(attacker_dice)
    d, d_botch = side_ways(defender_dice)
    extra = {"attacker_botch": a_botch * 10 ** rolled(defender_dice),
             "defender_botch": d_botch * 10 ** rolled(attacker_dice)}
    answer = contest_figures(a, d, (ATTACKER, DEFENDER), winner, extra)
    answer["tie_winner"] = winner
    return answer

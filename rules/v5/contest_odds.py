"""
Exact V5 contest odds (docs/v5.md): who wins, how often it is a tie, and each side's critical,
messy critical, bestial failure and total failure, as the game scores a contest
(`rules.v5.contest.score_contest`).

A contest is two independent rolls at difficulty 0; the side with more successes wins, and a
tie goes to the defender (docs/v5.md, `TIE_WINNER`). Each side's own result is judged against
what it needs to win the contest, exactly as `score_contest` does:

- the attacker wins its roll with more successes than the defender (a > d);
- the defender wins its roll with at least as many as the attacker and at least one success
  (d >= max(a, 1): 0 successes never wins a roll, docs/v5.md). At 0-0 the defender takes the
  contest, yet its own roll is a total failure;
- critical: a side that wins its roll with a pair of 10s; messy critical: such a critical with
  a Hunger 10 showing;
- bestial failure ("official"): a side that does not win its roll with a Hunger 1 showing (at
  0-0 both sides can be); under "total_failure": 0 successes with Hunger dice rolled, whatever
  the other side did;
- total failure: 0 successes.

Counting. Regular and Hunger dice count successes alike (6-9: one, 10: one, each pair of 10s
two more), so a side's successes only depend on how many dice show 10 (T) and how many of the
others show 6-9 (s): successes = s + T + 2*(T//2). Of the 10**n ways to roll n dice,
comb(n, T) place the tens and the other dice are a (5 + 4x)**(n - T) polynomial in s (5 faces
fail, 4 succeed). A pair of 10s is T >= 2; a Hunger 10 among them is the comb(n, T) -
comb(regular, T) placements that put a ten on a Hunger die. A Hunger 1 is counted by its
complement: with no Hunger 1, a Hunger die has 9 faces (4 fail, 4 succeed, one 10), so the
rolls without one are, by tens t_h on Hunger and t_r on regular dice, comb(hunger, t_h) *
(4 + 4x)**(hunger - t_h) times comb(regular, t_r) * (5 + 4x)**(regular - t_r).

That gives, per side and per number of successes, the ways in all, with a pair of 10s, with a
pair of 10s and a Hunger 10, and with a Hunger 1 (a side's messy critical needs a win and its
bestial failure a loss, so these marginals are all a contest needs, not the full joint
distribution). Integer counts over 10**dice; about (dice**2) * (Hunger + 2) additions per side,
cached by (regular, Hunger). The contest is then one pass over the successes with running
totals (`rules.contest_odds.contest_figures`): the chances are Fractions made at the end.
"""

from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import NamedTuple

from .. import v5
from ..contest_odds import contest_figures
from .contest import ATTACKER, DEFENDER

TIE_WINNER = DEFENDER  # docs/v5.md: on a tie the defender (the side challenged) wins

SIDE_KEYS = ("critical", "messy_critical", "bestial_failure", "total_failure")
KEYS = (
    "attacker_wins", "defender_wins", "tie", "attacker_wins_overall", "defender_wins_overall",
) + tuple(f"{side}_{key}" for side in (ATTACKER, DEFENDER) for key in SIDE_KEYS)


class SideCounts(NamedTuple):
    """One side's ways, indexed by successes (0 .. the most possible), out of 10**dice."""

    total: tuple
    critical: tuple  # a pair of 10s
    messy: tuple  # a pair of 10s and a Hunger 10
    hunger_one: tuple  # a Hunger 1 shows
    dice: int


def _pair_bonus(tens):
    """Successes the tens make: one each, and two more for each pair."""
    return tens + 2 * (tens // 2)


@lru_cache(maxsize=None)
def _binomial(fail, success, n):
    """Coefficients of (fail + success*x)**n: ways for n dice to show s successes, s = 0..n."""
    return tuple(comb(n, s) * success**s * fail ** (n - s) for s in range(n + 1))


@lru_cache(maxsize=None)
def side_counts(regular_n, hunger_n):
    """
    Ways per number of successes for `regular_n` regular and `hunger_n` Hunger dice.

    Returns:
        SideCounts
    """
    n = regular_n + hunger_n
    size = _pair_bonus(n) + 1
    total, critical, messy = [0] * size, [0] * size, [0] * size
    for tens in range(n + 1):
        shift = _pair_bonus(tens)
        placements = comb(n, tens)
        on_hunger = placements - comb(regular_n, tens)  # at least one ten is a Hunger die
        for s, ways in enumerate(_binomial(5, 4, n - tens)):
            total[shift + s] += placements * ways
            if tens >= 2:
                critical[shift + s] += placements * ways
                messy[shift + s] += on_hunger * ways
    no_one = [0] * size
    for hunger_tens in range(hunger_n + 1):
        regular_part = [0] * size
        for regular_tens in range(regular_n + 1):
            shift = _pair_bonus(hunger_tens + regular_tens)
            placements = comb(regular_n, regular_tens)
            for s, ways in enumerate(_binomial(5, 4, regular_n - regular_tens)):
                regular_part[shift + s] += placements * ways
        placements = comb(hunger_n, hunger_tens)
        hunger_part = _binomial(4, 4, hunger_n - hunger_tens)
        for i, ways in enumerate(regular_part):
            if ways:
                for s, hunger_ways in enumerate(hunger_part):
                    no_one[i + s] += ways * placements * hunger_ways
    hunger_one = tuple(all_ways - without for all_ways, without in zip(total, no_one))
    return SideCounts(tuple(total), tuple(critical), tuple(messy), hunger_one, n)


def side_distribution(pool, hunger):
    """
    A side's successes, `((successes, Fraction), ...)` for every count that can happen, as an
    `OddsView.distribution` (for `rules.contest_odds` and charts).

    Raises:
        DiceError: a pool or Hunger out of bounds.
    """
    counts = side_counts(*v5.split_pool(pool, hunger))
    denominator = 10**counts.dice
    return tuple((s, Fraction(ways, denominator)) for s, ways in enumerate(counts.total) if ways)


def _running(values):
    """below[k] = sum of values[:k], for k = 0..len(values)."""
    below = [0]
    for value in values:
        below.append(below[-1] + value)
    return below


def contest_odds(attacker_pool, attacker_hunger, defender_pool, defender_hunger, bestial_rule="official"):
    """
    Exact chances of a V5 contest, as Fractions.

    Args:
        attacker_pool, defender_pool (int): dice, 1-50 each.
        attacker_hunger, defender_hunger (int): 0-5 (Hunger dice are min(pool, Hunger)).
        bestial_rule (str): "official" or "total_failure" (the V5_BESTIAL_FAILURE setting).

    Returns:
        dict over KEYS: attacker_wins (more successes), defender_wins (more successes), tie;
        attacker_wins_overall (= attacker_wins) and defender_wins_overall (defender_wins +
        tie: the tie is the defender's, `TIE_WINNER`); and for each side ("attacker_",
        "defender_") critical, messy_critical, bestial_failure and total_failure as
        `rules.v5.contest.score_contest` judges that side.

    Raises:
        DiceError: a pool, Hunger or bestial rule out of bounds.
    """
    attacker_dice = v5.split_pool(attacker_pool, attacker_hunger)
    defender_dice = v5.split_pool(defender_pool, defender_hunger)
    v5.check_bestial_rule(bestial_rule)
    a, d = side_counts(*attacker_dice), side_counts(*defender_dice)
    total_a, total_d = 10**a.dice, 10**d.dice
    a_below, d_below = _running(a.total), _running(d.total)

    def d_less_than(k):  # ways for the defender to roll fewer than k successes
        return d_below[min(k, len(d.total))]

    def a_at_most(k):  # ways for the attacker to roll at most k successes
        return a_below[min(k + 1, len(a.total))]

    # The attacker wins its roll when d < a; the defender when a <= d and d >= 1.
    counts = {
        "attacker_critical": sum(w * d_less_than(k) for k, w in enumerate(a.critical)),
        "attacker_messy_critical": sum(w * d_less_than(k) for k, w in enumerate(a.messy)),
        "defender_critical": sum(w * a_at_most(k) for k, w in enumerate(d.critical)),
        "defender_messy_critical": sum(w * a_at_most(k) for k, w in enumerate(d.messy)),
        "attacker_total_failure": a.total[0] * total_d,
        "defender_total_failure": d.total[0] * total_a,
    }
    if bestial_rule == "official":
        counts["attacker_bestial_failure"] = sum(w * (total_d - d_less_than(k)) for k, w in enumerate(a.hunger_one))
        counts["defender_bestial_failure"] = sum(w * (total_a - (a_at_most(k) if k else 0))
                                                 for k, w in enumerate(d.hunger_one))
    else:
        counts["attacker_bestial_failure"] = counts["attacker_total_failure"] if attacker_dice[1] else 0
        counts["defender_bestial_failure"] = counts["defender_total_failure"] if defender_dice[1] else 0
    return contest_figures(enumerate(a.total), enumerate(d.total), (ATTACKER, DEFENDER), TIE_WINNER, counts)

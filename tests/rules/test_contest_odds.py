"""
Exact contest odds: `rules.contest_odds` (any system) and `rules.v5.contest_odds` (V5).

Oracles, independent of the code under test:
- icepool: each side's (successes, pair of 10s, Hunger 10, Hunger 1) by a multiset evaluator,
  then the two sides combined by `icepool.map` with the contest rules written out again here;
- brute force: every face of tiny pools through `rules.v5.contest.evaluate_contest`, the
  game's own scoring, so the definitions are the ones players see.
Pure: no database, no Evennia.
"""

import itertools
from fractions import Fraction
from functools import lru_cache

import icepool
import pytest

from bench._v5_icepool import Tally, merged_d10  # the icepool formulation the benches use too
from storyteller_dice.rules import contest_odds
from storyteller_dice.rules.v5 import contest as v5_contest, contest_odds as v5_contest_odds
from storyteller_dice.rules.contest_odds import Comparison
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.v5.contest_odds import KEYS, contest_odds as v5_odds

RULES = ("official", "total_failure")


@pytest.fixture(autouse=True)
def fresh_caches():
    """Every test counts afresh (a cache filled before a mutant is loaded would hide it)."""
    v5_contest_odds.side_counts.cache_clear()
    v5_contest_odds._binomial.cache_clear()


# ---------------------------------------------------------------- the neutral helper


def test_compare_counts_every_pair():
    a = {0: 1, 2: 2, 5: 1}
    b = [(1, 3), (2, 1), (2, 1), (7, 1)]  # a repeated score adds up
    higher = lower = tie = 0
    for sa, wa in a.items():
        for sb, wb in b:
            higher += wa * wb * (sa > sb)
            lower += wa * wb * (sa < sb)
            tie += wa * wb * (sa == sb)
    assert contest_odds.compare(a, b) == Comparison(higher, lower, tie) == (11, 9, 4)
    assert contest_odds.compare({3: 1}, {3: 2}) == (0, 0, 2)
    assert contest_odds.compare({9: 1}, {-1: 1, 3: 1}) == (2, 0, 0)
    assert contest_odds.compare({-5: 1}, {-1: 1, 3: 1}) == (0, 2, 0)


def test_convolve_fractions_and_odds_view_pairs():
    d6 = tuple((face, Fraction(1, 6)) for face in range(1, 7))
    result = contest_odds.convolve(d6, dict(d6))
    assert result == Comparison(Fraction(5, 12), Fraction(5, 12), Fraction(1, 6))
    assert result.a_higher == Fraction(5, 12) and result.tie == Fraction(1, 6)
    assert all(isinstance(x, Fraction) for x in result)
    assert contest_odds.convolve({1: 1}, {0: Fraction(1, 2), 1: Fraction(1, 2)}) == (Fraction(1, 2), 0, Fraction(1, 2))


def test_margins():
    coin = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert contest_odds.margins(coin, coin) == ((-1, Fraction(1, 4)), (0, Fraction(1, 2)), (1, Fraction(1, 4)))
    assert contest_odds.margins({3: 1}, {1: 0, 2: 1}) == ((1, Fraction(1)),)  # impossible margins left out
    distribution = v5_contest_odds.side_distribution(3, 1)
    assert sum(p for _, p in contest_odds.margins(distribution, distribution)) == 1


@pytest.mark.parametrize(
    "a, b, message",
    [
        ({}, {1: 1}, "The first distribution is empty."),
        ({1: 1}, [], "The second distribution is empty."),
        ({1.5: 1}, {1: 1}, "The first distribution: scores must be whole numbers, not 1.5."),
        ({True: 1}, {1: 1}, "The first distribution: scores must be whole numbers, not True."),
        ({1: 1}, {1: -1}, "The second distribution: a chance cannot be negative."),
    ],
)
def test_compare_refuses_bad_distributions(a, b, message):
    with pytest.raises(DiceError) as caught:
        contest_odds.compare(a, b)
    assert str(caught.value) == message


def test_convolve_and_margins_name_the_bad_side():
    for call in (contest_odds.convolve, contest_odds.margins):
        with pytest.raises(DiceError, match=r"^The first distribution is empty\.$"):
            call({}, {1: 1})
        with pytest.raises(DiceError, match=r"^The second distribution: a chance cannot be negative\.$"):
            call({1: 1}, {1: 2, 2: -1})


def test_convolve_and_margins_refuse_what_does_not_sum_to_one():
    for call in (contest_odds.convolve, contest_odds.margins):
        with pytest.raises(DiceError, match=r"^The first distribution must sum to 1\.$"):
            call({1: Fraction(1, 2)}, {1: 1})
        with pytest.raises(DiceError, match=r"^The second distribution must sum to 1\.$"):
            call({1: 1}, {1: Fraction(1, 2), 2: Fraction(1, 3)})


# ---------------------------------------------------------------- icepool oracle


D10 = merged_d10()  # 1, 2-5, 6-9, 10: faces that count alike merged (bench/_v5_icepool.py)


@lru_cache(maxsize=None)
def _ice_side(pool, hunger):
    hunger_dice = min(pool, hunger)
    states = Tally().evaluate(D10.pool(pool - hunger_dice), D10.pool(hunger_dice))
    return states.map(
        lambda six, tens, one, ten: (six + tens + 2 * (tens // 2), tens >= 2, ten, one, hunger_dice > 0),
        star=True,
    )


def icepool_contest(ap, ah, dp, dh, rule):
    """The contest's chances, with docs/v5.md written out again."""

    def judge(a, d):
        sa, pair_a, ten_a, one_a, rolled_a = a
        sd, pair_d, ten_d, one_d, rolled_d = d
        a_wins_roll = sa > sd  # needs one more than the defender
        d_wins_roll = sd >= sa and sd >= 1  # as many, and 0 successes never wins
        if rule == "official":
            bestial_a, bestial_d = not a_wins_roll and one_a, not d_wins_roll and one_d
        else:
            bestial_a, bestial_d = sa == 0 and rolled_a, sd == 0 and rolled_d
        return (
            sa > sd, sd > sa, sa == sd, sa > sd, sd >= sa,
            a_wins_roll and pair_a, a_wins_roll and pair_a and ten_a, bestial_a, sa == 0,
            d_wins_roll and pair_d, d_wins_roll and pair_d and ten_d, bestial_d, sd == 0,
        )

    table = icepool.map(judge, _ice_side(ap, ah), _ice_side(dp, dh), star=False)
    return {key: Fraction(table.marginals[i].probability(True)) for i, key in enumerate(KEYS)}


GRID = [(ap, ah, dp, dh) for ap in range(1, 9) for dp in range(1, 9) for ah, dh in ((0, 0), (1, 3), (3, 1), (2, 2))]
GRID += [(ap, ah, dp, dh) for ap, dp in ((2, 3), (5, 4), (8, 8)) for ah in range(4) for dh in range(4)]


@pytest.mark.parametrize("args", GRID, ids=str)
def test_equals_icepool_on_a_grid(args):
    for rule in RULES if args[0] in (2, 8) else ("official",):
        assert v5_odds(*args, bestial_rule=rule) == icepool_contest(*args, rule), rule


@pytest.mark.parametrize("args", [(20, 5, 15, 2), (15, 0, 20, 4), (12, 5, 12, 5)], ids=str)
def test_equals_icepool_for_larger_pools(args):
    for rule in RULES:
        assert v5_odds(*args, bestial_rule=rule) == icepool_contest(*args, rule)


# ---------------------------------------------------------------- brute force through the game's scoring


def _brute(ap, ah, dp, dh, rule, faces=tuple(range(1, 11)), weights=None):
    weights = weights or {face: 1 for face in faces}
    a_reg, a_hun = ap - min(ap, ah), min(ap, ah)
    d_reg, d_hun = dp - min(dp, dh), min(dp, dh)
    counts = dict.fromkeys(KEYS, 0)
    total = 0
    for a in itertools.product(faces, repeat=ap):
        for d in itertools.product(faces, repeat=dp):
            ways = 1
            for face in a + d:
                ways *= weights[face]
            r = v5_contest.evaluate_contest(a[:a_reg], a[a_reg:], d[:d_reg], d[d_reg:], rule)
            total += ways
            facts = {
                "attacker_wins": r.winner == v5_contest.ATTACKER,
                "defender_wins": r.winner == v5_contest.DEFENDER and not r.tie,
                "tie": r.tie,
                "attacker_wins_overall": r.winner == v5_contest.ATTACKER,
                "defender_wins_overall": r.winner == v5_contest.DEFENDER,
            }
            for side in (v5_contest.ATTACKER, v5_contest.DEFENDER):
                for key in v5_contest_odds.SIDE_KEYS:
                    facts[f"{side}_{key}"] = getattr(r.side(side), key)
            for key, fact in facts.items():
                counts[key] += ways * fact
    return {key: Fraction(count, total) for key, count in counts.items()}


# Faces that V5 scores alike (1 | 2-5 | 6-9 | 10), one of each with its number of faces.
MERGED = {1: 1, 2: 4, 6: 4, 10: 1}
TINY = [(ap, ah, dp, dh) for ap in range(1, 4) for dp in range(1, 4) for ah in range(ap + 1) for dh in range(dp + 1)
        if ap + dp <= 5 or (ah, dh) in ((1, 2), (3, 0))]


@pytest.mark.parametrize("args", TINY, ids=str)
def test_equals_every_roll_scored_by_the_game(args):
    for rule in RULES:
        expected = _brute(*args, rule, faces=tuple(MERGED), weights=MERGED)
        assert v5_odds(*args, bestial_rule=rule) == expected, rule


@pytest.mark.parametrize("args", [(1, 1, 1, 0), (2, 1, 1, 1), (1, 0, 2, 2)], ids=str)
def test_equals_every_face_of_every_die(args):
    for rule in RULES:
        assert v5_odds(*args, bestial_rule=rule) == _brute(*args, rule)


def test_known_one_die_contest():
    odds = v5_odds(1, 0, 1, 1)  # a regular die against a Hunger die: 6+ on 5 faces each
    assert odds["attacker_wins"] == Fraction(25, 100)  # a success against a fail
    assert odds["defender_wins"] == Fraction(25, 100)
    assert odds["tie"] == Fraction(50, 100)  # both fail or both succeed
    assert odds["defender_wins_overall"] == Fraction(75, 100)
    assert odds["attacker_wins_overall"] == odds["attacker_wins"]
    # A Hunger 1 is 0 successes: the defender's roll never wins then (0-0 or 0-1).
    assert odds["defender_bestial_failure"] == Fraction(1, 10)
    assert odds["attacker_bestial_failure"] == 0
    assert odds["attacker_total_failure"] == odds["defender_total_failure"] == Fraction(1, 2)
    assert odds["defender_critical"] == odds["attacker_critical"] == 0
    # "total_failure": 0 successes with a Hunger die rolled, whoever wins the contest.
    seed_rule = v5_odds(1, 0, 1, 1, bestial_rule="total_failure")
    assert seed_rule["defender_bestial_failure"] == Fraction(1, 2)
    assert seed_rule["attacker_bestial_failure"] == 0


@pytest.mark.parametrize("args", [(1, 0, 1, 0), (5, 2, 7, 1), (50, 5, 50, 5), (50, 0, 1, 5), (1, 5, 50, 0)], ids=str)
def test_chances_are_consistent(args):
    odds = v5_odds(*args)
    assert set(odds) == set(KEYS)
    assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in odds.values())
    assert odds["attacker_wins"] + odds["defender_wins"] + odds["tie"] == 1
    assert odds["attacker_wins_overall"] + odds["defender_wins_overall"] == 1
    assert odds["defender_wins_overall"] == odds["defender_wins"] + odds["tie"]
    for side in ("attacker", "defender"):
        assert odds[f"{side}_messy_critical"] <= odds[f"{side}_critical"]
    assert v5_contest_odds.TIE_WINNER == v5_contest.DEFENDER == "defender"


def test_fifty_dice_a_side_symmetry():
    odds = v5_odds(50, 5, 50, 5)
    assert odds["attacker_wins"] == odds["defender_wins"]
    # The defender also wins its roll on a tie (but not at 0-0): more criticals.
    assert odds["defender_critical"] > odds["attacker_critical"]


def test_side_distribution():
    assert v5_contest_odds.side_distribution(1, 0) == ((0, Fraction(1, 2)), (1, Fraction(1, 2)))
    two = dict(v5_contest_odds.side_distribution(2, 2))
    # 6+ on 5 faces of 10; two 10s make 4 successes, so 3 cannot happen.
    assert two == {0: Fraction(25, 100), 1: Fraction(50, 100), 2: Fraction(24, 100), 4: Fraction(1, 100)}
    assert sum(two.values()) == 1
    big = v5_contest_odds.side_distribution(50, 5)
    assert big[-1] == (100, Fraction(1, 10**50)) and sum(p for _, p in big) == 1


def test_side_counts_flags_for_two_dice():
    counts = v5_contest_odds.side_counts(1, 1)  # one regular die, one Hunger die
    assert counts.dice == 2
    assert counts.total == (25, 50, 24, 0, 1)
    assert counts.critical == (0, 0, 0, 0, 1)
    assert counts.messy == (0, 0, 0, 0, 1)
    # Hunger 1 with the regular die failing (5), succeeding (4) or a 10 (1).
    assert counts.hunger_one == (5, 5, 0, 0, 0)
    assert v5_contest_odds.side_counts(2, 0).messy == (0,) * 5
    assert v5_contest_odds.side_counts(2, 0).hunger_one == (0,) * 5


@pytest.mark.parametrize(
    "args, message",
    [
        ((0, 0, 1, 0, "official"), "A pool is at least 1 die."),
        ((1, 0, 51, 0, "official"), "That pool is 51 dice; pools are limited to 50."),
        ((1, 6, 1, 0, "official"), "Hunger is from 0 to 5."),
        ((1, 0, 1, -1, "official"), "Hunger is from 0 to 5."),
        ((1, 0, 1, 0, "house"), "Unknown bestial failure rule 'house': use one of official, total_failure."),
    ],
)
def test_bad_input_is_refused(args, message):
    with pytest.raises(DiceError) as caught:
        v5_odds(*args[:4], bestial_rule=args[4])
    assert str(caught.value) == message

"""
Exact V5 odds (`rules.v5.exact_odds`) against independent oracles. Pure: no database, no Evennia.

- icepool: a multiset evaluator over a pool of regular dice and a pool of Hunger dice, with
  the docs/v5.md outcome rules written out again here (not borrowed from `rules.v5.exact_odds`).
- brute force: every face of tiny pools, and every face of rerolled dice, through
  `rules.v5.evaluate` / `rules.v5.apply_reroll`.
- best reroll: exhaustive search over every choice of 1-3 regular dice, by index.
"""

import itertools
import random
from fractions import Fraction
from functools import lru_cache

import icepool
import pytest

from bench._v5_icepool import Tally  # the icepool formulation the benches use too
from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import exact_odds as v5_odds
from storyteller_dice.rules.errors import DiceError

KEYS = ("win", "critical", "messy_critical", "bestial_failure", "total_failure", "expected_successes")
RULES = ("official", "total_failure")


# ---------------------------------------------------------------- icepool oracle


D10 = icepool.d10.map(lambda face: 2 if 2 <= face <= 5 else 6 if 6 <= face <= 9 else face)


@lru_cache(maxsize=None)
def _icepool_states(pool, hunger, die=D10):
    hunger_dice = min(pool, hunger)
    regular = die.pool(pool - hunger_dice)
    hunger_pool = die.pool(hunger_dice)
    return Tally().evaluate(regular, hunger_pool), hunger_dice


def icepool_odds(pool, hunger, difficulty):
    """{rule: {key: Fraction}} computed by icepool, outcome rules as written in docs/v5.md."""
    states, hunger_dice = _icepool_states(pool, hunger)

    def outcome(six_to_nine, tens, hunger_one, hunger_ten):
        successes = six_to_nine + tens + 2 * (tens // 2)
        # docs/v5.md, 'Rulings': 0 successes never wins, not even at difficulty 0.
        win = successes >= difficulty and successes >= 1
        critical = win and tens >= 2
        return (
            win,
            critical,
            critical and hunger_ten,
            not win and hunger_one,
            successes == 0 and hunger_dice > 0,
            successes == 0,
            successes,
        )

    table = states.map(outcome, star=True)
    marginal = [table.marginals[i] for i in range(7)]
    common = {
        "win": marginal[0].probability(True),
        "critical": marginal[1].probability(True),
        "messy_critical": marginal[2].probability(True),
        "total_failure": marginal[5].probability(True),
        "expected_successes": marginal[6].mean(),
    }
    return {
        "official": dict(common, bestial_failure=marginal[3].probability(True)),
        "total_failure": dict(common, bestial_failure=marginal[4].probability(True)),
    }


@pytest.mark.parametrize("pool, hunger", [(1, 0), (3, 1), (6, 5), (9, 2), (12, 4)])
def test_merged_faces_count_like_a_d10(pool, hunger):
    assert _icepool_states(pool, hunger) == _icepool_states(pool, hunger, icepool.d10)


POOLS = list(range(1, 13)) + [20, 35, 50]
DIFFICULTIES = list(range(0, 9)) + [11, 17, 30, 60, 100]


@pytest.mark.parametrize("pool", POOLS)
@pytest.mark.parametrize("hunger", range(0, 6))
def test_odds_match_icepool(pool, hunger):
    for difficulty in DIFFICULTIES:
        expected = icepool_odds(pool, hunger, difficulty)
        for rule in RULES:
            got = v5_odds.odds(pool, hunger, difficulty, bestial_rule=rule)
            assert set(got) == set(KEYS)
            for key in KEYS:
                assert isinstance(got[key], Fraction)
                assert got[key] == expected[rule][key], (pool, hunger, difficulty, rule, key)


# ---------------------------------------------------------------- brute force, tiny pools


def _tally(results):
    results = list(results)
    n = len(results)
    return {
        "win": Fraction(sum(r.win for r in results), n),
        "critical": Fraction(sum(r.critical for r in results), n),
        "messy_critical": Fraction(sum(r.messy_critical for r in results), n),
        "bestial_failure": Fraction(sum(r.bestial_failure for r in results), n),
        "total_failure": Fraction(sum(r.total_failure for r in results), n),
        "expected_successes": Fraction(sum(r.successes for r in results), n),
    }


def brute_odds(pool, hunger, difficulty, rule):
    regular_n = pool - min(pool, hunger)
    return _tally(
        v5.evaluate(faces[:regular_n], faces[regular_n:], difficulty, rule)
        for faces in itertools.product(range(1, 11), repeat=pool)
    )


@pytest.mark.parametrize("pool", [1, 2, 3])
@pytest.mark.parametrize("hunger", range(0, 6))
def test_odds_match_brute_force(pool, hunger):
    for difficulty in range(0, 8):
        for rule in RULES:
            assert v5_odds.odds(pool, hunger, difficulty, rule) == brute_odds(pool, hunger, difficulty, rule)


@pytest.mark.parametrize("hunger", [0, 1, 3, 5])
@pytest.mark.parametrize("difficulty", [0, 1, 3, 5, 9])
def test_odds_match_brute_force_four_dice(hunger, difficulty):
    for rule in RULES:
        assert v5_odds.odds(4, hunger, difficulty, rule) == brute_odds(4, hunger, difficulty, rule)


def test_known_values():
    assert v5_odds.odds(1, 0, 1)["win"] == Fraction(1, 2)
    assert v5_odds.odds(2, 0, 1)["critical"] == Fraction(1, 100)
    assert v5_odds.odds(2, 1, 1)["messy_critical"] == Fraction(1, 100)
    assert v5_odds.odds(1, 1, 1)["bestial_failure"] == Fraction(1, 10)
    assert v5_odds.odds(1, 1, 1, "total_failure")["bestial_failure"] == Fraction(1, 2)
    assert v5_odds.odds(3, 0, 2)["total_failure"] == Fraction(1, 8)
    # 0 successes never wins, not even at difficulty 0 (docs/v5.md): difficulty 0 has the
    # odds of difficulty 1, and 0 successes is a total failure at both.
    assert v5_odds.odds(3, 2, 0) == v5_odds.odds(3, 2, 1)
    assert v5_odds.odds(1, 0, 0)["win"] == Fraction(1, 2)
    assert v5_odds.odds(1, 0, 0)["total_failure"] == Fraction(1, 2)
    assert v5_odds.odds(3, 0, 0)["total_failure"] == Fraction(1, 8)
    assert v5_odds.odds(1, 1, 0)["bestial_failure"] == Fraction(1, 10)
    assert v5_odds.odds(1, 1, 0, "total_failure")["bestial_failure"] == Fraction(1, 2)


def test_rules_v5_odds_delegates():
    assert v5.odds(7, 3, 4) == v5_odds.odds(7, 3, 4)


@pytest.mark.parametrize(
    "args",
    [(0, 0, 1), (51, 0, 1), (5, -1, 1), (5, 6, 1), (5, 1, -1), (5, 1, 101), (5, 1, 1.5), ("5", 1, 1)],
)
def test_odds_refuses_out_of_bounds(args):
    with pytest.raises(DiceError):
        v5_odds.odds(*args)


def test_odds_refuses_unknown_bestial_rule():
    with pytest.raises(DiceError):
        v5_odds.odds(5, 1, 1, bestial_rule="beastly")


# ---------------------------------------------------------------- rerolls


def brute_reroll(result, indexes):
    if not indexes:
        return _tally([result])
    return _tally(
        v5.apply_reroll(result, indexes, faces) for faces in itertools.product(range(1, 11), repeat=len(indexes))
    )


def _tables(seed, count, max_pool=12):
    """Seeded random rolls over pools, Hunger, difficulties and both bestial rules."""
    rng = random.Random(seed)
    tables = []
    for _ in range(count):
        pool = rng.randint(1, max_pool)
        tables.append(v5.roll(pool, rng.randint(0, 5), rng.randint(0, 8), rng, rng.choice(RULES)))
    return tables


HAND_PICKED = [
    v5.evaluate((10, 1, 1, 1, 1), (), 4),  # a lone 10: chase the pair
    v5.evaluate((10, 6, 6, 3), (10,), 3),  # messy-prone: reroll the regular 10
    v5.evaluate((10, 10, 7), (10, 1), 5),  # messy, bestial-prone
    v5.evaluate((1, 1, 1, 1, 1), (), 5),  # only three 10s win: lowest indexes
    v5.evaluate((6, 6, 6, 2), (), 1),  # a sure win: keep expected successes up
    v5.evaluate((6, 7, 8, 9), (1, 1), 4),  # bare success, nothing to gain
    v5.evaluate((3, 8, 1, 1), (2, 10), 3),
    v5.evaluate((5,), (1, 1, 1, 1, 1), 1, "total_failure"),
    v5.evaluate((9, 2), (4,), 0),
]


@pytest.mark.parametrize("result", _tables(5, 30) + HAND_PICKED)
def test_reroll_odds_match_brute_force(result):
    regular = range(len(result.regular))
    choices = [()]
    for size in range(1, min(3, len(result.regular)) + 1):
        choices += list(itertools.combinations(regular, size))[:6]
    for indexes in choices:
        assert v5_odds.reroll_odds(result, indexes) == brute_reroll(result, indexes), indexes


def test_reroll_odds_of_nothing_is_the_roll():
    result = v5.evaluate((10, 10, 3), (1,), 2)
    got = v5_odds.reroll_odds(result, ())
    assert got == {
        "win": 1,
        "critical": 1,
        "messy_critical": 0,
        "bestial_failure": 0,
        "total_failure": 0,
        "expected_successes": result.successes,
    }


@pytest.mark.parametrize("indexes", [(0, 1, 2, 3), (0, 0), (4,), (-1,), (5,), ("0",)])
def test_reroll_odds_refuses_bad_indexes(indexes):
    result = v5.evaluate((1, 2, 3, 4), (5,), 2)
    with pytest.raises(DiceError):
        v5_odds.reroll_odds(result, indexes)


def _all_choices(result):
    regular = range(len(result.regular))
    for size in range(1, min(3, len(result.regular)) + 1):
        yield from itertools.combinations(regular, size)


def _rank(odds, indexes):
    """The documented order: win up, messy down, expected successes up, fewer dice, lowest indexes."""
    return (-odds["win"], odds["messy_critical"], -odds["expected_successes"], len(indexes), indexes)


def _exhaustive_best(result, odds_of):
    ranked = sorted((_rank(odds_of(result, c), c), c) for c in _all_choices(result))
    return ranked[0][1], ranked


BEST_TABLES = _tables(11, 40) + HAND_PICKED + [
    v5.roll(50, 5, d, random.Random(seed)) for seed, d in ((1, 25), (2, 30))
]


@pytest.mark.parametrize("result", BEST_TABLES)
def test_best_reroll_is_the_exhaustive_best(result):
    """Every choice of 1-3 regular dice, by index, ranked with odds checked above by brute force."""
    best = v5_odds.best_reroll(result)
    if not result.regular:
        assert best == ()
        return
    expected, ranked = _exhaustive_best(result, v5_odds.reroll_odds)
    assert best == expected
    best_win = v5_odds.reroll_odds(result, best)["win"]
    assert all(best_win >= v5_odds.reroll_odds(result, c)["win"] for _, c in ranked)


SMALL_TABLES = [r for r in _tables(17, 12, max_pool=6) if r.regular] + HAND_PICKED[:5]


@pytest.mark.parametrize("result", SMALL_TABLES)
def test_best_reroll_brute_force_small(result):
    """The same, with every choice's odds enumerated face by face through rules.v5."""
    expected, _ = _exhaustive_best(result, brute_reroll)
    assert v5_odds.best_reroll(result) == expected


def test_best_reroll_hand_picked():
    lone_ten, messy_prone, _, all_fails, sure_win = HAND_PICKED[:5]
    assert v5_odds.best_reroll(lone_ten) == (1, 2, 3)
    assert v5_odds.best_reroll(messy_prone) == (0,)
    assert v5_odds.reroll_odds(messy_prone, (0,))["messy_critical"] == Fraction(1, 10)
    assert v5_odds.best_reroll(all_fails) == (0, 1, 2)
    assert v5_odds.reroll_odds(all_fails, (0, 1, 2))["win"] == Fraction(13, 1000)  # 10-10-x(6+) or 10-10-10
    assert v5_odds.best_reroll(sure_win) == (3,)


def test_best_reroll_without_regular_dice():
    result = v5.evaluate((), (1, 3, 10), 2)
    assert v5_odds.best_reroll(result) == ()
    assert v5.choose_reroll(result, "best") == ()


def test_best_reroll_can_be_worse_than_keeping():
    """Documented: the best reroll is non-empty even when keeping the roll is better."""
    result = v5.evaluate((6, 7), (), 2)
    best = v5_odds.best_reroll(result)
    assert best == (0,)
    assert v5_odds.reroll_odds(result, best)["win"] < v5_odds.reroll_odds(result, ())["win"]


def test_strategy_odds():
    result = v5.evaluate((10, 6, 6, 3), (10,), 3)
    got = v5_odds.strategy_odds(result)
    assert set(got) == {"failures", "crits", "messy", "best"}
    assert got["failures"] == v5_odds.reroll_odds(result, (3,))
    assert got["crits"] is None  # two 10s showing: no unpaired 10 to chase
    assert got["messy"] == v5_odds.reroll_odds(result, (0,))
    assert got["best"] == v5_odds.reroll_odds(result, v5_odds.best_reroll(result))
    assert v5.choose_reroll(result, "best") == v5_odds.best_reroll(result)

    plain = v5.evaluate((10, 2, 7), (), 3)
    got = v5_odds.strategy_odds(plain)
    assert got["messy"] is None
    assert got["crits"] == v5_odds.reroll_odds(plain, (1, 2))


def test_reroll_improves_compares_with_keeping_the_roll():
    from storyteller_dice.rules.v5.exact_odds import reroll_improves

    all_successes_win = v5.evaluate([6, 7, 8, 9], [2], 1)
    assert not reroll_improves(all_successes_win, v5_odds.best_reroll(all_successes_win))
    failing = v5.evaluate([1, 2, 7], [3], 3)
    assert reroll_improves(failing, (0, 1))
    messy_win = v5.evaluate([10, 7, 8], [6, 10], 3)
    assert v5_odds.best_reroll(messy_win) == (0,)
    assert reroll_improves(messy_win, (0,))


def test_willpower_choice_best_keeps_when_no_reroll_gains():
    """+willpower best and +odds/reroll share this choice: never worse than keeping the dice."""
    sure = v5.evaluate([6, 7], [], 2)
    picks, refused = v5_odds.willpower_choice(sure, "best")
    assert picks == (0,) and refused == v5_odds.NOT_WORTHWHILE
    five = v5.evaluate([7, 7, 7, 7, 7], [], 3)
    assert v5_odds.willpower_choice(five, "best")[1] == v5_odds.NOT_WORTHWHILE
    # One part of a whole (a contest side): the successes count, and rerolling a 7 loses some.
    assert v5_odds.willpower_choice(five, "best", judged_alone=False) == ((0,), v5_odds.NO_BETTER)
    with_fail = v5.evaluate([2, 7, 7], [], 1)
    assert v5_odds.willpower_choice(with_fail, "best", judged_alone=False) == ((0,), None)
    assert v5_odds.willpower_choice(with_fail, "failures", judged_alone=False) == ((0,), None)
    assert v5_odds.reroll_odds(with_fail, (0,))["expected_successes"] > 2

"""V5 rules (docs/v5.md) with explicit faces, the rules' examples included."""

import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from storyteller_dice.rules import v5
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces, roll_faces, seeded

REPO = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------ counting


@pytest.mark.parametrize(
    "faces, successes",
    [
        ([1, 2, 3, 4, 5], 0),
        ([6, 7, 8, 9], 4),
        ([10], 1),
        ([10, 10], 4),  # a pair: 2 + 2
        ([10, 10, 10], 5),  # one pair + a lone 10
        ([10, 10, 10, 10], 8),  # two pairs
        ([10, 10, 10, 10, 10], 9),
        ([3, 6, 7, 10, 10], 6),  # the worked example: "6 total successes"
    ],
)
def test_count_successes(faces, successes):
    assert v5.count_successes(faces) == successes
    assert v5.evaluate(faces, [], 0).successes == successes


def test_pairs_of_tens_mix_regular_and_hunger_dice():
    result = v5.evaluate([10, 2], [10], 1)
    assert result.successes == 4
    assert result.critical and result.messy_critical


def test_seed_example_critical():
    # The worked example: [3, 6, 7, 10, 10] -> 4 successes + 2 for the pair = 6, "succeed spectacularly".
    result = v5.evaluate([3, 6, 7, 10, 10], [], 2)
    assert (result.successes, result.win, result.margin) == (6, True, 4)
    assert result.critical and not result.messy_critical
    assert result.outcome == "critical"
    assert result.margin_label == "exceptional success"


# ------------------------------------------------------------------ hunger split


@pytest.mark.parametrize(
    "pool, hunger, split",
    [(5, 2, (3, 2)), (5, 0, (5, 0)), (3, 5, (0, 3)), (1, 1, (0, 1)), (50, 5, (45, 5))],
)
def test_split_pool(pool, hunger, split):
    # The worked example: "5 dice pool, Hunger 2 - Roll: 3 normal dice + 2 Hunger dice".
    assert v5.split_pool(pool, hunger) == split


def test_roll_draws_hunger_dice_last_from_the_source():
    result = v5.roll(5, 2, 3, rng=FixedFaces([1, 6, 10, 1, 10]))
    assert result.regular == (1, 6, 10) and result.hunger == (1, 10)
    assert result.successes == 5 and result.messy_critical


@pytest.mark.parametrize("pool, hunger", [(0, 0), (51, 0), (5, 6), (5, -1)])
def test_split_pool_refuses_out_of_range(pool, hunger):
    with pytest.raises(DiceError):
        v5.split_pool(pool, hunger)


# ------------------------------------------------------------------ outcome and margin


@pytest.mark.parametrize(
    "regular, difficulty, win, margin, grade",
    [
        ([6, 7, 2], 2, True, 0, "bare"),
        ([6, 7, 8], 2, True, 1, "solid"),
        ([6, 7, 8, 9], 2, True, 2, "solid"),
        ([6, 7, 8, 9, 9], 2, True, 3, "exceptional"),
        ([6, 2, 2], 2, False, -1, "failure"),
    ],
)
def test_win_margin_and_labels(regular, difficulty, win, margin, grade):
    result = v5.evaluate(regular, [], difficulty)
    assert (result.win, result.margin, result.outcome) == (win, margin, grade)


def test_margin_label_only_on_a_win():
    assert v5.evaluate([2], [], 1).margin_label is None
    assert v5.evaluate([7], [], 1).margin_label == "bare success"


def test_critical_needs_a_win():
    result = v5.evaluate([10, 10], [], 5)  # 4 successes, needs 5
    assert not result.win and not result.critical and result.outcome == "failure"


def test_single_ten_is_not_critical():
    result = v5.evaluate([10, 2], [], 1)
    assert result.win and not result.critical


def test_messy_critical_needs_a_hunger_ten():
    assert not v5.evaluate([10, 10], [5], 1).messy_critical
    messy = v5.evaluate([10], [10], 1)
    assert messy.messy_critical and messy.outcome == "messy_critical"
    assert v5.evaluate([], [10, 10], 1).messy_critical  # both tens on Hunger dice


def test_messy_critical_only_on_a_win():
    result = v5.evaluate([10, 1, 1], [10, 1], 6)  # 4 successes vs 6: a failure
    assert not result.critical and not result.messy_critical
    assert result.bestial_failure  # and a Hunger 1 on a failure is bestial


def test_three_and_four_tens_with_hunger():
    three = v5.evaluate([10, 10], [10], 5)
    assert three.successes == 5 and three.messy_critical
    four = v5.evaluate([10, 10], [10, 10], 8)
    assert four.successes == 8 and four.messy_critical and four.margin == 0


# ------------------------------------------------------------------ bestial and total failure


def test_bestial_failure_official_any_failure_with_a_hunger_one():
    result = v5.evaluate([6, 7], [1], 3)  # 2 successes: a failure, not a total one
    assert result.bestial_failure and not result.total_failure
    assert result.outcome == "bestial_failure"


def test_bestial_failure_official_needs_a_failure():
    result = v5.evaluate([6, 7], [1], 2)
    assert result.win and not result.bestial_failure


def test_bestial_failure_official_needs_a_hunger_one():
    result = v5.evaluate([1, 1], [2], 1)
    assert not result.bestial_failure and result.total_failure
    assert result.outcome == "total_failure"


def test_bestial_failure_seed_reading():
    # V5_BESTIAL_FAILURE = "total_failure": 0 successes with Hunger dice rolled.
    seed_rule = "total_failure"
    assert v5.evaluate([1, 2], [3], 1, seed_rule).bestial_failure  # no Hunger 1 needed
    assert not v5.evaluate([6, 7], [1], 3, seed_rule).bestial_failure  # successes > 0
    assert not v5.evaluate([1, 2], [], 1, seed_rule).bestial_failure  # no Hunger dice


def test_total_failure():
    result = v5.evaluate([1, 2, 5], [], 2)
    assert result.total_failure and result.successes == 0 and result.outcome == "total_failure"
    assert not v5.evaluate([6, 2], [], 2).total_failure


def test_zero_successes_never_wins_even_at_difficulty_zero():
    # docs/v5.md, 'Rulings': 0 successes is a total failure at any difficulty, 0 included.
    result = v5.evaluate([5], [1], 0)
    assert not result.win and result.total_failure and result.bestial_failure
    assert result.successes == 0 and result.margin == 0 and result.margin_label is None
    assert result.outcome == "bestial_failure" and not result.critical
    plain = v5.evaluate([1, 2], [], 0)
    assert not plain.win and plain.total_failure and not plain.bestial_failure
    assert plain.outcome == "total_failure"
    seed_rule = v5.evaluate([5], [3], 0, "total_failure")
    assert seed_rule.bestial_failure and not seed_rule.win
    assert not v5.evaluate([5], [3], 0).bestial_failure  # official: needs a Hunger 1


def test_one_success_wins_at_difficulty_zero():
    result = v5.evaluate([6], [1], 0)
    assert result.win and result.margin == 1 and result.outcome == "solid"
    assert not result.total_failure and not result.bestial_failure


def test_unknown_bestial_rule_refused():
    with pytest.raises(DiceError):
        v5.evaluate([6], [], 1, "seed")


@pytest.mark.parametrize(
    "regular, hunger, difficulty",
    [([0], [], 1), ([11], [], 1), ([5], [1, 2, 3, 4, 5, 6], 1), ([5], [], -1), ([5] * 51, [], 1)],
)
def test_evaluate_refuses_bad_input(regular, hunger, difficulty):
    with pytest.raises(DiceError):
        v5.evaluate(regular, hunger, difficulty)


def test_evaluate_agrees_with_the_rules_on_every_small_roll():
    """Every face combination of 3 dice at every Hunger split, written out from docs/v5.md."""
    for faces in product(range(1, 11), repeat=3):
        for hunger_count in range(4):
            regular, hunger = faces[: 3 - hunger_count], faces[3 - hunger_count :]
            for difficulty in range(0, 7):
                result = v5.evaluate(regular, hunger, difficulty)
                tens = faces.count(10)
                successes = sum(f >= 6 for f in faces) + 2 * (tens // 2)
                win = successes >= difficulty and successes >= 1  # 0 never wins
                assert result.successes == successes
                assert result.win == win
                assert result.margin == successes - difficulty
                assert result.critical == (win and tens >= 2)
                assert result.messy_critical == (win and tens >= 2 and 10 in hunger)
                assert result.bestial_failure == (not win and 1 in hunger)
                assert result.total_failure == (successes == 0)


# ------------------------------------------------------------------ willpower rerolls


def test_choose_failures_takes_up_to_three_dice_under_six():
    result = v5.evaluate([1, 7, 5, 2, 3], [1], 3)
    assert v5.choose_failures(result) == (0, 2, 3)
    assert v5.choose_failures(v5.evaluate([6, 7], [1], 3)) == ()


def test_choose_crits_chases_a_pair_when_a_ten_is_unpaired():
    result = v5.evaluate([10, 7, 2, 9, 6], [], 2)
    assert v5.choose_crits(result) == (1, 2, 4)  # the 2, then the lowest successes 6 and 7
    assert v5.choose_crits(v5.evaluate([10, 10, 3], [], 2)) == ()  # already paired
    assert v5.choose_crits(v5.evaluate([3, 4], [10], 2)) == (0, 1)  # lone Hunger 10


def test_choose_messy_rerolls_regular_tens_when_still_winning():
    result = v5.evaluate([10, 7, 8], [10], 3)  # messy; without the regular 10: 3 successes
    assert result.messy_critical
    assert v5.choose_messy(result) == (0,)


def test_choose_messy_not_when_losing_without_them():
    result = v5.evaluate([10, 2], [10], 3)  # without the regular 10: 1 success < 3
    assert v5.choose_messy(result) == ()


def test_choose_messy_not_with_two_hunger_tens_or_no_messy():
    assert v5.choose_messy(v5.evaluate([10, 7], [10, 10], 1)) == ()
    assert v5.choose_messy(v5.evaluate([10, 10, 7], [3], 1)) == ()


def test_choose_faces_names_regular_dice_by_face():
    result = v5.evaluate([2, 5, 2, 9], [2], 3)
    assert v5.choose_faces(result, [2, 2]) == (0, 2)
    with pytest.raises(DiceError, match="no regular die showing 2"):
        v5.choose_faces(result, [2, 2, 2])  # the third 2 is a Hunger die
    with pytest.raises(DiceError):
        v5.choose_faces(result, [2, 5, 9, 2])


def test_reroll_never_touches_hunger_dice_and_evaluates_again():
    before = v5.evaluate([1, 2, 7], [1, 10], 3)
    assert before.bestial_failure
    after = v5.apply_reroll(before, (0, 1), (10, 6))
    assert after.regular == (10, 6, 7) and after.hunger == (1, 10)
    assert after.successes == 6 and after.messy_critical and after.rerolled == (0, 1)


def test_reroll_only_once_and_at_most_three_regular_dice():
    before = v5.evaluate([1, 2, 3, 4], [1], 3)
    with pytest.raises(DiceError):
        v5.apply_reroll(before, (0, 1, 2, 3), (6, 6, 6, 6))
    with pytest.raises(DiceError):
        v5.apply_reroll(before, (4,), (6,))  # index 4 is not a regular die
    once = v5.apply_reroll(before, (0,), (6,))
    with pytest.raises(DiceError, match="already"):
        v5.apply_reroll(once, (1,), (6,))


def test_reroll_with_a_source():
    before = v5.evaluate([1, 2, 3], [], 2)
    after = v5.reroll(before, v5.choose_failures(before), rng=FixedFaces([6, 10, 10]))
    assert after.regular == (6, 10, 10) and after.successes == 5 and after.critical


# ------------------------------------------------------------------ rouse reroll levels


@pytest.mark.parametrize("bp, level", [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3),
                                       (7, 4), (8, 4), (9, 5), (10, 5)])
def test_rouse_reroll_level(bp, level):
    assert v5.rouse_reroll_level(bp) == level


# ------------------------------------------------------------------ randomness


def test_roll_is_reproducible_with_a_seed():
    first = v5.roll(8, 2, 3, rng=random.Random(42))
    again = v5.roll(8, 2, 3, rng=random.Random(42))
    assert first == again
    with seeded(42):
        assert roll_faces(8) == roll_faces(8, random.Random(42))


def _exact_distribution(pool, hunger, difficulty):
    """Outcome frequencies by brute force over every face combination."""
    counts = Counter()
    for faces in product(range(1, 11), repeat=pool):
        result = v5.evaluate(faces[: pool - hunger], faces[pool - hunger :], difficulty)
        counts[result.outcome] += 1
    total = 10**pool
    return {key: Fraction(n, total) for key, n in counts.items()}


def test_roller_matches_exact_odds_statistically():
    """20,000 seeded rolls of 4 dice at Hunger 2 vs 2: each outcome within 4 standard errors."""
    rng = random.Random(20261201)
    n = 20_000
    seen = Counter(v5.roll(4, 2, 2, rng=rng).outcome for _ in range(n))
    for key, p in _exact_distribution(4, 2, 2).items():
        expected = float(p) * n
        sigma = (n * float(p) * (1 - float(p))) ** 0.5
        assert abs(seen[key] - expected) <= 4 * sigma + 1, (key, seen[key], expected)


def test_faces_are_uniform():
    rng = random.Random(7)
    faces = Counter(roll_faces(50_000, rng))
    assert set(faces) == set(range(1, 11))
    for face in range(1, 11):
        assert abs(faces[face] - 5000) < 4 * (50_000 * 0.1 * 0.9) ** 0.5


# ------------------------------------------------------------------ purity


def test_rules_import_no_django_or_evennia():
    # Every module in rules/ and its systems' subpackages, found on disk, so a new one is checked too.
    code = (
        "import importlib, pkgutil, sys, storyteller_dice.rules as rules\n"
        "names = [m.name for m in pkgutil.walk_packages(rules.__path__, 'storyteller_dice.rules.')]\n"
        "assert 'storyteller_dice.rules.v5' in names and 'storyteller_dice.rules.v5.rouse' in names, names\n"
        "for name in names: importlib.import_module(name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'evennia', 'twisted')]\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_rollers_hunger_is_kept_through_rerolls_and_rescoring():
    # A 2-die pool at Hunger 4: both dice are Hunger dice, but the roller's Hunger is 4.
    result = v5.roll(2, 4, 1, rng=FixedFaces([6, 1]))
    assert result.hunger == (6, 1) and result.hunger_level == 4
    assert v5.rescore(result, 3).hunger_level == 4
    assert v5.evaluate([6], [1, 2], 1).hunger_level == 2  # faces given: the Hunger dice count
    mixed = v5.roll(4, 1, 2, rng=FixedFaces([1, 2, 7, 3]))
    assert v5.reroll(mixed, (0,), rng=FixedFaces([9])).hunger_level == 1

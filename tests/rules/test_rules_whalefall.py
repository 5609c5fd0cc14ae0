"""Whalefall (rules/whalefall/__init__.py, docs/whalefall.md): explicit faces, exact odds, properties."""

import random
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storyteller_dice.rules import whalefall
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces

# ---------------------------------------------------------------- the rules' examples


def test_gomez_persuades_the_guard():
    # Seed: TN (6,2), 3 levels of Diplomacy, rolls 3, 7, 9 and succeeds.
    result = whalefall.evaluate([3, 7, 9], 6, 2)
    assert result.success is True
    assert result.meeting == 2
    assert result.meeting_faces == (7, 9)
    assert result.partial is False
    assert result.automatic is False
    assert result.dice == (3, 7, 9)
    assert result.pool == 3
    assert result.notation == "(6,2)"


def test_ryuji_misses_the_leap_flagged_partial():
    # Seed: TN (5,2), rolls 2, 4, 10: fails, one die met 5, the GM may rule a partial failure.
    result = whalefall.evaluate([2, 4, 10], 5, 2)
    assert result.success is False
    assert result.meeting == 1
    assert result.meeting_faces == (10,)
    assert result.partial is True


def test_example_tn_five_two_needs_two_dice_at_five():
    # Seed: "(5,2) Player must roll at least a 5 on 2 dice."
    assert whalefall.evaluate([5, 5], 5, 2).success is True
    assert whalefall.evaluate([5, 4], 5, 2).success is False
    assert whalefall.parse_target("(5,2)") == (5, 2)


def test_ilija_rolls_four_d10s_for_athletics():
    # Seed: 4 levels of Athletics -> a pool of 4 D10s.
    assert whalefall.parse_dice("4d10") == (4, 10)
    result = whalefall.roll(4, 5, 2, FixedFaces([1, 5, 9, 2]))
    assert result.dice == (1, 5, 9, 2)
    assert result.success is True


# ---------------------------------------------------------------- each rule


def test_meeting_counts_faces_equal_to_the_target():
    assert whalefall.evaluate([6, 6], 6, 2).meeting == 2
    assert whalefall.evaluate([5, 5], 6, 2).meeting == 0


def test_success_needs_exactly_the_count_or_more():
    assert whalefall.evaluate([6, 1, 1], 6, 2).success is False
    assert whalefall.evaluate([6, 6, 1], 6, 2).success is True
    assert whalefall.evaluate([6, 6, 6], 6, 2).success is True


def test_partial_only_on_failure_with_a_die_meeting():
    assert whalefall.evaluate([1, 2, 3], 5, 2).partial is False  # none met
    assert whalefall.evaluate([9, 2, 3], 5, 2).partial is True
    assert whalefall.evaluate([9, 9, 3], 5, 2).partial is False  # success is not partial
    assert whalefall.evaluate([9, 9, 3], 5, 3).partial is True


def test_face_one_target_is_met_by_every_die():
    result = whalefall.evaluate([1, 1], 1, 2)
    assert result.meeting == 2 and result.success


def test_face_equal_to_sides():
    assert whalefall.evaluate([8, 7], 8, 1, sides=8).success is True
    assert whalefall.evaluate([7, 7], 8, 1, sides=8).partial is False


def test_fewer_faces_than_the_count_cannot_succeed():
    result = whalefall.evaluate([10], 5, 2)
    assert result.success is False
    assert result.partial is True
    assert result.automatic is False


def test_empty_pool_evaluates_to_a_plain_failure():
    result = whalefall.evaluate([], 5, 1)
    assert (result.meeting, result.success, result.partial, result.dice) == (0, False, False, ())


def test_other_die_sizes():
    result = whalefall.evaluate([8, 3, 7, 6], 6, 3, sides=8)
    assert result.sides == 8
    assert result.meeting == 3 and result.success
    assert whalefall.evaluate([20, 19], 19, 2, sides=20).success is True
    assert whalefall.evaluate([2, 1], 2, 1, sides=2).success is True
    assert whalefall.evaluate([100], 100, 1, sides=100).success is True


def test_evaluate_refuses_faces_outside_the_die():
    with pytest.raises(DiceError, match=r"^Faces on a d8 are whole numbers from 1 to 8, not 9\.$"):
        whalefall.evaluate([9], 5, 1, sides=8)
    with pytest.raises(DiceError, match="not 0"):
        whalefall.evaluate([0], 5, 1)
    with pytest.raises(DiceError, match="not 11"):
        whalefall.evaluate([11], 5, 1)
    with pytest.raises(DiceError, match="not True"):
        whalefall.evaluate([True], 1, 1)
    with pytest.raises(DiceError, match="not 5.0"):
        whalefall.evaluate([5.0], 5, 1)
    assert whalefall.evaluate([10], 5, 1).success  # 10 is on a d10


def test_evaluate_refuses_bad_targets():
    msg_face = r"^The face to reach is from 1 to 10 on a d10\.$"
    for target in (0, 11, True, 5.0, None):
        with pytest.raises(DiceError, match=msg_face):
            whalefall.evaluate([5], target, 1)
    with pytest.raises(DiceError, match=r"^The face to reach is from 1 to 6 on a d6\.$"):
        whalefall.evaluate([5], 7, 1, sides=6)
    msg_count = r"^The number of dice needed is from 1 to 50\.$"
    for needed in (0, 51, -1, True, 2.0, None):
        with pytest.raises(DiceError, match=msg_count):
            whalefall.evaluate([5], 5, needed)
    assert whalefall.evaluate([5], 5, 50).success is False
    assert whalefall.evaluate([5], 10, 1).success is False


def test_evaluate_refuses_bad_sides():
    msg = r"^Dice have from 2 to 100 sides\.$"
    for sides in (1, 101, 0, True, 10.0, None):
        with pytest.raises(DiceError, match=msg):
            whalefall.evaluate([1], 1, 1, sides=sides)


def test_evaluate_refuses_more_than_fifty_dice():
    assert whalefall.evaluate([5] * 50, 5, 50).success is True
    with pytest.raises(DiceError, match=r"^That pool is 51 dice; pools are limited to 50\.$"):
        whalefall.evaluate([5] * 51, 5, 1)


def test_result_is_frozen():
    result = whalefall.evaluate([5], 5, 1)
    with pytest.raises(AttributeError):
        result.success = False


# ---------------------------------------------------------------- automatic failure and rolling


def test_pool_smaller_than_the_count_fails_without_rolling():
    rng = FixedFaces([])  # raises if any die is drawn
    result = whalefall.check(2, 5, 3, rng)
    assert result == whalefall.WhalefallResult(
        dice=(), target=5, needed=3, sides=10, meeting=0, success=False, partial=False, automatic=True
    )
    assert whalefall.roll(0, 5, 1, rng).automatic is True
    assert whalefall.roll(2, 4, 3, rng, sides=6).sides == 6


def test_automatic_failure_helper():
    result = whalefall.automatic_failure(1, 6, 2, sides=8)
    assert (result.dice, result.success, result.partial, result.automatic, result.sides) == ((), False, False, True, 8)
    assert whalefall.automatic_failure(0, 6, 1).automatic is True
    with pytest.raises(DiceError, match=r"^A pool of 2 can reach 2 dice: roll it\.$"):
        whalefall.automatic_failure(2, 6, 2)
    with pytest.raises(DiceError, match="face to reach"):
        whalefall.automatic_failure(1, 11, 2)
    with pytest.raises(DiceError, match=r"from 1 to 8 on a d8"):
        whalefall.automatic_failure(1, 9, 2, sides=8)
    with pytest.raises(DiceError, match="dice needed"):
        whalefall.automatic_failure(1, 6, 51, sides=8)
    with pytest.raises(DiceError, match="sides"):
        whalefall.automatic_failure(1, 6, 2, sides=1)
    with pytest.raises(DiceError, match="pools are limited"):
        whalefall.automatic_failure(51, 5, 50)


def test_pool_equal_to_the_count_is_rolled():
    result = whalefall.roll(2, 5, 2, FixedFaces([5, 6]))
    assert result.automatic is False
    assert result.success is True


def test_roll_draws_the_pool_with_the_die_size():
    rng = FixedFaces([8, 1, 3])
    result = whalefall.roll(3, 3, 2, rng, sides=8)
    assert result.dice == (8, 1, 3)
    assert result.sides == 8
    assert result.success is True
    assert rng.remaining == []
    with pytest.raises(AssertionError, match="outside 1..8"):
        whalefall.roll(1, 3, 1, FixedFaces([9]), sides=8)


def test_roll_is_reproducible_with_a_seeded_source():
    first = whalefall.roll(6, 6, 2, random.Random(7))
    second = whalefall.roll(6, 6, 2, random.Random(7))
    assert first == second
    expected = random.Random(7)
    assert first.dice == tuple(expected.randint(1, 10) for _ in range(6))


def test_roll_uses_the_default_source():
    from storyteller_dice.rules import randomness

    with randomness.seeded(3):
        result = whalefall.roll(4, 6, 2)
    expected = random.Random(3)
    assert result.dice == tuple(expected.randint(1, 10) for _ in range(4))


def test_roll_refuses_bad_input_before_rolling():
    with pytest.raises(DiceError, match=r"^That pool is 51 dice; pools are limited to 50\.$"):
        whalefall.roll(51, 5, 2, FixedFaces([]))
    with pytest.raises(DiceError, match=r"^A pool is a whole number of dice, 0 or more\.$"):
        whalefall.roll(-1, 5, 2, FixedFaces([]))
    with pytest.raises(DiceError, match="pool is a whole number"):
        whalefall.roll(2.0, 5, 2, FixedFaces([]))
    with pytest.raises(DiceError, match="pool is a whole number"):
        whalefall.roll(True, 5, 1, FixedFaces([]))
    with pytest.raises(DiceError, match="face to reach"):
        whalefall.roll(5, 11, 1, FixedFaces([]))
    with pytest.raises(DiceError, match="dice needed"):
        whalefall.roll(5, 5, 0, FixedFaces([]))
    with pytest.raises(DiceError, match="sides"):
        whalefall.roll(5, 5, 1, FixedFaces([]), sides=1)


def test_module_identity():
    assert whalefall.KEY == "whalefall"
    assert whalefall.TITLE == "Whalefall"
    assert whalefall.check is whalefall.roll


# ---------------------------------------------------------------- notation


@pytest.mark.parametrize(
    "text, expected",
    [("(5,2)", (5, 2)), ("( 6 , 2 )", (6, 2)), ("6,2", (6, 2)), (" (10,1) ", (10, 1)), ("(1,50)", (1, 50))],
)
def test_parse_target(text, expected):
    assert whalefall.parse_target(text) == expected


def test_parse_target_checks_the_face_against_the_die():
    assert whalefall.parse_target("(12,1)", sides=12) == (12, 1)
    with pytest.raises(DiceError, match=r"^The face to reach is from 1 to 8 on a d8\.$"):
        whalefall.parse_target("(9,1)", sides=8)


@pytest.mark.parametrize(
    "text",
    ["", "()", "(5)", "(5,)", "(,2)", "5", "(5,2", "5,2)", "(5;2)", "(a,b)", "(5,2,1)", "((5,2))", "(5 2)",
     "(-5,2)", "(12345,1)", "(٥,2)", "x(5,2)", "(5,2)x", None, 52],
)
def test_parse_target_refuses_bad_text(text):
    message = r"^Write the target number as \(face,count\), like \(5,2\): at least 2 dice showing 5 or more\.$"
    with pytest.raises(DiceError, match=message):
        whalefall.parse_target(text)


@pytest.mark.parametrize("text", ["(0,2)", "(11,2)", "(5,0)", "(5,51)"])
def test_parse_target_refuses_out_of_range(text):
    with pytest.raises(DiceError, match="face to reach|dice needed"):
        whalefall.parse_target(text)


@pytest.mark.parametrize(
    "text, expected",
    [("4d8", (4, 8)), ("4D8", (4, 8)), (" 4 d 8 ", (4, 8)), ("4", (4, 10)), ("0d10", (0, 10)), ("50d100", (50, 100)),
     ("3d2", (3, 2))],
)
def test_parse_dice(text, expected):
    assert whalefall.parse_dice(text) == expected


@pytest.mark.parametrize("text", ["", "d8", "4d", "4x8", "4d8d8", "-4d8", "4 8", "four", "4d٨", "12345d8", None, 4])
def test_parse_dice_refuses_bad_text(text):
    message = r"^Write the dice as <count>d<sides>, like 4d10 or 4d8 \(a plain number means d10s\)\.$"
    with pytest.raises(DiceError, match=message):
        whalefall.parse_dice(text)


def test_parse_dice_refuses_out_of_range():
    with pytest.raises(DiceError, match="pools are limited to 50"):
        whalefall.parse_dice("51d10")
    with pytest.raises(DiceError, match="from 2 to 100 sides"):
        whalefall.parse_dice("4d1")
    with pytest.raises(DiceError, match="from 2 to 100 sides"):
        whalefall.parse_dice("4d101")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_parsers_raise_only_dice_error(text):
    for parser in (whalefall.parse_target, whalefall.parse_dice):
        try:
            parser(text)
        except DiceError:
            pass


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 10), st.integers(1, 50), st.sampled_from(["({},{})", "( {} , {} )", "{},{}"]))
def test_parse_target_reads_what_it_writes(face, count, form):
    assert whalefall.parse_target(form.format(face, count)) == (face, count)


# ---------------------------------------------------------------- exact odds


def icepool_odds(pool, target, needed, sides):
    if pool < needed:
        return {"success": Fraction(0), "partial": Fraction(0), "distribution": {0: Fraction(1)}}
    meeting = pool @ (icepool.d(sides) >= target)
    distribution = {k: Fraction(meeting.probability(k)) for k in meeting.outcomes() if meeting.quantity(k)}
    return {
        "success": Fraction(meeting.probability(">=", needed)),
        "partial": Fraction(sum(p for k, p in distribution.items() if 1 <= k < needed)),
        "distribution": distribution,
    }


GRID = [
    (pool, target, needed, sides)
    for sides in (2, 6, 8, 10, 12, 20)
    for pool in (0, 1, 2, 3, 5, 8)
    for target in sorted({1, 2, sides // 2, sides - 1, sides})
    for needed in (1, 2, 3, 5, 9)
]


@pytest.mark.parametrize("pool, target, needed, sides", GRID)
def test_odds_equal_icepool(pool, target, needed, sides):
    ours = whalefall.odds(pool, target, needed, sides)
    assert ours == icepool_odds(pool, target, needed, sides)
    assert sum(ours["distribution"].values()) == 1
    assert all(isinstance(p, Fraction) for p in (ours["success"], ours["partial"], *ours["distribution"].values()))


@pytest.mark.parametrize("pool, target, needed", [(50, 6, 20), (50, 10, 1), (50, 1, 50), (50, 9, 30), (30, 7, 12)])
def test_odds_at_large_pools_equal_icepool(pool, target, needed):
    assert whalefall.odds(pool, target, needed) == icepool_odds(pool, target, needed, 10)


def test_odds_by_hand():
    # Three d10 at (6,2): half the faces meet 6, so P(>= 2 of 3) = (3 + 1) / 8.
    assert whalefall.odds(3, 6, 2) == {
        "success": Fraction(1, 2),
        "partial": Fraction(3, 8),
        "distribution": {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8), 3: Fraction(1, 8)},
    }
    # One d8 at (8,1): 1 in 8.
    assert whalefall.odds(1, 8, 1, sides=8)["success"] == Fraction(1, 8)
    # Face 1 always meets: no zero-count outcomes are listed.
    assert whalefall.odds(2, 1, 2) == {"success": Fraction(1), "partial": Fraction(0), "distribution": {2: Fraction(1)}}


def test_odds_of_an_automatic_failure():
    assert whalefall.odds(2, 5, 3) == {"success": 0, "partial": 0, "distribution": {0: 1}}
    assert whalefall.odds(0, 5, 1)["success"] == 0


def test_odds_refuse_bad_input():
    with pytest.raises(DiceError, match="pools are limited to 50"):
        whalefall.odds(51, 5, 2)
    with pytest.raises(DiceError, match="pool is a whole number"):
        whalefall.odds(-1, 5, 2)
    with pytest.raises(DiceError, match="face to reach"):
        whalefall.odds(5, 11, 2)
    with pytest.raises(DiceError, match="dice needed"):
        whalefall.odds(5, 5, 0)
    with pytest.raises(DiceError, match="sides"):
        whalefall.odds(5, 5, 2, sides=101)


# ---------------------------------------------------------------- against an independent evaluator


def reference(dice, target, needed):
    """Sort high to low: the check succeeds when the needed-th best die reaches the target."""
    ranked = sorted(dice, reverse=True)
    success = len(ranked) >= needed and ranked[needed - 1] >= target
    best = ranked[0] if ranked else 0
    return success, len([d for d in ranked if d >= target]), (not success) and best >= target


def test_twenty_thousand_random_cases_match_the_reference():
    rng = random.Random(20240901)
    for _ in range(20000):
        sides = rng.choice((4, 6, 8, 10, 10, 12, 20))
        dice = [rng.randint(1, sides) for _ in range(rng.randint(0, 12))]
        target = rng.randint(1, sides)
        needed = rng.randint(1, 8)
        result = whalefall.evaluate(dice, target, needed, sides)
        assert (result.success, result.meeting, result.partial) == reference(dice, target, needed), (dice, target, needed)


# ---------------------------------------------------------------- properties


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_evaluate_never_raises_in_range(data):
    sides = data.draw(st.integers(2, 100))
    dice = data.draw(st.lists(st.integers(1, sides), max_size=50))
    target = data.draw(st.integers(1, sides))
    needed = data.draw(st.integers(1, 50))
    result = whalefall.evaluate(dice, target, needed, sides)
    assert result.success == (result.meeting >= needed)
    assert not (result.success and result.partial)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.tuples(st.just("face"), st.integers(max_value=0) | st.integers(min_value=11)),
        st.tuples(st.just("target"), st.integers(max_value=0) | st.integers(min_value=11)),
        st.tuples(st.just("needed"), st.integers(max_value=0) | st.integers(min_value=51)),
        st.tuples(st.just("pool"), st.integers(51, 80)),
    )
)
def test_evaluate_refuses_out_of_range(case):
    what, value = case
    dice, target, needed = [5, 5], 5, 1
    if what == "face":
        dice = [5, value]
    elif what == "target":
        target = value
    elif what == "needed":
        needed = value
    else:
        dice = [5] * value
    with pytest.raises(DiceError):
        whalefall.evaluate(dice, target, needed)

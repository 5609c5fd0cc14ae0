"""The Dice Check (rules/dicecheck/__init__.py, docs/dicecheck.md): explicit faces, exact odds, properties."""

import random
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storyteller_dice.rules import dicecheck
from storyteller_dice.rules.dicecheck import CheckRequest, Side
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces

# ---------------------------------------------------------------- the rules' examples


def test_rudolf_cuts_with_his_arming_sword():
    # Seed example 1: 9d(7+):EVA against EVA 2, faces 2,4,4,5,6,7,7,9,10: 4 Hits, 2 Effect.
    request = dicecheck.parse("9d(7+):EVA")
    assert request == CheckRequest(left=Side(kind="static", dice=9, threshold=7), right=Side(kind="defence", name="EVA"))
    result = dicecheck.evaluate([2, 4, 4, 5, 6, 7, 7, 9, 10], request.left.threshold, 2)
    assert result.hits == 4
    assert result.success is True
    assert result.effect == 2
    assert result.botch_margin == 0
    assert result.big_botch is False
    assert result.dos == 2
    assert result.pool == 9


def test_esmera_stitches_the_wound():
    # Seed example 2: 11 dice at 6+ against TN 4, faces 1,2,2,4,6,6,7,8,9,9,10: 7 Hits,
    # Effect 3, DoS 2 (Heavy -> Moderate -> Light, two Wound Levels).
    result = dicecheck.evaluate([1, 2, 2, 4, 6, 6, 7, 8, 9, 9, 10], 6, 4)
    assert (result.hits, result.success, result.effect, result.dos) == (7, True, 3, 2)
    assert (result.botch_margin, result.big_botch) == (0, False)


def test_core_mechanic_bullets():
    # Hits >= TN -> success (Effect 0 when equal); Hits > TN -> Effect; Hits < TN -> botch margin.
    equal = dicecheck.evaluate([7, 7, 1], 7, 2)
    assert (equal.success, equal.effect, equal.botch_margin, equal.dos) == (True, 0, 0, 1)
    over = dicecheck.evaluate([7, 7, 7], 7, 2)
    assert (over.success, over.effect, over.dos) == (True, 1, 1)
    under = dicecheck.evaluate([7, 1, 1], 7, 3)
    assert (under.success, under.effect, under.botch_margin, under.big_botch, under.dos) == (False, 0, 2, False, 0)


def test_big_botch_is_three_or_more():
    two = dicecheck.evaluate([1, 1], 7, 2)
    assert (two.botch_margin, two.big_botch) == (2, False)
    three = dicecheck.evaluate([1, 1], 7, 3)
    assert (three.botch_margin, three.big_botch) == (3, True)
    four = dicecheck.evaluate([10], 7, 5)
    assert (four.hits, four.botch_margin, four.big_botch) == (1, 4, True)


@pytest.mark.parametrize(
    "text, left, right",
    [
        ("STR:3", Side(kind="attribute", name="STR"), Side(kind="number", value=3)),
        ("Swords (Cut):EVA", Side(kind="skill", name="Swords", focus="Cut"), Side(kind="defence", name="EVA")),
        (
            "Command (Intimidate):GRI",
            Side(kind="skill", name="Command", focus="Intimidate"),
            Side(kind="defence", name="GRI"),
        ),
        (
            "Athletics (Grapple):Athletics (Grapple)",
            Side(kind="skill", name="Athletics", focus="Grapple"),
            Side(kind="opposed", name="Athletics", focus="Grapple"),
        ),
        ("12d(6+):3", Side(kind="static", dice=12, threshold=6), Side(kind="number", value=3)),
        ("9d(7+):EVA", Side(kind="static", dice=9, threshold=7), Side(kind="defence", name="EVA")),
    ],
)
def test_parse_the_seeds_notation(text, left, right):
    request = dicecheck.parse(text)
    assert request == CheckRequest(left=left, right=right)
    assert request.opposed is (right.kind == "opposed")


def test_static_check_twelve_dice_at_six_needs_three():
    request = dicecheck.parse("12d(6+):3")
    rng = FixedFaces([6, 1, 2, 3, 4, 5, 6, 9, 1, 1, 1, 1])
    result = dicecheck.roll(request.left.dice, request.left.threshold, request.right.value, rng)
    assert (result.hits, result.success, result.botch_margin) == (3, True, 0)


def test_opposed_grapple_uses_the_other_sides_hits_as_tn():
    result = dicecheck.evaluate_opposed([7, 8, 2], 7, [9, 1], 7)
    assert result.other.hits == 1
    assert result.active.tn == 1
    assert (result.active.hits, result.active.effect, result.success) == (2, 1, True)
    assert result.other.tn == 0


def test_opposed_tie_goes_to_the_active_side():
    result = dicecheck.evaluate_opposed([7, 2], 7, [9, 1], 7)
    assert (result.success, result.active.effect, result.active.dos) == (True, 0, 1)
    lost = dicecheck.evaluate_opposed([2, 2], 7, [9, 9, 9], 9)
    assert (lost.success, lost.active.botch_margin, lost.active.big_botch) == (False, 3, True)


def test_opposed_roll_draws_active_then_other():
    rng = FixedFaces([10, 10, 3, 6, 6])
    result = dicecheck.opposed(3, 7, 2, 6, rng)
    assert result.active.dice == (10, 10, 3)
    assert result.other.dice == (6, 6)
    assert result.active.threshold == 7 and result.other.threshold == 6
    assert (result.active.tn, result.success, result.active.effect) == (2, True, 0)
    assert rng.remaining == []


def test_opposed_refuses_bad_input_before_rolling():
    for args, message in [
        ((51, 7, 2, 6), "pools are limited"),
        ((3, 7, 51, 6), "pools are limited"),
        ((3, 0, 2, 6), "threshold"),
        ((3, 7, 2, 11), "threshold"),
    ]:
        with pytest.raises(DiceError, match=message):
            dicecheck.opposed(*args, FixedFaces([]))


def test_damage_check_effect_becomes_wounds():
    result = dicecheck.evaluate([9, 9, 9, 2], 7, 1, damage=True)
    assert (result.damage, result.effect, result.wounds) == (True, 2, 2)
    blocked = dicecheck.evaluate([9, 2], 7, 3, damage=True)
    assert (blocked.success, blocked.wounds) == (False, 0)
    plain = dicecheck.evaluate([9, 9, 9, 2], 7, 1)
    assert (plain.damage, plain.wounds) == (False, 0)
    rolled = dicecheck.roll(2, 7, 0, FixedFaces([8, 8]), damage=True)
    assert rolled.wounds == 2
    assert dicecheck.evaluate([9], 7, 0, damage=1).damage is True


# ---------------------------------------------------------------- degree of success


@pytest.mark.parametrize(
    "effect, dos",
    [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3), (7, 3), (8, 4), (15, 4), (16, 5), (31, 5), (32, 6), (63, 6), (64, 7)],
)
def test_degree_of_success_table_edges(effect, dos):
    assert dicecheck.degree_of_success(effect) == dos


def test_degree_of_success_on_evaluated_checks():
    faces = [10] * 50
    assert [dicecheck.evaluate(faces, 5, tn).dos for tn in (50, 49, 48, 47, 46, 43, 42, 35, 34, 19, 18, 0)] == [
        1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
    ]


def test_degree_of_success_refuses_bad_effect():
    for effect in (-1, 1.0, True, None):
        with pytest.raises(DiceError, match=r"^Effect is a whole number, 0 or more\.$"):
            dicecheck.degree_of_success(effect)


# ---------------------------------------------------------------- threshold and pool


@pytest.mark.parametrize(
    "level, threshold",
    [(1, 10), (2, 9), (3, 7), (4, 7), (5, 6), (6, 6), (7, 6), (8, 5), (9, 5), (10, 5), (11, 5)],
)
def test_threshold_from_attribute(level, threshold):
    assert dicecheck.threshold_for_attribute(level) == threshold


@pytest.mark.parametrize("level", [0, 12, -1, True, 3.0, None, "3"])
def test_threshold_from_attribute_refuses_other_levels(level):
    with pytest.raises(DiceError, match=r"^Attribute levels run from 1 to 11\.$"):
        dicecheck.threshold_for_attribute(level)


def test_threshold_is_x_plus():
    assert dicecheck.evaluate([6, 5], 6, 0).hits == 1
    assert dicecheck.evaluate([10, 9], 10, 0).hits == 1
    assert dicecheck.evaluate([1, 1], 1, 2).hits == 2


def test_build_pool():
    assert dicecheck.build_pool(3) == 3
    assert dicecheck.build_pool(3, 2) == 5
    assert dicecheck.build_pool(3, 2, 1) == 6
    assert dicecheck.build_pool(3, 2, 1, (2, -1)) == 7
    assert dicecheck.build_pool(1, 0, 0, [-3]) == 0  # floored at 0
    assert dicecheck.build_pool(0) == 0
    assert dicecheck.build_pool(20, 20, 5, (5,)) == 50
    with pytest.raises(DiceError, match=r"^That pool is 51 dice; pools are limited to 50\.$"):
        dicecheck.build_pool(20, 20, 5, (6,))
    for bad in ((-1, 0, 0), (3, -1, 0), (3, 0, -1)):
        with pytest.raises(DiceError, match=r"^Attribute dice, training and Focus are 0 or more\.$"):
            dicecheck.build_pool(*bad)
    for bad in ((3.0,), (3, "2"), (3, 0, True), (3, 0, 0, (1.5,))):
        with pytest.raises(DiceError, match=r"^Pool parts are whole numbers of dice\.$"):
            dicecheck.build_pool(*bad)


# ---------------------------------------------------------------- refusals


def test_evaluate_refuses_bad_faces():
    for face in (0, 11, True, 5.0, None):
        with pytest.raises(DiceError, match=rf"^d10 faces are whole numbers from 1 to 10, not {face!r}\.$"):
            dicecheck.evaluate([5, face], 6, 1)
    assert dicecheck.evaluate([1, 10], 6, 1).hits == 1


def test_evaluate_refuses_bad_threshold_and_tn():
    for threshold in (0, 11, True, 6.0, None):
        with pytest.raises(DiceError, match=r"^A threshold is from 1\+ to 10\+\.$"):
            dicecheck.evaluate([5], threshold, 1)
    for tn in (-1, 51, True, 1.0, None):
        with pytest.raises(DiceError, match=r"^A target number is from 0 to 50 hits\.$"):
            dicecheck.evaluate([5], 6, tn)
    assert dicecheck.evaluate([5], 6, 50).botch_margin == 50
    assert dicecheck.evaluate([], 6, 0).success is True


def test_evaluate_refuses_more_than_fifty_dice():
    assert dicecheck.evaluate([6] * 50, 6, 50).success is True
    with pytest.raises(DiceError, match=r"^That pool is 51 dice; pools are limited to 50\.$"):
        dicecheck.evaluate([6] * 51, 6, 1)


def test_roll_refuses_bad_input_before_rolling():
    with pytest.raises(DiceError, match=r"^That pool is 51 dice; pools are limited to 50\.$"):
        dicecheck.roll(51, 6, 1, FixedFaces([]))
    for pool in (-1, 2.0, True):
        with pytest.raises(DiceError, match=r"^A pool is a whole number of dice, 0 or more\.$"):
            dicecheck.roll(pool, 6, 1, FixedFaces([]))
    with pytest.raises(DiceError, match="threshold"):
        dicecheck.roll(3, 11, 1, FixedFaces([]))
    with pytest.raises(DiceError, match="target number"):
        dicecheck.roll(3, 6, 51, FixedFaces([]))


def test_result_is_frozen():
    result = dicecheck.evaluate([5], 5, 1)
    with pytest.raises(AttributeError):
        result.hits = 0


# ---------------------------------------------------------------- rolling


def test_roll_with_fixed_faces():
    rng = FixedFaces([7, 6, 10])
    result = dicecheck.roll(3, 7, 1, rng)
    assert result.dice == (7, 6, 10)
    assert (result.hits, result.effect, result.damage) == (2, 1, False)
    assert rng.remaining == []
    assert dicecheck.roll(0, 6, 0, FixedFaces([])).dice == ()


def test_roll_is_reproducible_with_a_seeded_source():
    expected = random.Random(11)
    result = dicecheck.roll(8, 7, 2, random.Random(11))
    assert result.dice == tuple(expected.randint(1, 10) for _ in range(8))


def test_roll_uses_the_default_source():
    from storyteller_dice.rules import randomness

    with randomness.seeded(5):
        result = dicecheck.roll(4, 6, 2)
    expected = random.Random(5)
    assert result.dice == tuple(expected.randint(1, 10) for _ in range(4))
    with randomness.seeded(5):
        duel = dicecheck.opposed(2, 6, 2, 6)
    assert duel.active.dice + duel.other.dice == result.dice


def test_module_identity():
    assert dicecheck.KEY == "dicecheck"
    assert dicecheck.TITLE == "The Dice Check"


# ---------------------------------------------------------------- notation


@pytest.mark.parametrize(
    "text, left, right",
    [
        ("str:3", Side(kind="attribute", name="STR"), Side(kind="number", value=3)),
        (" DEX : 0 ", Side(kind="attribute", name="DEX"), Side(kind="number", value=0)),
        ("Swords:eva", Side(kind="skill", name="Swords"), Side(kind="defence", name="EVA")),
        ("Animal Ken ( Calm ):2", Side(kind="skill", name="Animal Ken", focus="Calm"), Side(kind="number", value=2)),
        ("Sleight-of-hand (Pick Pocket):50", Side(kind="skill", name="Sleight-of-hand", focus="Pick Pocket"),
         Side(kind="number", value=50)),
        ("12 D ( 6 + ):Athletics", Side(kind="static", dice=12, threshold=6), Side(kind="opposed", name="Athletics")),
        ("ST:3", Side(kind="skill", name="ST"), Side(kind="number", value=3)),
        ("STRE:GRIT", Side(kind="skill", name="STRE"), Side(kind="opposed", name="GRIT")),
        ("50d(1+):0", Side(kind="static", dice=50, threshold=1), Side(kind="number", value=0)),
        ("1d(10+):Brawl (Throw)", Side(kind="static", dice=1, threshold=10),
         Side(kind="opposed", name="Brawl", focus="Throw")),
    ],
)
def test_parse_variants(text, left, right):
    assert dicecheck.parse(text) == CheckRequest(left=left, right=right)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", r"^Say what to check, like STR:3, Swords \(Cut\):EVA or 12d\(6\+\):3\.$"),
        ("   ", "Say what to check"),
        (None, "Say what to check"),
        (3, "Say what to check"),
        ("STR" + " " * 96 + ":3", r"^That check is too long \(over 100 characters\)\.$"),
        ("STR", r"^Write a check as <pool>:<target> with one colon, like STR:3 or Swords \(Cut\):EVA\.$"),
        ("STR:3:4", "with one colon"),
        (":3", r"^Both sides of the colon are needed, like STR:3 or Swords \(Cut\):EVA\.$"),
        ("STR: ", "Both sides"),
        ("Swords (:EVA", r"^I can't read 'Swords \(': use a Skill with its Focus in parentheses, like Swords \(Cut\), "
                         r"or a three-letter abbreviation like STR\.$"),
        ("Swords ():EVA", "can't read 'Swords \\(\\)'"),
        ("Swords (Cut)x:EVA", "can't read"),
        ("3:3", "can't read '3'"),
        ("STR:-1", "can't read '-1'"),
        ("STR:12d(6+)", "can't read"),
        ("12d(6):3", "can't read"),
        ("12d6+:3", "can't read"),
        ("Swords (Cut) (Thrust):EVA", "can't read"),
        ("Sw0rds:EVA", "can't read"),
        ("STR:Swords (٣)", "can't read"),
    ],
)
def test_parse_refuses_bad_text(text, message):
    with pytest.raises(DiceError, match=message):
        dicecheck.parse(text)


def test_parse_length_limit_is_one_hundred():
    assert dicecheck.parse("STR:" + "0" * 1 + " " * 95).right.value == 0
    with pytest.raises(DiceError, match="too long"):
        dicecheck.parse("STR:" + "0" + " " * 96)


@pytest.mark.parametrize(
    "text, message",
    [
        ("STR:51", r"^A target number is from 0 to 50 hits\.$"),
        ("0d(6+):3", r"^A static check rolls at least 1 die\.$"),
        ("12d(0+):3", r"^A threshold is from 1\+ to 10\+\.$"),
        ("12d(11+):3", "threshold"),
        ("12345d(6+):3", "can't read"),
    ],
)
def test_parse_refuses_out_of_range(text, message):
    with pytest.raises(DiceError, match=message):
        dicecheck.parse(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40) | st.text(alphabet="STRd()+:0123456789 CutEVA", max_size=30))
def test_parse_raises_only_dice_error(text):
    try:
        request = dicecheck.parse(text)
    except DiceError:
        return
    assert request.left.kind in ("attribute", "skill", "static")
    assert request.right.kind in ("number", "defence", "opposed")


# ---------------------------------------------------------------- exact odds


def icepool_odds(pool, threshold, tn):
    hits = pool @ (icepool.d10 >= threshold)

    def degree(h):
        return dicecheck.degree_of_success(h - tn) if h >= tn else 0

    dos = hits.map(degree)
    return {
        "success": Fraction(hits.probability(">=", tn)),
        "big_botch": Fraction(hits.probability("<=", tn - 3)),
        "dos": {k: Fraction(dos.probability(k)) for k in dos.outcomes() if dos.quantity(k)},
        "hits": {k: Fraction(hits.probability(k)) for k in hits.outcomes() if hits.quantity(k)},
    }


GRID = [
    (pool, threshold, tn)
    for pool in (0, 1, 2, 3, 5, 8, 13)
    for threshold in (1, 2, 5, 6, 7, 9, 10)
    for tn in (0, 1, 2, 3, 4, 6, 9, 14)
]


@pytest.mark.parametrize("pool, threshold, tn", GRID)
def test_odds_equal_icepool(pool, threshold, tn):
    ours = dicecheck.odds(pool, threshold, tn)
    assert ours == icepool_odds(pool, threshold, tn)
    assert sum(ours["dos"].values()) == 1
    assert sum(ours["hits"].values()) == 1
    assert all(isinstance(p, Fraction) for p in (ours["success"], ours["big_botch"], *ours["dos"].values()))


@pytest.mark.parametrize("pool, threshold, tn", [(50, 6, 20), (50, 5, 0), (50, 10, 3), (50, 7, 50), (40, 7, 12)])
def test_odds_at_large_pools_equal_icepool(pool, threshold, tn):
    assert dicecheck.odds(pool, threshold, tn) == icepool_odds(pool, threshold, tn)


def test_odds_by_hand():
    # Two dice at 6+ (half the faces hit) against TN 1: 3/4 success, never a big botch.
    assert dicecheck.odds(2, 6, 1) == {
        "success": Fraction(3, 4),
        "big_botch": Fraction(0),
        "dos": {0: Fraction(1, 4), 1: Fraction(3, 4)},
        "hits": {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)},
    }
    # One die at 10+ against TN 3: always fails; a big botch unless the die hits (9/10).
    assert dicecheck.odds(1, 10, 3) == {
        "success": Fraction(0),
        "big_botch": Fraction(9, 10),
        "dos": {0: Fraction(1)},
        "hits": {0: Fraction(9, 10), 1: Fraction(1, 10)},
    }
    # Big botch edge: TN 3 with no dice is a botch margin of exactly 3.
    assert dicecheck.odds(0, 6, 3)["big_botch"] == 1
    assert dicecheck.odds(0, 6, 2)["big_botch"] == 0
    assert dicecheck.odds(0, 6, 0) == {"success": 1, "big_botch": 0, "dos": {1: 1}, "hits": {0: 1}}
    assert dicecheck.odds(2, 1, 0)["dos"] == {2: 1}


def test_odds_refuse_bad_input():
    with pytest.raises(DiceError, match="pools are limited to 50"):
        dicecheck.odds(51, 6, 2)
    with pytest.raises(DiceError, match="pool is a whole number"):
        dicecheck.odds(-1, 6, 2)
    with pytest.raises(DiceError, match="threshold"):
        dicecheck.odds(5, 11, 2)
    with pytest.raises(DiceError, match="target number"):
        dicecheck.odds(5, 6, -1)


# ---------------------------------------------------------------- against an independent evaluator


def reference(dice, threshold, tn):
    """Count misses instead of hits; DoS by walking the doubling bands."""
    misses = len([d for d in dice if d < threshold])
    hits = len(dice) - misses
    diff = hits - tn
    if diff < 0:
        return hits, False, 0, -diff, -diff > 2, 0
    degree, top = 1, 1
    while diff > top:
        degree += 1
        top = top * 2 + 1
    return hits, True, diff, 0, False, degree


def test_twenty_thousand_random_cases_match_the_reference():
    rng = random.Random(20240902)
    for _ in range(20000):
        dice = [rng.randint(1, 10) for _ in range(rng.randint(0, 50))]
        threshold = rng.randint(1, 10)
        tn = rng.randint(0, 30)
        r = dicecheck.evaluate(dice, threshold, tn)
        got = (r.hits, r.success, r.effect, r.botch_margin, r.big_botch, r.dos)
        assert got == reference(dice, threshold, tn), (dice, threshold, tn)


# ---------------------------------------------------------------- properties


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 10), max_size=50), st.integers(1, 10), st.integers(0, 50), st.booleans())
def test_evaluate_never_raises_in_range(dice, threshold, tn, damage):
    result = dicecheck.evaluate(dice, threshold, tn, damage)
    assert result.success == (result.hits >= tn)
    assert result.effect - result.botch_margin == result.hits - tn
    assert (result.dos > 0) == result.success


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.tuples(st.just("face"), st.integers(max_value=0) | st.integers(min_value=11)),
        st.tuples(st.just("threshold"), st.integers(max_value=0) | st.integers(min_value=11)),
        st.tuples(st.just("tn"), st.integers(max_value=-1) | st.integers(min_value=51)),
        st.tuples(st.just("pool"), st.integers(51, 80)),
    )
)
def test_evaluate_refuses_out_of_range(case):
    what, value = case
    dice, threshold, tn = [5, 5], 6, 1
    if what == "face":
        dice = [5, value]
    elif what == "threshold":
        threshold = value
    elif what == "tn":
        tn = value
    else:
        dice = [5] * value
    with pytest.raises(DiceError):
        dicecheck.evaluate(dice, threshold, tn)


def test_rolling_asks_for_d10s_whatever_the_default(monkeypatch):
    # The system is d10 by rule, not by the randomness module's default die.
    asked = []

    def spy(count, rng, sides):
        asked.append((count, sides))
        return (sides,) * count

    monkeypatch.setattr(dicecheck, "roll_faces", spy)
    assert dicecheck.roll(2, 10, 2).hits == 2
    duel = dicecheck.opposed(3, 10, 1, 10)
    assert asked == [(2, 10), (3, 10), (1, 10)]
    assert (duel.active.hits, duel.other.hits) == (3, 1)

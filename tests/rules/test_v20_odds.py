"""
Exact V20 odds (`rules.v20.odds`) and `rules.v20.evaluate` against independent oracles. Pure.

- icepool: a multiset evaluator that tallies (1s, successes) over a pool of d10s and applies
  docs/v20.md again here (not the die-sum trick `rules.v20` uses).
- brute force: every face of small pools through `rules.v20.evaluate`.
- 20,000 seeded random rolls through an evaluator written here another way (1s pop successes
  off a list).
- Hypothesis: `evaluate` never raises in range and always refuses out of range with DiceError.
"""

import itertools
import random
from fractions import Fraction
from functools import lru_cache

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storyteller_dice.rules import v20
from storyteller_dice.rules.errors import DiceError

OPTIONS = [(False, False), (True, False), (False, True), (True, True)]


# ---------------------------------------------------------------- icepool oracle


class _Tally(icepool.MultisetEvaluator):
    """State (1s, successes): a 10 adds `ten` successes, other faces >= difficulty one."""

    def __init__(self, difficulty, ten):
        self.difficulty, self.ten = difficulty, ten

    def next_state(self, state, order, outcome, count):
        ones, successes = state or (0, 0)
        if outcome == 1:
            ones += count
        elif outcome == 10:
            successes += count * self.ten
        elif outcome >= self.difficulty:
            successes += count
        return ones, successes

    def final_outcome(self, final_state, order, outcomes, *sizes):
        return final_state or (0, 0)

    @property
    def next_state_key(self):
        return (_Tally, self.difficulty, self.ten)


@lru_cache(maxsize=None)
def icepool_odds(pool, difficulty, specialty, willpower):
    # Faces the tally treats alike merged (a plain success shows as the difficulty, a failure
    # as 2); checked equal to plain d10s on small pools below.
    die = icepool.d10.map(lambda f: f if f in (1, 10) else difficulty if f >= difficulty else 2)
    return _icepool_from(die, pool, difficulty, specialty, willpower)


def _icepool_from(die, pool, difficulty, specialty, willpower):
    states = _Tally(difficulty, 2 if specialty else 1).evaluate(die.pool(pool))

    def outcome(ones, successes):
        net = max(0, successes - ones) + (1 if willpower else 0)
        return net, (not willpower) and ones > successes

    table = states.map(outcome, star=True)
    nets = table.marginals[0]
    return {
        "success": nets.probability(">=", 1),
        "botch": table.marginals[1].probability(True),
        "distribution": {net: nets.probability(net) for net in nets.outcomes() if nets.quantity(net)},
    }


def test_merged_die_matches_plain_d10():
    for difficulty in (2, 6, 10):
        for specialty, willpower in OPTIONS:
            plain = _icepool_from(icepool.d10, 3, difficulty, specialty, willpower)
            assert plain == icepool_odds(3, difficulty, specialty, willpower)


GRID = [(pool, d) for pool in (1, 2, 3, 4, 7, 12, 20) for d in range(2, 11)] + [(50, d) for d in (2, 3, 6, 9, 10)]


@pytest.mark.parametrize("pool, difficulty", GRID)
def test_odds_equal_icepool(pool, difficulty):
    for specialty, willpower in OPTIONS:
        ours = v20.odds(pool, difficulty, specialty=specialty, willpower=willpower)
        assert ours == icepool_odds(pool, difficulty, specialty, willpower), (specialty, willpower)
        assert sum(ours["distribution"].values()) == 1
        assert all(isinstance(value, Fraction) for value in ours["distribution"].values())
        assert isinstance(ours["success"], Fraction) and isinstance(ours["botch"], Fraction)
        assert list(ours["distribution"]) == sorted(ours["distribution"])
        assert all(value > 0 for value in ours["distribution"].values())


def test_odds_every_pool_sums_to_one():
    for pool in range(1, 51):
        for specialty, willpower in OPTIONS:
            ours = v20.odds(pool, 6, specialty, willpower)
            assert sum(ours["distribution"].values()) == 1
            top = pool * (2 if specialty else 1) + (1 if willpower else 0)
            assert max(ours["distribution"]) == top
            if specialty:
                assert ours["distribution"][top] == Fraction(1, 10**pool)  # every die a 10
            else:
                assert ours["distribution"][top] == Fraction(5, 10) ** pool  # every die 6 or more


# ---------------------------------------------------------------- brute force


def brute_force(pool, difficulty, specialty, willpower):
    nets, botch, success = {}, 0, 0
    for faces in itertools.product(range(1, 11), repeat=pool):
        result = v20.evaluate(faces, difficulty, specialty, willpower)
        nets[result.successes] = nets.get(result.successes, 0) + 1
        botch += result.botch
        success += result.success
    total = 10**pool
    return {
        "success": Fraction(success, total),
        "botch": Fraction(botch, total),
        "distribution": {net: Fraction(count, total) for net, count in sorted(nets.items())},
    }


@pytest.mark.parametrize("pool", [1, 2, 3])
def test_odds_equal_brute_force(pool):
    for difficulty in range(2, 11):
        for specialty, willpower in OPTIONS:
            assert v20.odds(pool, difficulty, specialty, willpower) == brute_force(pool, difficulty, specialty, willpower)


def test_odds_known_values():
    one = v20.odds(1, 6)
    assert one == {
        "success": Fraction(5, 10),
        "botch": Fraction(1, 10),
        "distribution": {0: Fraction(5, 10), 1: Fraction(5, 10)},
    }
    assert v20.odds(1, 6, specialty=True) == {
        "success": Fraction(5, 10),
        "botch": Fraction(1, 10),
        "distribution": {0: Fraction(5, 10), 1: Fraction(4, 10), 2: Fraction(1, 10)},
    }
    assert v20.odds(1, 10, willpower=True) == {
        "success": Fraction(1),
        "botch": Fraction(0),
        "distribution": {1: Fraction(9, 10), 2: Fraction(1, 10)},
    }
    assert v20.odds(1, 2) == {
        "success": Fraction(9, 10),
        "botch": Fraction(1, 10),
        "distribution": {0: Fraction(1, 10), 1: Fraction(9, 10)},
    }
    # two dice at 6: botch = (1,1) + (1, fail) both orders = 1 + 2*4 = 9 of 100
    two = v20.odds(2, 6)
    assert two["botch"] == Fraction(9, 100)
    assert two["distribution"] == {0: Fraction(35, 100), 1: Fraction(40, 100), 2: Fraction(25, 100)}
    # at 10 with a Specialty a net of 3 is impossible with two dice (10,10 gives 4); net 1 is
    # only 10 and 1 (2 ways), net 0 is 64 fail-fail + 16 fail-one + 1 one-one
    assert v20.odds(2, 10, specialty=True)["distribution"] == {
        0: Fraction(81, 100), 1: Fraction(2, 100), 2: Fraction(16, 100), 4: Fraction(1, 100),
    }


@pytest.mark.parametrize(
    "args, message",
    [
        ((0, 6), "A pool of 0 dice cannot be attempted: no dice are left to roll."),
        ((51, 6), "That pool is 51 dice; pools are limited to 50."),
        ((5, 1), "Difficulty is a number from 2 to 10, not 1."),
        ((5, 11), "Difficulty is a number from 2 to 10, not 11."),
        ((5, 6, 1), "Specialty is on or off (True or False), not 1."),
        ((5, 6, False, None), "Willpower is on or off (True or False), not None."),
    ],
)
def test_odds_refuses(args, message):
    with pytest.raises(DiceError) as caught:
        v20.odds(*args)
    assert str(caught.value) == message


def test_odds_boundaries_allowed():
    assert sum(v20.odds(50, 2)["distribution"].values()) == 1
    assert sum(v20.odds(50, 10, True, True)["distribution"].values()) == 1


# ---------------------------------------------------------------- an independent evaluator


LEVEL_NAMES = ["failure", "marginal", "moderate", "complete", "exceptional"]


def independent(faces, difficulty, specialty, willpower):
    """docs/v20.md again: each success is a token, each 1 takes one token away."""
    tokens = []
    for face in faces:
        if face >= difficulty:
            tokens += [face] * (2 if specialty and face == 10 else 1)
    raw = len(tokens)
    left_over_ones = 0
    for face in faces:
        if face == 1:
            if tokens:
                tokens.pop()
            else:
                left_over_ones += 1
    net = len(tokens) + (1 if willpower else 0)
    botch = bool(left_over_ones) and not willpower
    level = LEVEL_NAMES[net] if net < 5 else "phenomenal"
    return raw, faces.count(1), net, botch, level


def test_evaluate_against_independent_20000_seeded():
    rng = random.Random(20_000)
    for _ in range(20_000):
        pool = rng.choice((1, 2, 3, 4, 5, 6, 8, 10, 15, 50)) if rng.random() < 0.2 else rng.randint(1, 12)
        faces = [rng.randint(1, 10) for _ in range(pool)]
        difficulty = rng.randint(2, 10)
        specialty, willpower = rng.random() < 0.5, rng.random() < 0.3
        result = v20.evaluate(faces, difficulty, specialty, willpower)
        expected = independent(faces, difficulty, specialty, willpower)
        assert (result.raw_successes, result.ones, result.successes, result.botch, result.level) == expected
        # the marks tell the same story as the counts
        marks = result.marks
        assert len(marks) == pool
        assert marks.count("cancels") == result.cancelled
        assert marks.count("cancels") + marks.count("one") == result.ones
        assert marks.count("one") == result.uncancelled_ones
        standing = marks.count("success") + 2 * marks.count("double") + marks.count("half")
        assert standing == result.successes - (1 if willpower else 0)


# ---------------------------------------------------------------- properties

faces_in_range = st.lists(st.integers(1, 10), min_size=1, max_size=50)
difficulties = st.integers(2, 10)


@settings(max_examples=200, deadline=None)
@given(faces_in_range, difficulties, st.booleans(), st.booleans())
def test_evaluate_never_raises_in_range(faces, difficulty, specialty, willpower):
    result = v20.evaluate(faces, difficulty, specialty, willpower)
    assert result.successes >= (1 if willpower else 0)
    assert not (result.botch and result.successes)
    assert result.level == v20.level_for(result.successes)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        # a face out of range somewhere in an otherwise good roll
        st.tuples(
            st.lists(st.integers(1, 10), max_size=20),
            st.one_of(st.integers(max_value=0), st.integers(min_value=11), st.floats(), st.text(max_size=2)),
            st.lists(st.integers(1, 10), max_size=20),
        ).map(lambda t: (t[0] + [t[1]] + t[2], 6)),
        # too many dice, or none
        st.integers(51, 80).map(lambda n: ([6] * n, 6)),
        st.just(([], 6)),
        # a difficulty out of range
        st.tuples(faces_in_range, st.one_of(st.integers(max_value=1), st.integers(min_value=11))),
    )
)
def test_evaluate_refuses_out_of_range(case):
    faces, difficulty = case
    with pytest.raises(DiceError):
        v20.evaluate(faces, difficulty)

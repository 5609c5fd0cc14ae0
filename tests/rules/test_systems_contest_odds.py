"""
Exact contest odds under V20, Seyruun and The Dice Check (`rules.v20.contest_odds`,
`rules.seyruun.contest_odds`, `rules.dicecheck.contest_odds`) and the neutral margin helper
(`rules.contest_odds.at_least`).

Oracles, independent of the code under test:
- icepool: each side's faces (honest d10s for small pools; for larger ones, the faces a system
  scores alike merged, with their numbers of faces as weights), scored by the rules written out
  again here, the two sides combined with `icepool.map`;
- brute force through the game's own scoring: every face of tiny pools through
  `rules.v20.evaluate` + `rules.v20.resist`, `rules.seyruun.evaluate` + `rules.seyruun.contest`,
  `rules.dicecheck.evaluate_opposed`: what +contest and the opposed +roll decide.

Pure: no database, no Evennia. (In tests/rules/: mutmut's selection runs it.)
"""

import itertools
from fractions import Fraction

import icepool
import pytest

from storyteller_dice.rules import contest_odds, dicecheck, seyruun, v20
from storyteller_dice.rules.dicecheck import contest_odds as dicecheck_contest_odds
from storyteller_dice.rules.seyruun import contest_odds as seyruun_contest_odds
from storyteller_dice.rules.v20 import contest_odds as v20_contest_odds
from storyteller_dice.rules.errors import DiceError


@pytest.fixture(autouse=True)
def fresh_caches():
    """Every test counts afresh (a cache filled before a mutant is loaded would hide it)."""
    v20._sum_counts.cache_clear()


def chances(table, keys):
    """The marginal chance that each flag of `table` (an icepool Die of tuples of bools) is true."""
    return {key: Fraction(table.marginals[i].probability(True)) for i, key in enumerate(keys)}


# ---------------------------------------------------------------- rules.contest_odds.at_least


def test_at_least_counts_every_pair_by_margin():
    a = {0: 1, 2: 2, 5: 1}
    b = [(1, 3), (2, 1), (2, 1), (7, 1)]
    for margin in range(-8, 8):
        expected = sum(wa * wb for sa, wa in a.items() for sb, wb in b if sa - sb >= margin)
        assert contest_odds.at_least(a, b, margin) == expected, margin
    assert contest_odds.at_least({3: 1}, {0: 1}, 3) == 1
    assert contest_odds.at_least({3: 1}, {0: 1}, 4) == 0
    assert contest_odds.at_least({0: 2}, {-3: 5}, -10) == 10
    assert contest_odds.at_least({1: Fraction(1, 2), 4: Fraction(1, 2)}, {0: 1}, 2) == Fraction(1, 2)


@pytest.mark.parametrize("margin", [1.5, True, "2", None])
def test_at_least_refuses_a_margin_that_is_not_whole(margin):
    with pytest.raises(DiceError) as caught:
        contest_odds.at_least({1: 1}, {1: 1}, margin)
    assert str(caught.value) == f"A margin is a whole number, not {margin!r}."


def test_at_least_names_the_bad_side():
    with pytest.raises(DiceError, match=r"^The first distribution is empty\.$"):
        contest_odds.at_least({}, {1: 1}, 0)
    with pytest.raises(DiceError, match=r"^The second distribution: a chance cannot be negative\.$"):
        contest_odds.at_least({1: 1}, {1: -1}, 0)


# ---------------------------------------------------------------- V20

V20_KEYS = v20_contest_odds.KEYS


def _v20_score(faces, difficulty, specialty):
    """(net, botch) of honest d10 faces, docs/v20.md written out again."""
    raw = sum(2 if specialty and face == 10 else 1 for face in faces if face >= difficulty)
    ones = sum(1 for face in faces if face == 1)
    return max(0, raw - ones), ones > raw


def _v20_side(dice, difficulty, specialty):
    if dice <= 4:
        return icepool.Pool([icepool.d10] * dice).expand().map(lambda faces: _v20_score(faces, difficulty, specialty))
    # Larger pools: each face stands for the faces V20 scores alike (1; below the difficulty; at
    # it, up to 9; 10), weighted by how many there are.
    merged = {}
    for face in range(1, 11):
        alike = face if face in (1, 10) else difficulty if face >= difficulty else 2
        merged[alike] = merged.get(alike, 0) + 1
    return icepool.Die(merged).pool(dice).expand().map(lambda faces: _v20_score(faces, difficulty, specialty))


def icepool_v20(first, second):
    def judge(a, b):
        (net_a, botch_a), (net_b, botch_b) = a, b
        return net_a > net_b, net_b > net_a, net_a == net_b, botch_a, botch_b

    return chances(icepool.map(judge, _v20_side(*first), _v20_side(*second), star=False), V20_KEYS)


V20_GRID = [((a, da, sa), (b, db, sb)) for a in (1, 2, 3, 4) for b in (1, 2, 4) for da, db in ((6, 6), (2, 10), (8, 4))
            for sa, sb in ((False, False), (True, False), (False, True))]
V20_GRID += [((7, 6, False), (5, 7, True)), ((9, 3, True), (9, 9, False)), ((6, 10, True), (8, 2, False))]


@pytest.mark.parametrize("first, second", V20_GRID, ids=str)
def test_v20_equals_icepool(first, second):
    assert v20_contest_odds.contest_odds(first, second) == icepool_v20(first, second)


V20_TINY = [((a, da, sa), (b, db, sb)) for a in (1, 2) for b in (1, 2) if a + b <= 3
            for da, db in ((6, 6), (10, 3)) for sa, sb in ((False, False), (True, True))]


@pytest.mark.parametrize("first, second", V20_TINY, ids=str)
def test_v20_equals_every_roll_decided_by_resist(first, second):
    counts = dict.fromkeys(V20_KEYS, 0)
    total = 0
    for a in itertools.product(range(1, 11), repeat=first[0]):
        for b in itertools.product(range(1, 11), repeat=second[0]):
            ra = v20.evaluate(a, first[1], specialty=first[2])
            rb = v20.evaluate(b, second[1], specialty=second[2])
            outcome = v20.resist(ra, rb)
            total += 1
            counts["first_wins"] += outcome.winner == "first"
            counts["second_wins"] += outcome.winner == "second"
            counts["tie"] += outcome.winner is None
            counts["first_botch"] += ra.botch
            counts["second_botch"] += rb.botch
    expected = {key: Fraction(count, total) for key, count in counts.items()}
    assert v20_contest_odds.contest_odds(first, second) == expected


def test_v20_known_one_die_against_one_die():
    odds = v20_contest_odds.contest_odds((1, 6), (1, 6))
    # Each die: a 1 (botch, net 0) 1/10, 2-5 (net 0) 4/10, 6-10 (net 1) 5/10.
    assert odds == {"first_wins": Fraction(1, 4), "second_wins": Fraction(1, 4), "tie": Fraction(1, 2),
                    "first_botch": Fraction(1, 10), "second_botch": Fraction(1, 10)}
    # A Specialty's 10 counts two: it beats the other's 6-9 (1/10 x 1 + 4/10 x 5/10 in all).
    spec = v20_contest_odds.contest_odds((1, 6, True), (1, 6))
    assert (spec["first_wins"], spec["tie"], spec["second_wins"]) == (Fraction(3, 10), Fraction(9, 20), Fraction(1, 4))
    # A botch ties with a plain failure: nobody wins either way.
    # Two Specialty dice at 10 against one die at 10: a net of 1 or more is a 10 showing (19 of
    # 100), of 2 or more a 10 without a 1 beside it (10-10, or 10 with 2-9: 1 + 2 x 8 = 17).
    two = v20_contest_odds.contest_odds((2, 10, True), (1, 10))
    assert two["first_wins"] == Fraction(19, 100) * Fraction(9, 10) + Fraction(17, 100) * Fraction(1, 10)
    assert two["second_wins"] == Fraction(81, 100) * Fraction(1, 10)
    assert v20_contest_odds.TIE_WINNER is None


def test_v20_sides_read_as_tuples_with_defaults():
    assert v20_contest_odds.contest_odds((3,), (3, 6, False)) == v20_contest_odds.contest_odds(
        v20_contest_odds.Side(3, 6, False), v20_contest_odds.Side(3))
    assert v20_contest_odds.Side(4) == (4, v20.DEFAULT_DIFFICULTY, False)


def test_v20_side_distribution_and_ways():
    assert v20_contest_odds.side_distribution(v20_contest_odds.Side(1, 6)) == (
        (0, Fraction(1, 2)), (1, Fraction(1, 2)))
    # Two Specialty dice at 6: each adds -1 (a 1), 0 (2-5: 4 faces), +1 (6-9: 4) or +2 (a 10).
    ways, botch = v20_contest_odds.side_ways(v20_contest_odds.Side(2, 6, True))
    assert ways == ((0, 1 + 8 + 24), (1, 34), (2, 24), (3, 8), (4, 1))
    assert botch == 9  # a 1 and no success: 1-1, or a 1 with 2-5 (2 x 4)


def test_v20_fifty_dice_a_side():
    odds = v20_contest_odds.contest_odds((50, 6), (50, 6))
    assert odds["first_wins"] == odds["second_wins"]
    assert odds["first_wins"] + odds["second_wins"] + odds["tie"] == 1
    assert odds["first_botch"] == v20.odds(50, 6)["botch"]


@pytest.mark.parametrize("first, second, message", [
    ((0, 6), (1, 6), "A pool of 0 dice cannot be attempted: no dice are left to roll."),
    ((1, 6), (51, 6), "That pool is 51 dice; pools are limited to 50."),
    ((1, 11), (1, 6), "Difficulty is a number from 2 to 10, not 11."),
    ((1, 6, 1), (1, 6), "Specialty is on or off (True or False), not 1."),
])
def test_v20_bad_input_is_refused(first, second, message):
    with pytest.raises(DiceError) as caught:
        v20_contest_odds.contest_odds(first, second)
    assert str(caught.value) == message


# ---------------------------------------------------------------- Seyruun

SEYRUUN_KEYS = seyruun_contest_odds.KEYS


def _seyruun_score(faces):
    """(successes, botch) of honest faces, docs/seyruun.md written out again."""
    successes = sum(2 if face == 10 else 1 for face in faces if face >= 6)
    return successes, successes == 0 and 1 in faces


def _seyruun_side(dice):
    if dice <= 0:  # a chance die: 10 is 1 success, 1 a dramatic botch
        return icepool.d10.map(lambda face: (int(face == 10), face == 1))
    rolled = min(dice, 10)
    if rolled <= 4:
        return icepool.Pool([icepool.d10] * rolled).expand().map(_seyruun_score)
    return icepool.Die({1: 1, 2: 4, 6: 4, 10: 1}).pool(rolled).expand().map(_seyruun_score)


def icepool_seyruun(a_dice, d_dice, a_attr, d_attr):
    def judge(a, d):
        (sa, botch_a), (sd, botch_d) = a, d
        attacker_takes_tie = a_attr > d_attr
        return (sa > sd, sd > sa, sa == sd, sa > sd or (sa == sd and attacker_takes_tie),
                sd > sa or (sa == sd and not attacker_takes_tie), botch_a, botch_d)

    return chances(icepool.map(judge, _seyruun_side(a_dice), _seyruun_side(d_dice), star=False), SEYRUUN_KEYS)


SEYRUUN_GRID = [(a, d, aa, da) for a in (-2, 0, 1, 2, 4) for d in (0, 1, 3, 4) for aa, da in ((3, 3), (4, 2), (1, 5))]
SEYRUUN_GRID += [(10, 10, 3, 2), (12, 7, 2, 2), (50, 3, 1, 1), (6, 11, 5, 4)]


@pytest.mark.parametrize("args", SEYRUUN_GRID, ids=str)
def test_seyruun_equals_icepool(args):
    odds = seyruun_contest_odds.contest_odds(*args)
    assert odds.pop("tie_winner") == ("attacker" if args[2] > args[3] else "defender")
    assert odds == icepool_seyruun(*args)


@pytest.mark.parametrize("args", [(0, 0, 2, 1), (1, 0, 1, 1), (2, 1, 3, 2), (1, 2, 2, 3), (1, 1, 4, 4)], ids=str)
def test_seyruun_equals_every_roll_decided_by_contest(args):
    a_dice, d_dice, a_attr, d_attr = args

    def faces_of(dice):
        return [((face,), True) for face in range(1, 11)] if dice <= 0 else [
            (faces, False) for faces in itertools.product(range(1, 11), repeat=dice)]

    counts = dict.fromkeys(SEYRUUN_KEYS, 0)
    total = 0
    for a, a_chance in faces_of(a_dice):
        for d, d_chance in faces_of(d_dice):
            ra = seyruun.evaluate(a, seyruun.MIN_DIFFICULTY, chance=a_chance)
            rd = seyruun.evaluate(d, seyruun.MIN_DIFFICULTY, chance=d_chance)
            result = seyruun.contest(ra, rd, a_attr, d_attr)
            total += 1
            counts["attacker_wins"] += result.winner == "attacker" and not result.tie
            counts["defender_wins"] += result.winner == "defender" and not result.tie
            counts["tie"] += result.tie
            counts["attacker_wins_overall"] += result.winner == "attacker"
            counts["defender_wins_overall"] += result.winner == "defender"
            counts["attacker_botch"] += ra.botch
            counts["defender_botch"] += rd.botch
    odds = seyruun_contest_odds.contest_odds(*args)
    del odds["tie_winner"]
    assert odds == {key: Fraction(count, total) for key, count in counts.items()}


def test_seyruun_known_chance_die_against_one_die():
    odds = seyruun_contest_odds.contest_odds(0, 1, 2, 2)
    # Chance die: 1 success on a 10 (1/10). One die: 6-9 one (4/10), 10 two (1/10).
    assert odds["attacker_wins"] == Fraction(1, 10) * Fraction(5, 10)
    assert odds["defender_wins"] == Fraction(9, 10) * Fraction(5, 10) + Fraction(1, 10) * Fraction(1, 10)
    assert odds["tie"] == Fraction(9, 10) * Fraction(5, 10) + Fraction(1, 10) * Fraction(4, 10)
    assert odds["defender_wins_overall"] == odds["defender_wins"] + odds["tie"]
    assert odds["attacker_wins_overall"] == odds["attacker_wins"]
    assert odds["attacker_botch"] == odds["defender_botch"] == Fraction(1, 10)
    assert odds["tie_winner"] == seyruun_contest_odds.DEFENDER


def test_seyruun_overflow_rolls_ten_dice():
    assert seyruun_contest_odds.contest_odds(50, 12, 2, 2) == seyruun_contest_odds.contest_odds(10, 10, 2, 2)
    assert seyruun_contest_odds.rolled(-5) == seyruun_contest_odds.rolled(0) == 1
    assert seyruun_contest_odds.rolled(7) == 7 and seyruun_contest_odds.rolled(11) == 10


def test_seyruun_tie_winner():
    assert seyruun_contest_odds.tie_winner(3, 2) == "attacker"
    assert seyruun_contest_odds.tie_winner(2, 2) == "defender"
    assert seyruun_contest_odds.tie_winner(1, 2) == "defender"


def test_seyruun_side_ways():
    assert seyruun_contest_odds.side_ways(1) == (((0, 5), (1, 4), (2, 1)), 1)
    assert seyruun_contest_odds.side_ways(0) == (((0, 9), (1, 1)), 1)
    ways, botch = seyruun_contest_odds.side_ways(2)
    assert sum(w for _, w in ways) == 100 and botch == 5**2 - 4**2


@pytest.mark.parametrize("args, message", [
    ((51, 1, 1, 1), "That pool is 51 dice; pools are limited to 50."),
    ((1, 1, 0, 1), "The attacker's Attribute must be a whole number 1 or more, not 0."),
    ((1, 1, 2, True), "The defender's Attribute must be a whole number 1 or more, not True."),
    ((1, 1, 2, 1.5), "The defender's Attribute must be a whole number 1 or more, not 1.5."),
])
def test_seyruun_bad_input_is_refused(args, message):
    with pytest.raises(DiceError) as caught:
        seyruun_contest_odds.contest_odds(*args)
    assert str(caught.value) == message


# ---------------------------------------------------------------- The Dice Check

DICECHECK_KEYS = dicecheck_contest_odds.KEYS


def _degree(effect):
    """Degree of Success by its bands, docs/dicecheck.md written out again: 0-1, 2-3, 4-7, 8-15, ..."""
    degree, high = 1, 2
    while effect >= high:
        degree, high = degree + 1, high * 2
    return degree


def _hits_side(dice, threshold):
    if dice == 0:
        return icepool.Die([0])
    return icepool.Pool([icepool.d10] * dice).expand().map(lambda faces: sum(1 for f in faces if f >= threshold)) \
        if dice <= 4 else (icepool.d10 >= threshold).map({True: 1, False: 0}).pool(dice).sum()


def icepool_dicecheck(active, active_threshold, other, other_threshold):
    a, o = _hits_side(active, active_threshold), _hits_side(other, other_threshold)
    table = icepool.map(lambda x, y: (x > y, y > x, x == y, x >= y, x < y, y - x >= 3), a, o)
    expected = chances(table, DICECHECK_KEYS)
    degrees = icepool.map(lambda x, y: _degree(x - y) if x >= y else 0, a, o)
    expected["dos"] = {d: Fraction(degrees.probability(d)) for d in degrees.outcomes() if d}
    return expected


DICECHECK_GRID = [(a, ta, o, to) for a in (0, 1, 2, 4) for o in (0, 1, 3, 4) for ta, to in ((6, 6), (10, 5), (1, 9))]
DICECHECK_GRID += [(12, 6, 9, 7), (20, 5, 3, 10), (9, 7, 16, 4), (40, 2, 1, 6)]


@pytest.mark.parametrize("args", DICECHECK_GRID, ids=str)
def test_dicecheck_equals_icepool(args):
    assert dicecheck_contest_odds.contest_odds(*args) == icepool_dicecheck(*args)


@pytest.mark.parametrize("args", DICECHECK_GRID + [(50, 5, 50, 5), (50, 10, 0, 1)], ids=str)
def test_dicecheck_equals_the_games_opposed_odds(args):
    odds = dicecheck_contest_odds.contest_odds(*args)
    opposed = dicecheck.opposed_odds(*args)
    assert odds["active_wins_overall"] == opposed["success"]
    assert odds["big_botch"] == opposed["big_botch"]
    assert odds["dos"] == {degree: p for degree, p in opposed["dos"].items() if degree}


@pytest.mark.parametrize("args", [(1, 6, 1, 6), (2, 7, 1, 5), (1, 10, 2, 2), (0, 6, 3, 8), (3, 4, 0, 6)], ids=str)
def test_dicecheck_equals_every_roll_decided_by_evaluate_opposed(args):
    active, active_threshold, other, other_threshold = args
    counts = dict.fromkeys(DICECHECK_KEYS, 0)
    dos = {}
    total = 0
    for a in itertools.product(range(1, 11), repeat=active):
        for o in itertools.product(range(1, 11), repeat=other):
            result = dicecheck.evaluate_opposed(a, active_threshold, o, other_threshold)
            mine, theirs = result.active.hits, result.other.hits
            total += 1
            counts["active_wins"] += mine > theirs
            counts["other_wins"] += theirs > mine
            counts["tie"] += mine == theirs
            counts["active_wins_overall"] += result.success
            counts["other_wins_overall"] += not result.success
            counts["big_botch"] += result.active.big_botch
            if result.active.dos:
                dos[result.active.dos] = dos.get(result.active.dos, 0) + 1
    expected = {key: Fraction(count, total) for key, count in counts.items()}
    expected["dos"] = {degree: Fraction(count, total) for degree, count in dos.items()}
    assert dicecheck_contest_odds.contest_odds(*args) == expected


def test_dicecheck_known_one_die_each():
    odds = dicecheck_contest_odds.contest_odds(1, 6, 1, 6)
    assert odds["active_wins"] == odds["other_wins"] == Fraction(1, 4)
    assert odds["tie"] == Fraction(1, 2)
    assert odds["active_wins_overall"] == Fraction(3, 4) and odds["other_wins_overall"] == Fraction(1, 4)
    assert odds["big_botch"] == 0  # one die can be at most 1 Hit behind
    assert odds["dos"] == {1: Fraction(3, 4)}  # Effect 0 or 1
    assert dicecheck_contest_odds.TIE_WINNER == dicecheck_contest_odds.ACTIVE


def test_dicecheck_degrees_and_big_botch_at_their_edges():
    # 4 dice that always hit against 0 dice: Effect 4, Degree 3, nothing else.
    assert dicecheck_contest_odds.contest_odds(4, 1, 0, 6)["dos"] == {3: Fraction(1)}
    assert dicecheck_contest_odds.contest_odds(3, 1, 0, 6)["dos"] == {2: Fraction(1)}
    assert dicecheck_contest_odds.contest_odds(2, 1, 0, 6)["dos"] == {2: Fraction(1)}
    assert dicecheck_contest_odds.contest_odds(1, 1, 0, 6)["dos"] == {1: Fraction(1)}
    assert dicecheck_contest_odds.contest_odds(0, 6, 0, 6)["dos"] == {1: Fraction(1)}
    # 0 dice against 3 that always hit: a margin of exactly 3 is a big botch; 2 is not.
    assert dicecheck_contest_odds.contest_odds(0, 6, 3, 1)["big_botch"] == 1
    assert dicecheck_contest_odds.contest_odds(0, 6, 2, 1)["big_botch"] == 0
    assert dicecheck_contest_odds.contest_odds(0, 6, 2, 1)["dos"] == {}
    assert dicecheck_contest_odds.side_ways(2, 6) == ((0, 25), (1, 50), (2, 25))
    assert dicecheck_contest_odds.side_ways(0, 6) == ((0, 1),)


@pytest.mark.parametrize("args, message", [
    ((51, 6, 1, 6), "That pool is 51 dice; pools are limited to 50."),
    ((1, 6, -1, 6), "A pool is a whole number of dice, 0 or more."),
    ((1, 0, 1, 6), "A threshold is from 1+ to 10+."),
    ((1, 6, 1, 11), "A threshold is from 1+ to 10+."),
])
def test_dicecheck_bad_input_is_refused(args, message):
    with pytest.raises(DiceError) as caught:
        dicecheck_contest_odds.contest_odds(*args)
    assert str(caught.value) == message


def test_every_system_sums_to_one_at_fifty_dice():
    v = v20_contest_odds.contest_odds((50, 6, True), (50, 7))
    s = seyruun_contest_odds.contest_odds(50, 50, 3, 2)
    d = dicecheck_contest_odds.contest_odds(50, 5, 50, 6)
    assert v["first_wins"] + v["second_wins"] + v["tie"] == 1
    assert s["attacker_wins_overall"] + s["defender_wins_overall"] == 1
    assert s["attacker_wins_overall"] == s["attacker_wins"] + s["tie"]  # 3 > 2: the tie is the attacker's
    assert d["active_wins_overall"] + d["other_wins_overall"] == 1
    assert sum(d["dos"].values()) == d["active_wins_overall"]

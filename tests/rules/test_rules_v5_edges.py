"""
Rules that mutation testing (mutmut, tests/mutation/README.md) found unguarded: each test
closes surviving mutants of rules/ (V5 modules, pools, randomness, systems) with explicit
faces and exact messages. Pure: no database, no Evennia.
"""

import random
import re

import pytest

from storyteller_dice.rules import systems, v5
from storyteller_dice.rules.v5 import contest as v5_contest, humanity as v5_humanity, exact_odds as v5_odds, rouse as v5_rouse, sheet as v5_sheet
from storyteller_dice.rules.errors import DiceError, PoolError, PoolTooLarge
from storyteller_dice.rules.pools import MAX_POOL, Term, build_pool, number_pool, parse
from storyteller_dice.rules.randomness import FixedFaces, get_rng, roll_faces, seeded


def refused(call, message, error=DiceError):
    """`call()` raises `error` with exactly `message`."""
    with pytest.raises(error, match="^" + re.escape(message) + "$"):
        call()


# ---------------------------------------------------------------- pools

TABLE = v5_sheet.trait_table({"strength": 4, "brawl": 3, "dexterity": 3},
                             {"brawl": ("Grappling", "Kindred")})


@pytest.mark.parametrize(
    "expression, total, described",
    [
        ("str - brawl + 2", 3, "Strength 4 - Brawl 3 + 2 = 3"),  # Brawl is subtracted
        ("-2", -2, "-2 (rolled as 1)"),
        ("- 2 + 5", 3, "-2 + 5 = 3"),
        ("-  2", -2, "-2 (rolled as 1)"),
        ("+3", 3, "3"),
        ("1", 1, "1"),
        ("2", 2, "2"),
        ("100-60", 40, "100 - 60 = 40"),  # a legal 40-die pool
        ("45 + 5", 50, "45 + 5 = 50"),
        ("brawl(kindred) - 1", 3, "Brawl 3 + Kindred specialty 1 - 1 = 3"),
        ("0003", 3, "3"),  # leading zeros are not more dice
        ("000", 0, "0 (rolled as 1)"),
        ("0100 - 60", 40, "100 - 60 = 40"),
    ],
)
def test_pool_totals_and_descriptions(expression, total, described):
    pool = build_pool(expression, TABLE)
    assert pool.total == total and pool.describe() == described
    assert pool.dice == max(1, total)


def test_pool_specialty_part():
    pool = build_pool("str+brawl(grappling)", TABLE)
    assert pool.parts[-1].trait is None and pool.parts[-1].specialty == "Grappling"
    assert pool.parts[1].sign == 1 and pool.parts[1].trait == "brawl"
    assert build_pool("str - brawl", TABLE).parts[1].sign == -1


def test_number_pool():
    assert number_pool(5).total == 5 and number_pool(5).describe() == "5"


def test_parse_leading_capital_x_is_a_name():
    assert parse("Xy") == (Term(1, name="Xy"),)


@pytest.mark.parametrize(
    "expression, message, error",
    [
        ("", "Say what to roll: a pool like dex+stealth, or a number of dice.", PoolError),
        ("2+", "The pool expression ends with an operator; add a trait or a number after it.", PoolError),
        ("-", "The pool expression ends with an operator; add a trait or a number after it.", PoolError),
        ("1000", f"'1000' is far too many dice; pools are limited to {MAX_POOL}.", PoolError),
        ("46 + 5", f"That pool is 51 dice; pools are limited to {MAX_POOL}.", PoolTooLarge),
        ("1Xy", "Expected + or - before 'Xy'.", PoolError),
        ("1 2abcdefghijklmnopqrstuvwxyz", "Expected + or - before '2abcdefghijklmnopqrs'.", PoolError),
        ("1 + ?abcdefghijklmnopqrstuvwxyz",
         "I can't read '?abcdefghijklmnopqrs' in the pool: use traits, numbers, + and -.", PoolError),
        ("2 (grappling)",
         "A Specialty in parentheses goes right after a Skill, like str+brawl(grappling).", PoolError),
        ("str - brawl(grappling)", "A Specialty adds a die; it cannot be subtracted.", PoolError),
        ("brawl(x)", "You have no Brawl Specialty 'x' (yours: Grappling, Kindred).", PoolError),
        ("in", "'in' is ambiguous: it could be Insight, Intelligence, Intimidation, Investigation.",
         PoolError),
        ("str()", "The parentheses after 'str' are empty: name the Specialty.", PoolError),
        ("brawl(grappling) + brawl(kindred)", "Only one Specialty applies to a roll.", PoolError),
    ],
)
def test_pool_refusals(expression, message, error):
    refused(lambda: build_pool(expression, TABLE), message, error)


def test_pool_length_and_term_bounds():
    at_limit = "1" + " " * 197 + "+1"
    assert len(at_limit) == 200 and build_pool(at_limit).total == 2
    refused(lambda: parse(at_limit + " "  + "+1"),
            "That pool expression is too long (over 200 characters).", PoolError)
    assert build_pool("+".join(["1"] * 20)).total == 20
    refused(lambda: parse("+".join(["1"] * 21)), "That pool has too many terms (more than 20).", PoolError)


def test_pool_empty_name_message():
    from storyteller_dice.rules.pools import match_name

    refused(lambda: match_name(" ", ["a"]), "An empty trait name is not allowed.", PoolError)


# ---------------------------------------------------------------- randomness


def test_fixed_faces():
    source = FixedFaces([3, 10])
    assert roll_faces(2, source) == (3, 10) and source.remaining == []
    refused(lambda: source.randint(1, 10), "FixedFaces ran out of faces", AssertionError)
    refused(lambda: FixedFaces([11]).randint(1, 10), "face 11 outside 1..10", AssertionError)
    assert FixedFaces([1]).random() == random.Random(0).random()  # seeded with 0


def test_seeded_swaps_the_default_source():
    before = get_rng()
    with seeded(7) as rng:
        assert get_rng() is rng and roll_faces(3) == roll_faces(3, random.Random(7))
    assert get_rng() is before
    source = FixedFaces([4])
    with seeded(source):
        assert roll_faces(1) == (4,)
    oracle = random.Random(1)
    assert roll_faces(5, random.Random(1), sides=6) == tuple(oracle.randint(1, 6) for _ in range(5))
    assert set(roll_faces(200, random.Random(2), sides=3)) == {1, 2, 3}


# ---------------------------------------------------------------- systems


def test_systems_registry():
    from storyteller_dice.rules.v5 import system as v5_system

    assert "v5" in systems.available() and isinstance(systems.available(), tuple)
    assert systems.get_system() is v5_system.SYSTEM and systems.get_system(" V5 ") is v5_system.SYSTEM
    refused(lambda: systems.get_system("gurps"),
            f"Unknown dice system 'gurps': available are {', '.join(systems.SYSTEMS)}.")


def test_systems_message_lists_every_system(monkeypatch):
    from storyteller_dice.rules.v5 import system as v5_system

    monkeypatch.setattr(systems, "SYSTEMS", {"v5": "storyteller_dice.rules.v5.system:SYSTEM", "zz": "storyteller_dice.rules.v5.system:SYSTEM"})
    refused(lambda: systems.get_system("gurps"), "Unknown dice system 'gurps': available are v5, zz.")
    assert systems.available() == ("v5", "zz") and systems.get_system("ZZ") is v5_system.SYSTEM


def test_systems_not_installed_and_not_a_system(monkeypatch):
    monkeypatch.setattr(systems, "SYSTEMS", {"v5": "storyteller_dice.rules.v5.system:SYSTEM", "gone": "storyteller_dice.rules.no_such_system:SYSTEM",
                                             "odd": "storyteller_dice.rules.v5:SYSTEM"})
    refused(lambda: systems.get_system("gone"),
            "The dice system 'gone' is not installed (no module storyteller_dice.rules.no_such_system).")
    refused(lambda: systems.get_system("odd"), "The dice system 'odd' is not installed (storyteller_dice.rules.v5 has no SYSTEM).")
    assert systems.installed() == ("v5",)


def test_systems_configured_once_until_reset():
    from storyteller_dice.rules.v5 import system as v5_system

    systems.reset()
    first = systems.configure("v5", {"V5_BESTIAL_FAILURE": "total_failure"})
    assert first is not v5_system.SYSTEM and first.bestial_rule == "total_failure"
    assert systems.configure("v5", {"V5_BESTIAL_FAILURE": "official"}) is first
    systems.reset()
    again = systems.configure("V5", {})
    assert again is not first and again.bestial_rule == "official"
    systems.reset()
    with pytest.raises(DiceError):
        systems.configure("v5", {"V5_BESTIAL_FAILURE": "sometimes"})
    systems.reset()


def test_systems_register_a_system_object():
    from storyteller_dice.rules.v5 import system as v5_system

    class Toy(v5_system.V5System):
        key, title = "toy", "Toy"

    toy = systems.register(Toy())
    try:
        assert systems.get_system("TOY") is toy and "toy" in systems.available()
        assert systems.configure("toy", {}) is not toy  # V5System.configure builds a new one
    finally:
        systems.unregister("toy")
        systems.reset()
    with pytest.raises(DiceError, match="^Unknown dice system 'toy'"):
        systems.get_system("toy")
    with pytest.raises(DiceError, match="is not a dice system"):
        systems.register(object())


# ---------------------------------------------------------------- v5: faces, bounds, messages


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: v5.evaluate([0], [], 1), "Regular die faces must be whole numbers from 1 to 10, not 0."),
        (lambda: v5.evaluate([], [11], 1), "Hunger die faces must be whole numbers from 1 to 10, not 11."),
        (lambda: v5.evaluate([True], [], 1), "Regular die faces must be whole numbers from 1 to 10, not True."),
        (lambda: v5.evaluate([2.0], [], 1), "Regular die faces must be whole numbers from 1 to 10, not 2.0."),
        (lambda: v5.evaluate([], [1] * 6, 1), "At most 5 Hunger dice are rolled."),
        (lambda: v5.evaluate([1] * 46, [1] * 5, 1), "Pools are limited to 50 dice."),
        (lambda: v5.evaluate([1], [], -1), "Difficulty must be a whole number of successes, 0 or more."),
        (lambda: v5.evaluate([1], [], 1.0), "Difficulty must be a whole number of successes, 0 or more."),
        (lambda: v5.evaluate([1], [], 1, "seed"),
         "Unknown bestial failure rule 'seed': use one of official, total_failure."),
        (lambda: v5.split_pool(0, 0), "A pool is at least 1 die."),
        (lambda: v5.split_pool("3", 0), "A pool is at least 1 die."),
        (lambda: v5.split_pool(51, 0), "That pool is 51 dice; pools are limited to 50."),
        (lambda: v5.split_pool(3, 6), "Hunger is from 0 to 5."),
        (lambda: v5.split_pool(3, -1), "Hunger is from 0 to 5."),
        (lambda: v5.split_pool(3, "1"), "Hunger is from 0 to 5."),
        (lambda: v5.check_difficulty(101), "Difficulty is a number of successes from 0 to 100."),
        (lambda: v5.check_difficulty(-1), "Difficulty is a number of successes from 0 to 100."),
        (lambda: v5.check_difficulty("1"), "Difficulty is a number of successes from 0 to 100."),
        (lambda: v5.rouse_reroll_level(11), "Blood Potency is from 0 to 10."),
        (lambda: v5.rouse_reroll_level(-1), "Blood Potency is from 0 to 10."),
        (lambda: v5.rouse_reroll_level("1"), "Blood Potency is from 0 to 10."),
    ],
)
def test_v5_refusals(call, message):
    refused(call, message)


def test_v5_bounds_accepted():
    assert v5.evaluate([1] * 45, [1] * 5, 0).pool == 50
    assert v5.evaluate([], [1] * 5, 1).hunger == (1,) * 5
    assert v5.split_pool(1, 0) == (1, 0) and v5.split_pool(50, 5) == (45, 5)
    assert v5.split_pool(3, 5) == (0, 3) and v5.split_pool(3, 0) == (3, 0)
    assert v5.check_difficulty(0) == 0 and v5.check_difficulty(100) == 100
    assert v5.check_hunger(0) == 0 and v5.check_hunger(5) == 5
    assert v5.check_pool(1) == 1 and v5.check_pool(50) == 50
    assert v5.rouse_reroll_level(0) == 0 and v5.rouse_reroll_level(10) == 5
    assert v5.check_bestial_rule("total_failure") == "total_failure"


def test_evaluate_every_field():
    result = v5.evaluate([10, 6, 2], [10, 1], 3)
    assert result == v5.V5Result(
        regular=(10, 6, 2), hunger=(10, 1), difficulty=3, successes=5, win=True, margin=2,
        critical=True, messy_critical=True, bestial_failure=False, total_failure=False,
        bestial_rule="official", rerolled=(), hunger_rating=None,
    )
    assert result.pool == 5 and result.tens == 2 and result.hunger_level == 2
    assert result.outcome == "messy_critical" and result.outcome_label == "messy critical"
    assert result.margin_label == "solid success"


def test_messy_needs_a_hunger_ten_and_critical_needs_two_tens():
    assert not v5.evaluate([10, 10], [1], 1).messy_critical  # a Hunger 1, not a Hunger 10
    assert v5.evaluate([10, 10], [1], 1).critical
    assert not v5.evaluate([10, 9], [10], 6).win  # 10+10 pair: 5 successes
    assert v5.evaluate([10], [10], 4).critical and v5.evaluate([10], [10], 4).messy_critical
    assert not v5.evaluate([10, 2], [], 1).critical  # one 10
    assert v5.evaluate([10, 10], [], 5).win is False  # two 10s are 4, not 5


@pytest.mark.parametrize(
    "regular, hunger, difficulty, outcome, label, margin_label",
    [
        ([6, 7], [], 2, "bare", "bare success", "bare success"),
        ([6, 7, 8], [], 2, "solid", "solid success", "solid success"),
        ([6, 7, 8, 9], [], 2, "solid", "solid success", "solid success"),
        ([6, 7, 8, 9, 6], [], 2, "exceptional", "exceptional success", "exceptional success"),
        ([10, 10], [], 4, "critical", "critical success", "bare success"),
        ([6], [1], 2, "bestial_failure", "bestial failure", None),
        ([6], [2], 2, "failure", "failure", None),
        ([2], [2], 1, "total_failure", "total failure", None),
    ],
)
def test_outcome_labels(regular, hunger, difficulty, outcome, label, margin_label):
    result = v5.evaluate(regular, hunger, difficulty)
    assert (result.outcome, result.outcome_label, result.margin_label) == (outcome, label, margin_label)


def test_margin_grade_edges():
    assert [v5.margin_grade(m) for m in (0, 1, 2, 3, 4)] == ["bare", "solid", "solid", "exceptional",
                                                            "exceptional"]


def test_roll_keeps_hunger_rating_and_bestial_rule():
    result = v5.roll(2, 4, 1, rng=FixedFaces([2, 3]), bestial_rule="total_failure")
    assert result.regular == () and result.hunger == (2, 3)
    assert result.hunger_rating == 4 and result.hunger_level == 4
    assert result.bestial_failure and result.bestial_rule == "total_failure"  # no Hunger 1 needed
    official = v5.roll(3, 1, 2, rng=FixedFaces([6, 2, 1]))
    assert official.regular == (6, 2) and official.hunger == (1,) and official.bestial_failure
    assert official.difficulty == 2 and official.margin == -1
    refused(lambda: v5.roll(3, 1, 101, rng=FixedFaces([1, 1, 1])),
            "Difficulty is a number of successes from 0 to 100.")


def test_rescore_keeps_rule_rerolled_and_hunger_rating():
    rolled = v5.roll(2, 3, 1, rng=FixedFaces([2, 4]), bestial_rule="total_failure")
    again = v5.rescore(rolled, 0)
    assert again.bestial_failure and again.bestial_rule == "total_failure" and again.hunger_rating == 3
    rerolled = v5.apply_reroll(v5.evaluate([2, 6], [], 1), (0,), (3,))
    assert v5.rescore(rerolled, 3).rerolled == (0,) and v5.rescore(rerolled, 3).difficulty == 3


# ---------------------------------------------------------------- v5: Willpower rerolls


def test_choose_failures_caps_at_three():
    assert v5.choose_failures(v5.evaluate([1, 2, 3, 4, 5], [], 1)) == (0, 1, 2)
    assert v5.choose_failures(v5.evaluate([5, 6, 9], [], 1)) == (0,)


def test_choose_crits_edges():
    assert v5.choose_crits(v5.evaluate([10, 5, 4, 3, 2], [], 1)) == (2, 3, 4)  # three lowest non-10s
    assert v5.choose_crits(v5.evaluate([10, 10, 10, 6], [], 1)) == (3,)  # three 10s: one unpaired
    assert v5.choose_crits(v5.evaluate([6, 7], [], 1)) == ()  # no 10


def test_choose_messy_edges():
    assert v5.choose_messy(v5.evaluate([10, 10, 6, 6], [10], 2)) == (0, 1)
    assert v5.choose_messy(v5.evaluate([10, 10, 10, 6], [10], 1)) == (0, 1, 2)
    assert v5.choose_messy(v5.evaluate([10, 10, 10, 10, 6], [10], 1)) == ()  # four: too many
    assert v5.choose_messy(v5.evaluate([10, 6], [10, 10], 1)) == ()  # two Hunger 10s
    assert v5.choose_messy(v5.evaluate([6, 6], [10, 10], 1)) == ()
    assert v5.choose_messy(v5.evaluate([10, 6], [10], 2)) == (0,)  # 6 + Hunger 10 still win 2
    assert v5.choose_messy(v5.evaluate([10, 6], [10], 3)) == ()  # would no longer win
    assert v5.choose_messy(v5.evaluate([10, 10], [6], 1)) == ()  # not messy


def test_choose_faces():
    result = v5.evaluate([3, 7, 3, 10], [1], 2)
    assert v5.choose_faces(result, [3, 3]) == (0, 2)
    assert v5.choose_faces(result, [10, 3]) == (0, 3)
    refused(lambda: v5.choose_faces(result, []), "Name at least one die to reroll.")
    refused(lambda: v5.choose_faces(result, [3, 3, 7, 10]), "Willpower rerolls at most 3 dice.")
    refused(lambda: v5.choose_faces(result, [1]),
            "There is no regular die showing 1 to reroll (regular dice: 3 7 3 10); "
            "Hunger dice are never rerolled.")
    refused(lambda: v5.choose_faces(result, [3, 3, 3]),
            "There is no regular die showing 3 to reroll (regular dice: 3 7 3 10); "
            "Hunger dice are never rerolled.")
    refused(lambda: v5.choose_faces(v5.evaluate([], [2], 1), [2]),
            "There is no regular die showing 2 to reroll (regular dice: none); Hunger dice are never rerolled.")


def test_choose_reroll_dispatch():
    result = v5.evaluate([10, 2, 7], [10], 2)
    assert v5.choose_reroll(result, "failures") == (1,)
    assert v5.choose_reroll(result, "crits") == ()
    assert v5.choose_reroll(result, "messy") == (0,)
    assert v5.choose_reroll(result, "best") == v5_odds.best_reroll(result)
    lone = v5.evaluate([10, 2, 7], [], 3)
    assert v5.choose_reroll(lone, "crits") == (1, 2)
    refused(lambda: v5.choose_reroll(result, "luck"),
            "Unknown Willpower strategy 'luck': use failures, crits, messy, best or dice faces.")


def test_apply_reroll_edges():
    result = v5.evaluate([2, 3, 4, 5], [1], 1, "total_failure")
    done = v5.apply_reroll(result, (3, 1, 2), (6, 7, 8))
    assert done.regular == (2, 7, 8, 6) and done.rerolled == (1, 2, 3) and done.bestial_rule == "total_failure"
    assert v5.apply_reroll(result, (0,), (1,)).bestial_failure  # still 0 successes, seed reading
    refused(lambda: v5.apply_reroll(done, (0,), (6,)), "This roll has already been rerolled with Willpower.")
    refused(lambda: v5.apply_reroll(result, (), ()), "There are no dice to reroll.")
    refused(lambda: v5.apply_reroll(result, (0, 1, 2, 3), (6, 6, 6, 6)),
            "Willpower rerolls up to 3 different regular dice.")
    refused(lambda: v5.apply_reroll(result, (0, 0), (6, 6)), "Willpower rerolls up to 3 different regular dice.")
    refused(lambda: v5.apply_reroll(result, (4,), (6,)), "Only regular dice can be rerolled.")
    refused(lambda: v5.apply_reroll(result, (-1,), (6,)), "Only regular dice can be rerolled.")
    refused(lambda: v5.apply_reroll(result, (0, 1), (6,)), "One new face is needed for each rerolled die.")
    refused(lambda: v5.apply_reroll(result, (0,), (0,)),
            "Rerolled die faces must be whole numbers from 1 to 10, not 0.")
    rated = v5.roll(2, 0, 1, rng=FixedFaces([2, 2]))
    assert v5.apply_reroll(rated, (0,), (9,)).hunger_rating == 0


def test_reroll_draws_one_face_per_die():
    result = v5.evaluate([2, 3, 4], [], 1)
    source = FixedFaces([9, 6])
    assert v5.reroll(result, (0, 2), rng=source).regular == (9, 3, 6) and source.remaining == []


def test_odds_passes_the_bestial_rule():
    assert v5.odds(1, 1, 1, bestial_rule="total_failure")["bestial_failure"] == v5_odds.odds(
        1, 1, 1, "total_failure")["bestial_failure"] == pytest.approx(0.5)


# ---------------------------------------------------------------- v5_odds: rerolls


def test_reroll_odds_messages():
    result = v5.evaluate([1, 2, 3, 4], [5], 2)
    refused(lambda: v5_odds.reroll_odds(result, (0, 1, 2, 3)), "Willpower rerolls at most 3 dice.")
    refused(lambda: v5_odds.reroll_odds(result, (0, 0)), "Name each die to reroll only once.")
    refused(lambda: v5_odds.reroll_odds(result, (4,)), "Only regular dice can be rerolled.")
    refused(lambda: v5_odds.reroll_odds(result, (True,)), "Only regular dice can be rerolled.")
    assert v5_odds.reroll_odds(result, (3,)) == v5_odds.reroll_odds(result, [3])


def test_best_reroll_never_more_than_three_dice():
    result = v5.evaluate([1, 1, 1, 1, 1], [], 5)
    best = v5_odds.best_reroll(result)
    assert best == (0, 1, 2)
    for pool in (4, 5, 6):
        result = v5.evaluate([1] * pool, [], 9)
        assert len(v5_odds.best_reroll(result)) == 3


@pytest.mark.parametrize(
    "regular, hunger, difficulty",
    [
        ([1, 6, 6, 6, 6], [], 9),  # only five fresh dice could reach 9: still at most three
        ([10, 10, 10, 10, 6, 6, 6, 6, 6, 6], [10], 1),  # every regular 10 would undo the messy
        ([10, 10, 10, 10, 1, 6, 6, 6, 6, 6], [10], 1),
    ],
)
def test_best_reroll_picks_at_most_three(regular, hunger, difficulty):
    assert 1 <= len(v5_odds.best_reroll(v5.evaluate(regular, hunger, difficulty))) <= 3


def test_reroll_odds_seed_reading_needs_hunger_dice():
    without = v5.evaluate([2, 3], [], 1, "total_failure")
    assert v5_odds.reroll_odds(without, (0,))["bestial_failure"] == 0
    one = v5.evaluate([2, 3], [4], 1, "total_failure")
    assert v5_odds.reroll_odds(one, (0,))["bestial_failure"] == pytest.approx(0.5)
    assert v5_odds.reroll_odds(one, (0,))["total_failure"] == pytest.approx(0.5)


def test_reroll_improves_edges():
    equal = v5.evaluate([6], [], 0)  # a sure win with one success: rerolling can only lose
    assert not v5_odds.reroll_improves(equal, (0,))
    assert v5_odds.rank({"win": 1, "messy_critical": 0, "expected_successes": 2}) == (1, 0, 2)


def test_strategy_odds_best_uses_best_reroll():
    result = v5.evaluate([2, 9, 9, 9], [], 4)
    got = v5_odds.strategy_odds(result)
    assert got["best"] == v5_odds.reroll_odds(result, v5_odds.best_reroll(result))
    assert got["failures"] == v5_odds.reroll_odds(result, (0,))
    assert got["crits"] is None and got["messy"] is None


# ---------------------------------------------------------------- v5_rouse


def test_rouse_six_is_never_rerolled():
    result = v5_rouse.evaluate([6], 2, blood_potency=3, level=1)
    assert result.checks[0].reroll is None and result.checks[0].passed and result.hunger_after == 2
    failed = v5_rouse.evaluate([5, 6], 2, blood_potency=3, level=1)
    assert failed.checks[0].reroll == 6 and failed.checks[0].passed and failed.faces == (5, 6)


def test_rouse_result_fields():
    result = v5_rouse.evaluate([2, 7], 3, count=2, blood_potency=4, level=3)
    assert result.hunger_before == 3 and result.hunger_after == 4 and result.reroll_level == 2
    assert result.level == 3 and result.blood_potency == 4 and not result.may_reroll
    assert result.passed == 1 and result.failed == 1
    assert v5_rouse.evaluate([2], 0).blood_potency == 0  # default Blood Potency 0: no reroll
    assert v5_rouse.evaluate([2], 0, level=1).checks[0].reroll is None


def test_rouse_roll_defaults_and_level():
    source = FixedFaces([3])
    result = v5_rouse.roll(1, rng=source)
    assert len(result.checks) == 1 and result.blood_potency == 0 and result.hunger_after == 2
    refused(lambda: v5_rouse.roll(1, level=6, rng=FixedFaces([])), "A power's level is from 1 to 5.")
    rerolled = v5_rouse.roll(1, blood_potency=1, level=1, rng=FixedFaces([2, 8]))
    assert rerolled.checks[0].faces == (2, 8) and rerolled.hunger_after == 1


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: v5_rouse.evaluate([2] * 6, 1, count=6), "Make from 1 to 5 Rouse checks at a time."),
        (lambda: v5_rouse.evaluate([], 1, count=0), "Make from 1 to 5 Rouse checks at a time."),
        (lambda: v5_rouse.evaluate([2], 1, count="1"), "Make from 1 to 5 Rouse checks at a time."),
        (lambda: v5_rouse.evaluate([2], 1, count=True), "Make from 1 to 5 Rouse checks at a time."),
        (lambda: v5_rouse.evaluate([2], 1, level=0), "A power's level is from 1 to 5."),
        (lambda: v5_rouse.evaluate([2], 1, level="1"), "A power's level is from 1 to 5."),
        (lambda: v5_rouse.evaluate([2], 1, level=True), "A power's level is from 1 to 5."),
        (lambda: v5_rouse.evaluate([0], 1), "Rouse die faces must be whole numbers from 1 to 10, not 0."),
        (lambda: v5_rouse.evaluate([], 1), "Too few faces for these Rouse checks."),
        (lambda: v5_rouse.evaluate([2, 3], 1), "Too many faces for these Rouse checks."),
        (lambda: v5_rouse.slake(3, 0), "Slake Hunger by 1 or more."),
        (lambda: v5_rouse.slake(3, "1"), "Slake Hunger by 1 or more."),
        (lambda: v5_rouse.slake(3, True), "Slake Hunger by 1 or more."),
        (lambda: v5_rouse.slake(0, 1), "Hunger is already 0."),
        (lambda: v5_rouse.slake(0, 1, killed=True), "Hunger is already 0."),
        (lambda: v5_rouse.slake(1, 1),
         "Hunger is already 1: only draining and killing the vessel slakes the last point (staff: /kill)."),
    ],
)
def test_rouse_refusals(call, message):
    refused(call, message)


def test_rouse_bounds_accepted():
    assert len(v5_rouse.evaluate([7] * 5, 1, count=5).checks) == 5
    assert v5_rouse.evaluate([2, 2], 1, count=1, blood_potency=9, level=5).checks[0].faces == (2, 2)
    assert v5_rouse.slake(3, 1) == 2 and v5_rouse.slake(3, 5) == 1  # stops at 1
    assert v5_rouse.slake(3, 5, killed=True) == 0


# ---------------------------------------------------------------- v5_contest


def test_contest_side_lookup():
    contest = v5_contest.evaluate_contest([6], [], [2], [])
    assert contest.side("attacker") is contest.attacker and contest.side("defender") is contest.defender
    refused(lambda: contest.side("judge"), "A contest's sides are attacker and defender.")
    refused(lambda: v5_contest.replace_side(contest, "judge", contest.attacker),
            "A contest's sides are attacker and defender.")


def test_contest_sides_rolled_at_difficulty_zero_with_the_rule():
    contest = v5_contest.evaluate_contest([2], [3], [6], [1], "total_failure")
    assert contest.attacker.bestial_failure  # seed reading: 0 successes with Hunger dice
    assert contest.attacker.difficulty == 2 and contest.defender.difficulty == 0
    assert contest.defender.bestial_rule == "total_failure" and contest.attacker.bestial_rule == "total_failure"
    both_zero = v5_contest.evaluate_contest([2], [], [3], [4], "total_failure")
    assert both_zero.defender.bestial_failure and both_zero.winner == "defender"
    rolled = v5_contest.roll_contest(1, 1, 1, 0, rng=FixedFaces([3, 6]), bestial_rule="total_failure")
    assert rolled.attacker.bestial_failure and rolled.attacker.bestial_rule == "total_failure"
    assert rolled.defender.bestial_rule == "total_failure" and rolled.winner == "defender"
    assert rolled.attacker.hunger == (3,) and rolled.defender.regular == (6,)


def test_contest_replace_defender():
    contest = v5_contest.evaluate_contest([6, 6], [], [2], [])
    better = v5.evaluate([10, 10], [], 0)
    again = v5_contest.replace_side(contest, "defender", better)
    assert again.winner == "defender" and again.margin == 2 and again.defender.successes == 4
    assert again.attacker.successes == 2 and again.defender.critical
    again = v5_contest.replace_side(contest, "attacker", v5.evaluate([2], [], 0))
    assert again.tie and again.winner == "defender"


def test_teamwork_with_ten_helpers_and_critical():
    helpers = [([6], [])] * 10
    team = v5_contest.evaluate_teamwork(([10, 10], []), helpers, 14)
    assert team.win and team.successes == 14 and len(team.helpers) == 10
    assert team.critical and team.outcome == "critical" and team.outcome_label == "critical success"
    refused(lambda: v5_contest.evaluate_teamwork(([6], []), [([6], [])] * 11, 1),
            "At most 10 helpers join a teamwork roll.")
    rolled = v5_contest.roll_teamwork((1, 0), [(1, 0)] * 10, 11, rng=FixedFaces([6] * 11))
    assert rolled.win and rolled.margin == 0
    refused(lambda: v5_contest.roll_teamwork((1, 0), [(1, 0)] * 11, 1, rng=FixedFaces([])),
            "At most 10 helpers join a teamwork roll.")


def test_teamwork_passes_the_bestial_rule():
    team = v5_contest.evaluate_teamwork(([2], [3]), [([4], [])], 1, "total_failure")
    assert team.bestial_failure and team.leader.bestial_rule == "total_failure"
    assert team.helpers[0].bestial_rule == "total_failure"
    rolled = v5_contest.roll_teamwork((1, 1), [(1, 0)], 1, rng=FixedFaces([3, 4]), bestial_rule="total_failure")
    assert rolled.bestial_failure and rolled.helpers[0].bestial_rule == "total_failure"
    assert rolled.leader.hunger == (3,) and rolled.helpers[0].regular == (4,)


def test_teamwork_participant_needs():
    carried = v5_contest.evaluate_teamwork(([6], []), [([6, 6], [])], 2)
    assert carried.leader.difficulty == 0 and carried.leader.margin == 1 and carried.leader.win
    assert carried.helpers[0].difficulty == 1 and carried.win and carried.margin == 1
    team = v5_contest.evaluate_teamwork(([6, 6], []), [([6], [])], 4)
    assert team.leader.difficulty == 3 and team.helpers[0].difficulty == 2
    assert not team.win and team.margin == -1 and not team.total_failure
    refused(lambda: v5_contest.replace_participant(team, 2, team.leader),
            "There is no such participant in this teamwork roll.")
    refused(lambda: v5_contest.replace_participant(team, -1, team.leader),
            "There is no such participant in this teamwork roll.")
    again = v5_contest.replace_participant(team, 1, v5.evaluate([6, 6], [], 0))
    assert again.win and again.successes == 4 and again.helpers[0].successes == 2


# ---------------------------------------------------------------- v5_humanity


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: v5_humanity.remorse_pool(11, 0), "Humanity is from 0 to 10."),
        (lambda: v5_humanity.remorse_pool(-1, 0), "Humanity is from 0 to 10."),
        (lambda: v5_humanity.remorse_pool("7", 0), "Humanity is from 0 to 10."),
        (lambda: v5_humanity.remorse_pool(True, 0), "Humanity is from 0 to 10."),
        (lambda: v5_humanity.remorse_pool(7, 11), "Stains are from 0 to 10."),
        (lambda: v5_humanity.remorse_pool(7, -1), "Stains are from 0 to 10."),
        (lambda: v5_humanity.remorse_pool(7, "1"), "Stains are from 0 to 10."),
        (lambda: v5_humanity.remorse_pool(7, True), "Stains are from 0 to 10."),
        (lambda: v5_humanity.evaluate_remorse([6], 7, 0), "No Stains: no Remorse test is needed."),
        (lambda: v5_humanity.evaluate_remorse([6], 0, 3),
         "Humanity 0: the character is already lost to the Beast; no Remorse test."),
        (lambda: v5_humanity.evaluate_remorse([6, 6], 7, 2),
         "A Remorse test at Humanity 7 with 2 Stains rolls 1 dice."),
        (lambda: v5_humanity.frenzy_pool(11, 7), "Willpower is from 0 to 10."),
        (lambda: v5_humanity.frenzy_pool(-1, 7), "Willpower is from 0 to 10."),
        (lambda: v5_humanity.frenzy_pool("3", 7), "Willpower is from 0 to 10."),
        (lambda: v5_humanity.frenzy_pool(True, 7), "Willpower is from 0 to 10."),
        (lambda: v5_humanity.frenzy_pool(3, 11), "Humanity is from 0 to 10."),
        (lambda: v5_humanity.evaluate_frenzy([6], 3, 7),
         "A frenzy test at Willpower 3 and Humanity 7 rolls 5 dice."),
        (lambda: v5_humanity.roll_frenzy(3, 7, 101, rng=FixedFaces([])),
         "Difficulty is a number of successes from 0 to 100."),
    ],
)
def test_humanity_refusals(call, message):
    refused(call, message)


def test_humanity_bounds_accepted():
    assert v5_humanity.remorse_pool(10, 0) == 1 and v5_humanity.remorse_pool(0, 0) == 10
    assert v5_humanity.remorse_pool(7, 3) == 1 and v5_humanity.remorse_pool(4, 1) == 5
    assert v5_humanity.frenzy_pool(10, 10) == 13 and v5_humanity.frenzy_pool(0, 0) == 1
    assert v5_humanity.frenzy_pool(0, 3) == 1 and v5_humanity.frenzy_pool(2, 6) == 4


def test_remorse_result_fields():
    kept = v5_humanity.evaluate_remorse([6, 2], 6, 2)
    assert (kept.humanity_before, kept.stains_before, kept.humanity_after, kept.stains_after) == (6, 2, 6, 0)
    assert kept.kept and not kept.lost_to_the_beast and kept.roll.difficulty == 1 and kept.roll.hunger == ()
    lost = v5_humanity.evaluate_remorse([5], 1, 9)
    assert lost.humanity_after == 0 and lost.lost_to_the_beast and not lost.kept
    rolled = v5_humanity.roll_remorse(6, 2, rng=FixedFaces([2, 3]))
    assert rolled.humanity_after == 5 and rolled.roll.regular == (2, 3)


def test_frenzy_result_fields():
    result = v5_humanity.evaluate_frenzy([6, 2, 3], 2, 5, 2)
    assert result.willpower == 2 and result.humanity == 5 and result.humanity_dice == 1
    assert result.resisted is False and result.difficulty_given and result.roll.difficulty == 2
    plain = v5_humanity.evaluate_frenzy([6, 2, 3], 2, 5)
    assert plain.resisted is None and plain.roll.difficulty == 1 and plain.roll.win
    zero = v5_humanity.evaluate_frenzy([2, 2, 3], 2, 5, 0)
    assert zero.resisted is False  # 0 successes never wins, not even vs 0
    rolled = v5_humanity.roll_frenzy(2, 5, 1, rng=FixedFaces([2, 9, 3]))
    assert rolled.resisted is True and rolled.roll.regular == (2, 9, 3) and rolled.willpower == 2
    assert v5_humanity.roll_frenzy(2, 5, rng=FixedFaces([2, 2, 2])).resisted is None


# ---------------------------------------------------------------- v5_sheet


def sheet_values(**changes):
    values = v5_sheet.clamp_all({})
    values.update({name.replace("_", " "): value for name, value in changes.items()})
    return values


def test_sheet_kinds_and_defaults():
    assert [v5_sheet.kind_of(t) for t in ("wits", "brawl", "auspex", "hunger")] == [
        "attribute", "skill", "discipline", "tracker"]
    refused(lambda: v5_sheet.kind_of("luck"), "There is no trait called 'luck'.")
    assert [v5_sheet.default_value(t) for t in ("wits", "brawl", "auspex", "humanity", "hunger")] == [1, 0, 0, 7, 1]


@pytest.mark.parametrize(
    "typed, message",
    [
        ("willpower", "Willpower's maximum is derived (Composure + Resolve); set its damage with "
                      "'willpower superficial' or '... aggravated'."),
        ("wp", "Wp's maximum is derived (Composure + Resolve); set its damage with "
               "'willpower superficial' or '... aggravated'."),
        ("health", "Health's maximum is derived (Stamina + 3); set its damage with "
                   "'health superficial' or '... aggravated'."),
    ],
)
def test_derived_tracks_cannot_be_set(typed, message):
    refused(lambda: v5_sheet.match_settable(typed), message)


def test_sheet_limits():
    values = sheet_values(stamina=2, composure=3, resolve=2, humanity=6,
                          willpower_superficial=2, health_aggravated=1)
    assert v5_sheet.health_max(values) == 5 and v5_sheet.willpower_max(values) == 5
    assert v5_sheet.limits("wits", values) == (1, 5)
    assert v5_sheet.limits("brawl", values) == (0, 5) and v5_sheet.limits("auspex", values) == (0, 5)
    assert v5_sheet.limits("stains", values) == (0, 10)  # overflowing Stains are kept
    assert v5_sheet.limits("willpower aggravated", values) == (0, 3)
    assert v5_sheet.limits("willpower superficial", values) == (0, 5)
    assert v5_sheet.limits("health superficial", values) == (0, 4)
    assert v5_sheet.limits("health aggravated", values) == (0, 5)
    assert v5_sheet.limits("hunger", values) == (0, 5)
    full = sheet_values(stamina=1, health_superficial=4, composure=1, resolve=1, willpower_aggravated=2)
    assert v5_sheet.limits("health aggravated", full) == (0, 0)  # no damage past a full track
    assert v5_sheet.limits("willpower superficial", full) == (0, 0)


@pytest.mark.parametrize(
    "trait, value, message",
    [
        ("stains", 11,
         "Stains must be from 0 to 10 (Stains beyond the empty Humanity boxes are Aggravated Willpower damage)."),
        ("health superficial", 5,
         "Health Superficial must be from 0 to 4 (Superficial and Aggravated together fit in the track)."),
        ("willpower aggravated", 3,
         "Willpower Aggravated must be from 0 to 2 (Superficial and Aggravated together fit in the track)."),
        ("wits", 0, "Wits must be from 1 to 5."),
        ("wits", "3", "Wits must be from 1 to 5."),
        ("brawl", True, "Brawl must be from 0 to 5."),
    ],
)
def test_sheet_check_value_messages(trait, value, message):
    values = sheet_values(humanity=7, stamina=1, composure=1, resolve=1)
    refused(lambda: v5_sheet.check_value(trait, value, values), message)


def test_sheet_check_value_bounds():
    values = sheet_values(humanity=7)
    assert v5_sheet.check_value("wits", 1, values) == 1 and v5_sheet.check_value("brawl", 0, values) == 0
    assert v5_sheet.check_value("stains", 3, values) == 3


def test_clamp_all_shrinks_damage_to_the_track():
    values = v5_sheet.clamp_all({"stamina": 1, "health superficial": 9, "health aggravated": 2,
                                 "humanity": 9, "stains": 5})
    assert values["health aggravated"] == 2 and values["health superficial"] == 2  # Aggravated first
    assert values["stains"] == 5 and values["brawl"] == 0 and values["wits"] == 1  # kept
    assert v5_sheet.clamp_all({"stains": 12})["stains"] == 10
    values = v5_sheet.clamp_all({"composure": 1, "resolve": 1, "willpower aggravated": 5,
                                 "willpower superficial": 1})
    assert values["willpower aggravated"] == 2 and values["willpower superficial"] == 0
    values = v5_sheet.clamp_all({"stamina": 1, "composure": 5, "resolve": 5, "health aggravated": 9})
    assert values["health aggravated"] == 4  # Stamina + 3, not the Willpower track


@pytest.mark.parametrize(
    "skill, specialty, owned, message",
    [
        ("wits", "Quick", (), "Only Skills have Specialties; Wits is not a Skill."),
        ("occult", "Rituals", (), "A Specialty needs at least one dot in Occult."),
        ("brawl", "   ", (), "Name the Specialty."),
        ("brawl", "x" * 31, (), "Specialty names are at most 30 characters."),
        ("brawl", "Bite!", (), "Specialty names use letters, digits, spaces, ' - and & only."),
        ("brawl", "grap pling", ("Grappling",), "Brawl already has the Specialty grap pling."),
        ("brawl", "Kicks", ("A", "B", "C", "D", "E"), "Brawl already has 5 Specialties."),
    ],
)
def test_specialty_refusals(skill, specialty, owned, message):
    values = sheet_values(brawl=1, occult=0)
    refused(lambda: v5_specialty(skill, specialty, values, owned), message)


def v5_specialty(skill, specialty, values, owned):
    return v5_sheet.check_specialty(skill, specialty, values, owned)


def test_specialty_skill_missing_from_values():
    refused(lambda: v5_sheet.check_specialty("occult", "Rituals", {}, ()),
            "A Specialty needs at least one dot in Occult.")


def test_specialty_accepted():
    values = sheet_values(brawl=1)
    assert v5_sheet.check_specialty("brawl", "  Dirty   Tricks ", values, ()) == "Dirty Tricks"
    assert v5_sheet.check_specialty("brawl", "x" * 30, values, ()) == "x" * 30
    assert v5_sheet.check_specialty("brawl", "Cat's-Paw & 2", values, ("A", "B", "C", "D")) == "Cat's-Paw & 2"
    assert v5_sheet.check_specialty("brawl", "Kicks", values, ("Grappling",)) == "Kicks"


def test_trait_table_rollables():
    table = v5_sheet.trait_table({"humanity": 6, "blood potency": 3, "composure": 3, "resolve": 2,
                                  "willpower superficial": 1, "willpower aggravated": 1},
                                 {"brawl": ["Grappling"]})
    assert table.values["humanity"] == 6 and table.values["blood potency"] == 3
    assert table.values["willpower"] == 3
    assert table.specialties == {"brawl": ("Grappling",)}
    assert table.aliases is v5_sheet.ALIASES and table.specialty_traits == frozenset(v5_sheet.ALL_SKILLS)
    assert build_pool("bp + hum", table).total == 9
    assert build_pool("brawl(grap)", v5_sheet.trait_table({"brawl": 1}, {"brawl": ["Grappling"]})).total == 2

"""
Seyruun rules (docs/seyruun.md): explicit faces for every rule and every worked example
of the rules, exact odds against icepool, a seeded comparison with an independent evaluator,
and property tests. Plain functions: no database.
"""

import itertools
import random
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storyteller_dice.rules import seyruun
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces
from storyteller_dice.rules.seyruun import build_pool, evaluate, evaluate_chance, odds

# ---------------------------------------------------------------- module shape


def test_key_and_title():
    assert seyruun.KEY == "seyruun"
    assert seyruun.TITLE == "Seyruun"


def test_constants():
    assert seyruun.MAX_ROLLED == 10
    assert seyruun.MAX_BONUS == 5
    assert seyruun.WILLPOWER_DICE == 3
    assert seyruun.MULTI_ACTION_PENALTY == 2
    assert (seyruun.MIN_DIFFICULTY, seyruun.MAX_DIFFICULTY) == (1, 20)
    assert seyruun.WOUND_PENALTIES == {"light": 1, "moderate": 2, "severe": 3, "crippled": 5}
    assert seyruun.DIFFICULTIES == {"simple": 1, "moderate": 2, "complex": 3, "epic": 4, "legendary": 5}


def test_result_is_frozen():
    result = evaluate([6], 1)
    with pytest.raises(AttributeError):
        result.win = False
    with pytest.raises(AttributeError):
        build_pool(3, 3).total = 1


# ---------------------------------------------------------------- counting


@pytest.mark.parametrize(
    "face, successes", [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 1), (7, 1), (8, 1), (9, 1), (10, 2)]
)
def test_each_face(face, successes):
    assert seyruun.die_successes(face) == successes
    assert evaluate([face], 1).successes == successes


def test_successes_add_up():
    result = evaluate([6, 9, 10, 5, 1], 3)
    assert result.successes == 4
    assert result.dice == (6, 9, 10, 5, 1)
    assert result.faces == result.dice
    assert result.tens == 1
    assert result.ones == 1
    assert result.difficulty == 3
    assert result.margin == 1
    assert seyruun.count_successes([10, 10, 7, 2]) == 5


def test_one_ten_counts_two():
    # Seed: "If you roll a total of one 10 then it would count as 2 successes".
    result = evaluate([10, 3, 4], 2)
    assert result.successes == 2
    assert result.win
    assert not result.enhanced_critical


@pytest.mark.parametrize(
    "name, needed", [("simple", 1), ("moderate", 2), ("complex", 3), ("epic", 4), ("legendary", 5)]
)
def test_difficulty_names(name, needed):
    assert seyruun.DIFFICULTIES[name] == needed


def test_win_at_exactly_the_difficulty():
    assert evaluate([6, 7], 2).win
    assert not evaluate([6, 2], 2).win
    assert evaluate([10], 2).win
    assert not evaluate([10], 3).win


def test_seed_task_examples():
    # Sneaking past a sleeping guard (2), forging a king's seal (3), a collapsing tower (5).
    assert evaluate([6, 6, 2], 2).win
    assert not evaluate([6, 2, 2], 2).win
    assert evaluate([6, 7, 8, 1], 3).win
    assert not evaluate([6, 7, 1, 1], 3).win
    assert evaluate([10, 10, 6], 5).win
    assert not evaluate([10, 6, 6, 3], 5).win


def test_botch():
    result = evaluate([1, 2, 5], 1)
    assert result.botch
    assert not result.win
    assert not result.failure
    assert result.successes == 0
    assert result.outcome == "botch"
    assert result.outcome_label == "botch"
    assert not result.dramatic_botch


def test_a_one_with_a_success_is_no_botch():
    result = evaluate([1, 6], 2)
    assert not result.botch
    assert not result.win
    assert result.failure
    assert result.outcome == "failure"


def test_many_ones_with_a_ten_is_no_botch():
    result = evaluate([1, 1, 1, 10], 3)
    assert not result.botch
    assert result.failure


def test_failure_without_ones():
    result = evaluate([2, 3, 4, 5], 1)
    assert not result.botch
    assert not result.win
    assert result.failure
    assert result.outcome == "failure"
    assert result.outcome_label == "failure"


def test_a_win_is_no_failure():
    assert not evaluate([6], 1).failure


def test_enhanced_critical():
    assert evaluate([10, 10], 1).enhanced_critical
    assert evaluate([10, 10, 10, 1], 2).enhanced_critical
    assert not evaluate([10, 9, 9], 1).enhanced_critical
    # Ruling: flagged on the 10s alone, even when the roll does not win.
    failed = evaluate([10, 10, 2], 5)
    assert failed.enhanced_critical
    assert not failed.win


@pytest.mark.parametrize(
    "faces, label_key, label",
    [
        ([6], "just_enough", "just enough"),
        ([6, 7], "solid", "solid"),
        ([10, 6], "solid", "solid"),
        ([6, 7, 8, 9], "heroic", "heroic"),
        ([10, 10, 6], "heroic", "heroic"),
        ([10, 10, 10], "supernatural", "supernatural brilliance"),
        ([10, 10, 10, 10, 10], "supernatural", "supernatural brilliance"),
        ([6, 6, 6, 6, 6, 6], "supernatural", "supernatural brilliance"),
    ],
)
def test_labels_count_total_successes(faces, label_key, label):
    result = evaluate(faces, 1)
    assert result.outcome == label_key
    assert result.outcome_label == label


def test_label_counts_successes_not_margin():
    # 4 successes at difficulty 4: margin 0, still "heroic" (Ruling).
    assert evaluate([10, 10], 4).outcome_label == "heroic"
    assert evaluate([6, 6, 6, 6, 6], 5).outcome_label == "heroic"
    assert evaluate([10, 10, 10], 6).outcome_label == "supernatural brilliance"


@pytest.mark.parametrize(
    "successes, key",
    [
        (1, "just_enough"),
        (2, "solid"),
        (3, "solid"),
        (4, "heroic"),
        (5, "heroic"),
        (6, "supernatural"),
        (7, "supernatural"),
        (20, "supernatural"),
    ],
)
def test_grade_thresholds(successes, key):
    assert seyruun.grade(successes) == key


def test_outcome_labels_table():
    assert seyruun.OUTCOME_LABELS == {
        "supernatural": "supernatural brilliance",
        "heroic": "heroic",
        "solid": "solid",
        "just_enough": "just enough",
        "dramatic_botch": "dramatic botch",
        "botch": "botch",
        "failure": "failure",
    }


def test_ten_dice_is_the_cap_for_faces():
    assert evaluate([10] * 10, 20).successes == 20
    assert evaluate([10] * 10, 20).win


# ---------------------------------------------------------------- chance die


def test_chance_die_ten_is_one_success():
    result = evaluate_chance(10)
    assert result.chance
    assert result.successes == 1
    assert result.win
    assert not result.botch
    assert result.enhanced_critical is False
    assert result.outcome_label == "just enough"
    assert result.dice == (10,)
    assert result.difficulty == 1


def test_chance_die_one_is_a_dramatic_botch():
    result = evaluate_chance(1)
    assert result.botch
    assert result.dramatic_botch
    assert not result.win
    assert not result.failure
    assert result.outcome == "dramatic_botch"
    assert result.outcome_label == "dramatic botch"


@pytest.mark.parametrize("face", [2, 3, 4, 5, 6, 7, 8, 9])
def test_chance_die_other_faces_fail(face):
    result = evaluate_chance(face)
    assert result.successes == 0
    assert not result.win
    assert not result.botch
    assert result.failure
    assert result.outcome == "failure"


def test_chance_die_ten_cannot_win_above_difficulty_one():
    result = evaluate_chance(10, 2)
    assert result.successes == 1
    assert not result.win
    assert result.failure


def test_chance_flag_on_evaluate():
    assert evaluate([10], 1, chance=True) == evaluate_chance(10)
    assert evaluate([10], 1, chance=True).successes == 1
    assert evaluate([10], 1).successes == 2
    with pytest.raises(DiceError, match=r"^A chance die is exactly one die\.$"):
        evaluate([10, 10], 1, chance=True)
    with pytest.raises(DiceError, match=r"^A chance die is exactly one die\.$"):
        evaluate([], 1, chance=True)


# ---------------------------------------------------------------- evaluate's refusals


@pytest.mark.parametrize("bad", [0, 11, -1, 1.0, True, "6", None])
def test_bad_faces_refused(bad):
    with pytest.raises(DiceError, match=r"^A die face must be a whole number from 1 to 10, not "):
        evaluate([6, bad], 1)


def test_bad_face_message():
    with pytest.raises(DiceError) as error:
        evaluate([11], 1)
    assert str(error.value) == "A die face must be a whole number from 1 to 10, not 11."


def test_not_a_list_of_faces():
    with pytest.raises(DiceError) as error:
        evaluate(7, 1)
    assert str(error.value) == "Dice must be a list of faces, not 7."


def test_no_faces_refused():
    with pytest.raises(DiceError) as error:
        evaluate([], 1)
    assert str(error.value) == "A roll needs at least one die; an empty pool rolls a chance die."


def test_more_than_ten_faces_refused():
    with pytest.raises(DiceError) as error:
        evaluate([6] * 11, 1)
    assert str(error.value) == "At most 10 dice are rolled; dice above that are overflow."


@pytest.mark.parametrize("bad", [0, 21, -1, 1.5, True, None, "2"])
def test_bad_difficulty_refused(bad):
    with pytest.raises(DiceError, match=r"^Difficulty \(successes needed\) must be a whole number from 1 to 20, not "):
        evaluate([6], bad)


def test_difficulty_bounds_allowed():
    assert evaluate([6], 1).win
    assert not evaluate([6], 20).win
    with pytest.raises(DiceError) as error:
        evaluate([6], 21)
    assert str(error.value) == "Difficulty (successes needed) must be a whole number from 1 to 20, not 21."


# ---------------------------------------------------------------- building pools


def test_seed_example_dexterity_stealth_boots():
    # Seed: Dexterity 3 + Stealth 3 + Silencing Boots (+1) = 7 dice. Roll 7d10.
    pool = build_pool(3, 3, bonuses=(1,))
    assert pool.total == 7
    assert pool.dice == 7
    assert pool.overflow == 0
    assert not pool.chance
    assert pool.base == 6
    assert pool.bonus == 1
    assert pool.bonus_cut == 0
    assert pool.penalty == 0
    assert pool.notes == ()
    result = seyruun.roll(pool, 2, FixedFaces([1, 2, 3, 6, 7, 9, 10]))
    assert result.dice == (1, 2, 3, 6, 7, 9, 10)
    assert result.successes == 5
    assert result.pool == 7


def test_seed_substitutions_use_the_skill_slot():
    # Charisma + Dominate, Resolve + Divinity, Intelligence + Elemental Core: the power
    # stands in for the Skill.
    assert build_pool(4, 2).total == 6
    assert not build_pool(4, 2).untrained


def test_combat_reflexes_initiative():
    # Initiative: Wits + Dexterity; "Combat Reflexes" grants +1 die.
    assert build_pool(2, 3, bonuses=(1,)).total == 6


def test_untrained_minus_one():
    pool = build_pool(3)
    assert pool.untrained
    assert pool.base == 2
    assert pool.total == 2
    assert pool.notes == ("untrained: -1 die",)
    assert build_pool(3, 0).total == 2
    assert build_pool(3, 0).untrained
    assert build_pool(3, 1).total == 4
    assert not build_pool(3, 1).untrained


def test_untrained_attribute_one_is_a_chance_die():
    pool = build_pool(1)
    assert pool.total == 0
    assert pool.chance
    assert pool.dice == 1


def test_external_bonus_cap():
    pool = build_pool(3, 2, bonuses=(3, 2, 2))
    assert pool.bonus == 5
    assert pool.bonus_cut == 2
    assert pool.total == 10
    assert pool.notes == ("external bonuses +7 cut to +5 (2 cut)",)


def test_external_bonus_exactly_five_is_not_cut():
    pool = build_pool(3, 2, bonuses=(5,))
    assert pool.bonus == 5
    assert pool.bonus_cut == 0
    assert pool.notes == ()
    assert build_pool(3, 2, bonuses=(6,)).bonus_cut == 1


def test_willpower_adds_three():
    pool = build_pool(3, 2, willpower=True)
    assert pool.total == 8
    assert pool.notes == ("Willpower: +3 dice",)
    assert build_pool(3, 2, willpower=False).total == 5


def test_willpower_is_not_an_external_bonus():
    pool = build_pool(3, 2, bonuses=(5,), willpower=True)
    assert pool.total == 13
    assert pool.bonus_cut == 0


@pytest.mark.parametrize(
    "wound, lost", [("light", 1), ("moderate", 2), ("severe", 3), ("crippled", 5), ("Severe", 3), (None, 0)]
)
def test_wound_penalties(wound, lost):
    pool = build_pool(4, 4, wound=wound)
    assert pool.total == 8 - lost
    assert pool.penalty == lost


def test_wound_name_stored_in_lower_case():
    assert build_pool(4, 4, wound="CRIPPLED").wound == "crippled"


def test_unknown_wound_refused():
    with pytest.raises(DiceError) as error:
        build_pool(3, 3, wound="grazed")
    assert str(error.value) == "Unknown wound 'grazed': use light, moderate, severe, crippled."


def test_multi_action_penalty():
    assert build_pool(4, 4, extra_actions=1).total == 6
    assert build_pool(4, 4, extra_actions=2).total == 4
    assert build_pool(4, 4, extra_actions=2).penalty == 4


def test_penalties_are_cumulative():
    # Severe wound -3, harsh terrain -2, low visibility -1, one extra action -2.
    pool = build_pool(5, 4, penalties=(2, 1), wound="severe", extra_actions=1)
    assert pool.penalty == 8
    assert pool.total == 1
    assert pool.dice == 1
    assert not pool.chance


def test_penalty_sign_is_ignored():
    assert build_pool(4, 4, penalties=(-2,)).total == 6
    assert build_pool(4, 4, penalties=(2,)).total == 6
    assert build_pool(4, 4, penalties=(0,)).total == 8


def test_penalties_to_zero_give_a_chance_die():
    pool = build_pool(2, 1, penalties=(3,))
    assert pool.total == 0
    assert pool.chance
    assert pool.dice == 1
    assert pool.overflow == 0
    assert pool.notes == ("no dice left: one chance die",)
    result = seyruun.roll(pool, 1, FixedFaces([10]))
    assert result.chance
    assert result.successes == 1
    assert result.win
    assert result.pool == 0
    assert result.overflow == 0


def test_penalties_below_zero_give_a_chance_die():
    pool = build_pool(2, 1, wound="crippled", extra_actions=3)
    assert pool.total == -8
    assert pool.chance
    assert pool.dice == 1
    assert seyruun.roll(pool, 1, FixedFaces([1])).dramatic_botch


def test_overflow_above_ten():
    pool = build_pool(5, 5, bonuses=(3,), willpower=True)
    assert pool.total == 16
    assert pool.dice == 10
    assert pool.overflow == 6
    assert pool.notes == ("Willpower: +3 dice", "6 dice of overflow (not rolled)")
    result = seyruun.roll(pool, 3, FixedFaces([6] * 10))
    assert len(result.dice) == 10
    assert result.overflow == 6
    assert result.pool == 16


def test_exactly_ten_has_no_overflow():
    pool = build_pool(5, 5)
    assert pool.dice == 10
    assert pool.overflow == 0
    assert build_pool(5, 5, bonuses=(1,)).overflow == 1
    assert build_pool(5, 5, bonuses=(1,)).dice == 10


def test_every_note_in_order():
    pool = build_pool(1, bonuses=(6,), willpower=True, penalties=(20,))
    assert pool.notes == (
        "untrained: -1 die",
        "external bonuses +6 cut to +5 (1 cut)",
        "Willpower: +3 dice",
        "no dice left: one chance die",
    )


def test_pool_of_fifty_allowed_and_fifty_one_refused():
    assert build_pool(40, 10).total == 50
    assert build_pool(40, 10).dice == 10
    assert build_pool(40, 10).overflow == 40
    with pytest.raises(DiceError) as error:
        build_pool(41, 10)
    assert str(error.value) == "That pool is 51 dice; pools are limited to 50."


def test_pool_bound_is_after_modifiers():
    # 48 + 5 = 53 before penalties, 50 after: allowed (the bound is after all modifiers).
    assert build_pool(40, 8, bonuses=(5,), penalties=(3,)).total == 50
    with pytest.raises(DiceError):
        build_pool(40, 8, bonuses=(5,), penalties=(2,))
    # The cut bonus dice do not count toward the bound.
    assert build_pool(40, 5, bonuses=(9,)).total == 50


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"attribute": 0}, "An Attribute must be a whole number 1 or more, not 0."),
        ({"attribute": 2.0}, "An Attribute must be a whole number 1 or more, not 2.0."),
        ({"attribute": True}, "An Attribute must be a whole number 1 or more, not True."),
        ({"attribute": 3, "skill": -1}, "A Skill must be a whole number 0 or more, not -1."),
        ({"attribute": 3, "skill": "2"}, "A Skill must be a whole number 0 or more, not '2'."),
        ({"attribute": 3, "bonuses": (1, -1)}, "A bonus must be a whole number 0 or more, not -1."),
        ({"attribute": 3, "penalties": (1.5,)}, "A penalty must be a whole number of dice, not 1.5."),
        ({"attribute": 3, "penalties": (True,)}, "A penalty must be a whole number of dice, not True."),
        ({"attribute": 3, "willpower": 1}, "Willpower is either spent or not."),
        ({"attribute": 3, "extra_actions": -1}, "Extra actions must be a whole number 0 or more, not -1."),
        ({"attribute": 3, "assistants": -1}, "Assistants must be a whole number 0 or more, not -1."),
    ],
)
def test_build_pool_refusals(kwargs, message):
    with pytest.raises(DiceError) as error:
        build_pool(**kwargs)
    assert str(error.value) == message


def test_build_pool_zero_values_allowed():
    pool = build_pool(1, 0, bonuses=(0,), penalties=(0,), extra_actions=0, assistants=0)
    assert pool.total == 0
    assert pool.bonuses == (0,)
    assert pool.penalties == (0,)
    assert pool.skill == 0
    assert pool.attribute == 1
    assert pool.extra_actions == 0
    assert pool.willpower is False
    assert pool.assistants == 0


def test_build_pool_accepts_iterables():
    pool = build_pool(3, 3, bonuses=iter([1, 1]), penalties=iter([1]))
    assert pool.bonuses == (1, 1)
    assert pool.penalties == (1,)
    assert pool.total == 7


# ---------------------------------------------------------------- rolling


def test_roll_uses_the_injected_rng():
    result = seyruun.roll(5, 2, FixedFaces([1, 6, 10, 3, 4]))
    assert result == seyruun.SeyruunResult(
        dice=(1, 6, 10, 3, 4),
        difficulty=2,
        successes=3,
        win=True,
        botch=False,
        enhanced_critical=False,
        chance=False,
        overflow=0,
        pool=5,
        rerolled=False,
    )


def test_roll_seeded_is_reproducible():
    assert seyruun.roll(7, 2, random.Random(9)) == seyruun.roll(7, 2, random.Random(9))
    source = random.Random(9)
    expected = tuple(source.randint(1, 10) for _ in range(7))
    assert seyruun.roll(7, 2, random.Random(9)).dice == expected


def test_roll_caps_at_ten_and_reports_overflow():
    result = seyruun.roll(14, 1, FixedFaces([2] * 10))
    assert len(result.dice) == 10
    assert result.overflow == 4
    assert result.pool == 14
    assert seyruun.roll(10, 1, FixedFaces([2] * 10)).overflow == 0


def test_roll_zero_or_less_rolls_a_chance_die():
    result = seyruun.roll(0, 1, FixedFaces([10]))
    assert result.chance
    assert result.dice == (10,)
    assert result.successes == 1
    assert result.pool == 0
    minus = seyruun.roll(-3, 1, FixedFaces([1]))
    assert minus.chance
    assert minus.dramatic_botch
    assert minus.overflow == 0
    assert minus.pool == -3
    one = seyruun.roll(1, 1, FixedFaces([10]))
    assert not one.chance
    assert one.successes == 2


@pytest.mark.parametrize(
    "bad, message",
    [
        (51, "That pool is 51 dice; pools are limited to 50."),
        (1.0, "A pool must be a whole number of dice, not 1.0."),
        (True, "A pool must be a whole number of dice, not True."),
    ],
)
def test_roll_refuses_bad_pools(bad, message):
    with pytest.raises(DiceError) as error:
        seyruun.roll(bad, 1, FixedFaces([]))
    assert str(error.value) == message


def test_roll_fifty_allowed():
    result = seyruun.roll(50, 1, FixedFaces([6] * 10))
    assert result.overflow == 40


def test_roll_refuses_bad_difficulty_before_rolling():
    with pytest.raises(DiceError):
        seyruun.roll(3, 0, FixedFaces([]))


def test_roll_default_rng():
    result = seyruun.roll(4, 1)
    assert len(result.dice) == 4
    assert all(1 <= face <= 10 for face in result.dice)


# ---------------------------------------------------------------- willpower reroll


def test_reroll_needs_approval():
    failed = evaluate([2, 3], 1)
    with pytest.raises(DiceError) as error:
        seyruun.apply_reroll(failed, [6, 6])
    assert str(error.value) == "Rerolling a failed roll with Willpower needs the Storyteller's approval."


def test_reroll_a_failed_roll():
    failed = seyruun.roll(12, 2, FixedFaces([2] * 10))
    again = seyruun.apply_reroll(failed, [6, 6, 1, 1, 1, 1, 1, 1, 1, 1], approved=True)
    assert again.rerolled
    assert again.successes == 2
    assert again.win
    assert again.overflow == 2
    assert again.pool == 12
    assert again.difficulty == 2
    assert not failed.rerolled


def test_reroll_a_botch_with_the_rng():
    botch = evaluate([1, 1], 1)
    again = seyruun.reroll(botch, approved=True, rng=FixedFaces([10, 3]))
    assert again.dice == (10, 3)
    assert again.rerolled
    assert again.win


def test_reroll_default_refused_and_rolls_nothing():
    with pytest.raises(DiceError):
        seyruun.reroll(evaluate([1], 1), rng=FixedFaces([]))


def test_reroll_chance_die_stays_a_chance_die():
    again = seyruun.apply_reroll(evaluate_chance(5), [10], approved=True)
    assert again.chance
    assert again.successes == 1


def test_reroll_refusals():
    with pytest.raises(DiceError) as error:
        seyruun.apply_reroll(evaluate([6], 1), [6], approved=True)
    assert str(error.value) == "Only a failed roll can be rerolled."
    done = seyruun.apply_reroll(evaluate([2], 1), [3], approved=True)
    with pytest.raises(DiceError) as error:
        seyruun.apply_reroll(done, [6], approved=True)
    assert str(error.value) == "This roll has already been rerolled."
    with pytest.raises(DiceError) as error:
        seyruun.apply_reroll(evaluate([2, 2], 1), [6], approved=True)
    assert str(error.value) == "The reroll needs 2 new faces."
    with pytest.raises(DiceError):
        seyruun.apply_reroll(evaluate([2], 1), [0], approved=True)


# ---------------------------------------------------------------- roll types


def test_contest_more_successes_wins():
    attacker = evaluate([6, 6, 6], 1)
    defender = evaluate([6, 2], 1)
    result = seyruun.contest(attacker, defender, 2, 4)
    assert result.winner == "attacker"
    assert not result.tie
    assert result.decided_by == "successes"
    assert result.margin == 2
    assert result.attacker is attacker
    assert result.defender is defender
    back = seyruun.contest(defender, attacker, 4, 2)
    assert back.winner == "defender"
    assert back.decided_by == "successes"
    assert back.margin == 2


def test_contest_tie_goes_to_the_defender():
    result = seyruun.contest(evaluate([6, 7], 1), evaluate([10], 1), 3, 3)
    assert result.winner == "defender"
    assert result.tie
    assert result.decided_by == "tie: defender wins"
    assert result.margin == 0
    lower = seyruun.contest(evaluate([6, 7], 1), evaluate([10], 1), 2, 3)
    assert lower.winner == "defender"
    assert lower.decided_by == "tie: defender wins"


def test_contest_tie_attacker_higher_attribute():
    result = seyruun.contest(evaluate([6, 7], 1), evaluate([10], 1), 4, 3)
    assert result.winner == "attacker"
    assert result.tie
    assert result.decided_by == "tie: attacker's higher Attribute"


def test_contest_tie_at_zero():
    result = seyruun.contest(evaluate([2], 1), evaluate([1], 1), 1, 1)
    assert result.winner == "defender"
    assert result.tie


def test_contest_refuses_bad_attributes():
    roll = evaluate([6], 1)
    with pytest.raises(DiceError) as error:
        seyruun.contest(roll, roll, 0, 3)
    assert str(error.value) == "The attacker's Attribute must be a whole number 1 or more, not 0."
    with pytest.raises(DiceError) as error:
        seyruun.contest(roll, roll, 3, 0)
    assert str(error.value) == "The defender's Attribute must be a whole number 1 or more, not 0."


def test_roll_contest_uses_the_pools_attributes():
    # Deception vs insight: Manipulation 4 + Subterfuge 2 against Wits 3 + Empathy 3.
    attacker = build_pool(4, 2)
    defender = build_pool(3, 3)
    faces = [6, 6, 2, 2, 2, 2] + [10, 2, 2, 2, 2, 2]
    result = seyruun.roll_contest(attacker, defender, FixedFaces(faces))
    assert result.attacker.successes == 2
    assert result.defender.successes == 2
    assert result.winner == "attacker"
    assert result.decided_by == "tie: attacker's higher Attribute"
    assert result.attacker.difficulty == 1
    assert result.attacker.dice == (6, 6, 2, 2, 2, 2)
    assert result.defender.dice == (10, 2, 2, 2, 2, 2)
    source = FixedFaces([10, 2, 2, 2, 2, 2] + [6, 6, 2, 2, 2, 2])
    swapped = seyruun.roll_contest(defender, attacker, source)
    assert swapped.winner == "defender"
    assert swapped.defender.dice == (6, 6, 2, 2, 2, 2)
    assert source.remaining == []


def test_team_highest_pool_rolls_plus_one_per_assistant():
    pools = [build_pool(2, 2), build_pool(3, 3), build_pool(2, 1)]
    leader, pool = seyruun.team_pool(pools)
    assert leader == 1
    assert pool.assistants == 2
    assert pool.total == 8
    assert pool.attribute == 3


def test_team_first_listed_leads_on_equal_pools():
    leader, pool = seyruun.team_pool([build_pool(2, 2), build_pool(1, 2, bonuses=(1,)), build_pool(3, 1)])
    assert leader == 0
    assert pool.total == 6
    assert seyruun.team_pool([build_pool(1, 1), build_pool(2, 2), build_pool(3, 1)])[0] == 1


def test_team_assistance_shares_the_bonus_cap():
    leader, pool = seyruun.team_pool([build_pool(3, 3, bonuses=(4,)), build_pool(1), build_pool(1), build_pool(1)])
    assert leader == 0
    assert pool.bonus == 5
    assert pool.bonus_cut == 2
    assert pool.total == 11


def test_team_keeps_existing_assistants():
    _, pool = seyruun.team_pool([build_pool(3, 3, assistants=1), build_pool(1)])
    assert pool.assistants == 2
    assert pool.total == 8


def test_team_needs_two():
    with pytest.raises(DiceError) as error:
        seyruun.team_pool([build_pool(3, 3)])
    assert str(error.value) == "A team roll needs at least two characters."
    assert seyruun.team_pool(iter([build_pool(3, 3), build_pool(1)]))[1].total == 7


def test_resisted_power_beats_resistance():
    # Charisma + Intimidation vs Willpower + Resolve (a worked example of the rules).
    power = evaluate([6, 7, 10], 1)
    resistance = evaluate([6, 2], 1)
    result = seyruun.resisted(power, resistance)
    assert result.takes_effect
    assert result.net == 3
    assert result.power is power
    assert result.resistance is resistance


def test_resisted_tie_holds():
    result = seyruun.resisted(evaluate([6], 1), evaluate([7], 1))
    assert not result.takes_effect
    assert result.net == 0
    assert seyruun.resisted(evaluate([6], 1), evaluate([10], 1)).net == -1


def test_roll_resisted():
    result = seyruun.roll_resisted(build_pool(3, 2), build_pool(2, 1), FixedFaces([6, 6, 6, 2, 2, 10, 2, 2]))
    assert result.power.dice == (6, 6, 6, 2, 2)
    assert result.resistance.dice == (10, 2, 2)
    assert result.net == 1
    assert result.takes_effect


def test_willpower_maximum():
    assert seyruun.willpower_max(3, 2) == 5
    assert seyruun.willpower_max(1, 1) == 2
    with pytest.raises(DiceError) as error:
        seyruun.willpower_max(0, 2)
    assert str(error.value) == "Composure must be a whole number 1 or more, not 0."
    with pytest.raises(DiceError) as error:
        seyruun.willpower_max(2, 0)
    assert str(error.value) == "Resolve must be a whole number 1 or more, not 0."


# ---------------------------------------------------------------- exact odds


def icepool_sum(n):
    """icepool, independently: each die a vector (successes, is a 1, is a 10), n of them summed."""
    die = icepool.d10.map(lambda f: icepool.Vector((2 if f == 10 else 1 if f >= 6 else 0, int(f == 1), int(f == 10))))
    return n @ die


def icepool_figures(total, difficulty):
    table = total.map(lambda v: (v[0] >= difficulty, v[0] == 0 and v[1] > 0, v[2] >= 2))
    win, botch, enhanced = (table.marginals[i].probability(True) for i in range(3))
    successes = total.marginals[0]
    dist = {s: successes.probability(s) for s in successes.outcomes()}
    return win, botch, enhanced, dist


@pytest.mark.parametrize("n", range(1, 11))
def test_odds_equal_icepool(n):
    total = icepool_sum(n)
    for difficulty in (1, 2, 3, 4, 5, 6, 9, 12, 20):
        figures = odds(n, difficulty)
        win, botch, enhanced, dist = icepool_figures(total, difficulty)
        assert figures["win"] == win
        assert figures["botch"] == botch
        assert figures["enhanced_critical"] == enhanced
        assert figures["failure"] == 1 - win - botch
        assert {s: p for s, p in figures["distribution"].items() if p} == dist
        assert figures["expected_successes"] == Fraction(6 * n, 10)
        assert all(isinstance(figures[k], Fraction) for k in ("win", "botch", "failure", "enhanced_critical"))


def test_odds_by_hand():
    # One die: 6-9 and 10 win at 1; only 10 at 2; a 1 botches.
    assert odds(1, 1)["win"] == Fraction(5, 10)
    assert odds(1, 2)["win"] == Fraction(1, 10)
    assert odds(1, 3)["win"] == 0
    assert odds(1, 1)["botch"] == Fraction(1, 10)
    # Two dice: botch = (5/10)^2 - (4/10)^2 = 9/100; enhanced = 1/100.
    assert odds(2, 1)["botch"] == Fraction(9, 100)
    assert odds(2, 1)["enhanced_critical"] == Fraction(1, 100)
    assert odds(2, 4)["win"] == Fraction(1, 100)
    assert odds(3, 1)["enhanced_critical"] == Fraction(28, 1000)
    assert odds(1, 1)["expected_successes"] == Fraction(6, 10)
    assert seyruun.distribution(2) == {
        0: Fraction(25, 100),
        1: Fraction(40, 100),
        2: Fraction(26, 100),
        3: Fraction(8, 100),
        4: Fraction(1, 100),
    }


@pytest.mark.parametrize("n", range(11))
def test_count_tables(n):
    # The counted tables against icepool's sum of successes, as whole numbers of sequences.
    successes = n @ icepool.d10.map(lambda f: 2 if f == 10 else 1 if f >= 6 else 0) if n else None
    expected = {0: 1} if n == 0 else {s: successes.probability(s) * 10**n for s in successes.outcomes()}
    assert seyruun._count(n) == expected
    assert seyruun._TABLES[n] == expected
    assert len(seyruun._TABLES) == 11


def test_odds_by_enumeration():
    # Every face sequence of 3 dice, judged by evaluate itself.
    for difficulty in (1, 2, 4, 6, 7):
        wins = botches = crits = 0
        for faces in itertools.product(range(1, 11), repeat=3):
            result = evaluate(faces, difficulty)
            wins += result.win
            botches += result.botch
            crits += result.enhanced_critical
        figures = odds(3, difficulty)
        assert figures["win"] == Fraction(wins, 1000)
        assert figures["botch"] == Fraction(botches, 1000)
        assert figures["enhanced_critical"] == Fraction(crits, 1000)


@pytest.mark.parametrize("n", list(range(-3, 11)) + [11, 20, 50])
def test_distributions_sum_to_one(n):
    dist = seyruun.distribution(n)
    assert sum(dist.values()) == 1
    assert list(dist) == sorted(dist)
    assert all(p > 0 for p in dist.values())


def test_distribution_keys():
    assert list(seyruun.distribution(10)) == list(range(21))
    assert list(seyruun.distribution(1)) == [0, 1, 2]


def test_odds_after_the_cap():
    assert odds(15, 4) == odds(10, 4)
    assert odds(50, 20) == odds(10, 20)
    assert odds(10, 20)["win"] == Fraction(1, 10**10)
    assert odds(11, 1)["botch"] == odds(10, 1)["botch"]


def test_odds_chance_die():
    for dice in (0, -1, -7):
        figures = odds(dice, 1)
        assert figures["win"] == Fraction(1, 10)
        assert figures["botch"] == Fraction(1, 10)
        assert figures["failure"] == Fraction(8, 10)
        assert figures["enhanced_critical"] == 0
        assert figures["expected_successes"] == Fraction(1, 10)
        assert figures["distribution"] == {0: Fraction(9, 10), 1: Fraction(1, 10)}
    assert odds(0, 2)["win"] == 0
    assert odds(0, 2)["botch"] == Fraction(1, 10)
    assert odds(0, 2)["failure"] == Fraction(9, 10)


def test_odds_chance_die_by_enumeration():
    for difficulty in (1, 2):
        results = [evaluate_chance(face, difficulty) for face in range(1, 11)]
        figures = odds(0, difficulty)
        assert figures["win"] == Fraction(sum(r.win for r in results), 10)
        assert figures["botch"] == Fraction(sum(r.botch for r in results), 10)


def test_odds_refusals():
    with pytest.raises(DiceError) as error:
        odds(51, 1)
    assert str(error.value) == "That pool is 51 dice; pools are limited to 50."
    with pytest.raises(DiceError):
        odds(5, 0)
    with pytest.raises(DiceError):
        odds(5, 21)
    with pytest.raises(DiceError):
        odds(2.0, 1)
    with pytest.raises(DiceError):
        seyruun.distribution(51)


def test_odds_of_a_built_pool_size():
    pool = build_pool(3, 3, bonuses=(1,))
    assert odds(pool.total, 2) == odds(7, 2)


# ---------------------------------------------------------------- an independent evaluator


def independent(faces, difficulty):
    """Written apart from the module: a lookup per face, sorted counts."""
    points = {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 1, 7: 1, 8: 1, 9: 1, 10: 2}
    ordered = sorted(faces, reverse=True)
    total = 0
    for face in ordered:
        total += points[face]
    lowest = ordered[-1]
    botch = total == 0 and lowest == 1
    crit = len([face for face in ordered if face > 9]) > 1
    if total < difficulty:
        label = "botch" if botch else "failure"
    else:
        label = (
            ["just enough", "solid", "solid", "heroic", "heroic"][total - 1] if total < 6 else "supernatural brilliance"
        )
    return total, total >= difficulty, botch, crit, label


def test_twenty_thousand_random_cases():
    rng = random.Random(20240509)
    for _ in range(20_000):
        n = rng.randint(1, 10)
        faces = [rng.randint(1, 10) for _ in range(n)]
        difficulty = rng.randint(1, 20)
        result = evaluate(faces, difficulty)
        assert (
            result.successes,
            result.win,
            result.botch,
            result.enhanced_critical,
            result.outcome_label,
        ) == independent(faces, difficulty), faces


# ---------------------------------------------------------------- properties

FACES = st.lists(st.integers(1, 10), min_size=1, max_size=10)


@settings(max_examples=200, deadline=None)
@given(FACES, st.integers(1, 20))
def test_evaluate_never_raises_in_range(faces, difficulty):
    result = evaluate(faces, difficulty)
    assert not (result.win and result.botch)
    assert result.win == (result.successes >= difficulty)
    assert result.outcome in seyruun.OUTCOME_LABELS


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10), st.integers(1, 20))
def test_chance_never_raises_in_range(face, difficulty):
    result = evaluate_chance(face, difficulty)
    assert result.successes in (0, 1)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.tuples(st.lists(st.integers(1, 10), min_size=11, max_size=15), st.integers(1, 20)),
        st.tuples(st.just([]), st.integers(1, 20)),
        st.tuples(FACES, st.one_of(st.integers(max_value=0), st.integers(min_value=21))),
        st.tuples(
            st.lists(st.one_of(st.integers(max_value=0), st.integers(min_value=11)), min_size=1, max_size=5),
            st.integers(1, 20),
        ),
        st.tuples(FACES, st.sampled_from([1.0, True, None, "3"])),
    )
)
def test_evaluate_refuses_out_of_range(case):
    faces, difficulty = case
    with pytest.raises(DiceError):
        evaluate(faces, difficulty)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 10),
    st.one_of(st.none(), st.integers(0, 10)),
    st.lists(st.integers(0, 6), max_size=3),
    st.lists(st.integers(-5, 5), max_size=3),
    st.booleans(),
    st.integers(0, 3),
    st.sampled_from([None, "light", "moderate", "severe", "crippled"]),
    st.integers(0, 4),
    st.integers(1, 20),
)
def test_build_and_roll_never_raise_in_range(
    attribute, skill, bonuses, penalties, willpower, extra, wound, assistants, difficulty
):
    pool = build_pool(attribute, skill, bonuses, penalties, willpower, extra, wound, assistants)
    assert 1 <= pool.dice <= 10
    assert pool.bonus <= 5
    result = seyruun.roll(pool, difficulty, random.Random(attribute))
    assert len(result.dice) == pool.dice
    assert result.chance == (pool.total <= 0)
    figures = odds(pool.total, difficulty)
    assert figures["win"] + figures["botch"] + figures["failure"] == 1


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.integers(min_value=51), st.floats(), st.booleans()), st.integers(1, 20))
def test_odds_and_roll_refuse_out_of_range(dice, difficulty):
    with pytest.raises(DiceError):
        odds(dice, difficulty)
    with pytest.raises(DiceError):
        seyruun.roll(dice, difficulty, FixedFaces([]))

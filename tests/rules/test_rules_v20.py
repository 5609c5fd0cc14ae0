"""V20 rules (docs/v20.md) with explicit faces, the rules' examples included. Pure."""

import random

import pytest

from storyteller_dice.rules import v20
from storyteller_dice.rules.v20 import health as v20_health
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces, roll_faces
from storyteller_dice.rules.v20.health import AGGRAVATED, BASHING, LETHAL, Damaged, HealingCost, HealthTrack


def ev(faces, difficulty=6, specialty=False, willpower=False):
    return v20.evaluate(faces, difficulty, specialty=specialty, willpower=willpower)


def test_constants():
    assert v20.KEY == "v20"
    assert v20.TITLE == "Classic Storyteller (V20)"
    assert (v20.MIN_DIFFICULTY, v20.MAX_DIFFICULTY, v20.DEFAULT_DIFFICULTY) == (2, 10, 6)
    assert v20.LEVELS == ("failure", "marginal", "moderate", "complete", "exceptional", "phenomenal")
    assert v20.ABILITY_CATEGORIES == ("talent", "skill", "knowledge")


# ---------------------------------------------------------------- counting and botches


@pytest.mark.parametrize(
    "faces, raw, ones, net, botch",
    [
        ([1, 1, 3, 5], 0, 2, 0, True),  # seed: zero successes, two uncancelled 1s
        ([1, 1, 7], 1, 2, 0, True),  # so is 1,1,7 (docs/v20.md)
        ([6, 1, 1], 1, 2, 0, True),  # the known bug elsewhere: both must botch
        ([3, 1, 1], 0, 2, 0, True),
        ([1], 0, 1, 0, True),
        ([6, 1], 1, 1, 0, False),  # cancelled exactly: plain failure, not a botch
        ([7, 8, 1, 1], 2, 2, 0, False),
        ([2, 3, 4, 5], 0, 0, 0, False),  # simple failure
        ([6], 1, 0, 1, False),
        ([5], 0, 0, 0, False),  # one below the difficulty
        ([6, 7, 8, 9, 10], 5, 0, 5, False),
        ([10, 10, 1], 2, 1, 1, False),  # without a Specialty a 10 is one success
        ([9, 9, 9, 1], 3, 1, 2, False),
    ],
)
def test_counting(faces, raw, ones, net, botch):
    result = ev(faces)
    assert (result.raw_successes, result.ones, result.successes, result.botch) == (raw, ones, net, botch)
    assert result.dice == tuple(faces)
    assert result.difficulty == 6
    assert result.specialty is False and result.willpower is False and result.automatic is False


def test_every_difficulty_boundary():
    for difficulty in range(2, 11):
        assert ev([difficulty], difficulty).successes == 1
        assert ev([difficulty - 1], difficulty).successes == 0
        assert ev([difficulty - 1], difficulty).botch is (difficulty == 2)  # a 1 below 2
    assert ev([10], 10).successes == 1
    assert ev([9], 10).successes == 0
    assert ev([2], 2).successes == 1
    assert ev([1], 2).botch is True


def test_specialty():
    assert ev([10], specialty=True).successes == 2
    assert ev([10], specialty=True).raw_successes == 2
    assert ev([10, 1], specialty=True).successes == 1  # 2 - 1
    assert ev([10, 1], specialty=True).botch is False
    assert ev([10, 1, 1], specialty=True).successes == 0
    assert ev([10, 1, 1], specialty=True).botch is False  # 2 successes, 2 ones: not a botch
    assert ev([10, 1, 1, 1], specialty=True).botch is True  # 2 successes, 3 ones
    assert ev([10, 10, 9, 1], specialty=True).successes == 4
    assert ev([9, 8, 1], specialty=True).successes == 1  # only 10s double
    assert ev([10, 10, 1], specialty=False).successes == 1
    assert ev([10], 10, specialty=True).successes == 2
    assert ev([10, 9], 10, specialty=True).successes == 2


def test_evaluate_defaults():
    # without the switches: no Specialty, no Willpower
    assert v20.evaluate([10, 1], 6).successes == 0
    assert v20.evaluate([1], 6).botch is True
    result = v20.evaluate([10, 10], 6)
    assert (result.successes, result.specialty, result.willpower) == (2, False, False)


def test_willpower():
    result = ev([1, 1, 3, 5], willpower=True)  # would botch
    assert (result.successes, result.botch, result.level) == (1, False, "marginal")
    assert result.willpower is True
    # added after cancellation: the 1s cannot eat the willpower success
    assert ev([7, 1, 1, 1], willpower=True).successes == 1
    assert ev([7, 8, 1], willpower=True).successes == 2
    assert ev([7, 8], willpower=True).successes == 3
    assert ev([2], willpower=True).successes == 1
    assert ev([10, 1], specialty=True, willpower=True).successes == 2
    for faces in ([1], [1, 1, 1], [6, 1, 1], [1] * 50):
        assert ev(faces, willpower=True).botch is False


@pytest.mark.parametrize(
    "faces, level, label",
    [
        ([2], "failure", "failure"),
        ([6], "marginal", "marginal success"),
        ([6, 6], "moderate", "moderate success"),
        ([6, 6, 6], "complete", "complete success"),
        ([6, 6, 6, 6], "exceptional", "exceptional success"),
        ([6, 6, 6, 6, 6], "phenomenal", "phenomenal success"),
        ([6] * 9, "phenomenal", "phenomenal success"),
        ([1], "failure", "botch"),
    ],
)
def test_levels(faces, level, label):
    assert ev(faces).level == level
    assert ev(faces).label == label


def test_level_for():
    assert [v20.level_for(n) for n in range(8)] == list(v20.LEVELS) + ["phenomenal", "phenomenal"]
    for bad in (-1, 1.0, True, None):
        with pytest.raises(DiceError, match="Net successes are 0 or more"):
            v20.level_for(bad)


def test_result_properties():
    result = ev([7, 1, 1, 3])
    assert (result.cancelled, result.uncancelled_ones, result.success, result.pool) == (1, 1, False, 4)
    result = ev([7, 8, 9, 1])
    assert (result.cancelled, result.uncancelled_ones, result.success, result.pool) == (1, 0, True, 4)
    result = ev([7, 8])
    assert (result.cancelled, result.uncancelled_ones, result.success) == (0, 0, True)
    with pytest.raises(AttributeError):
        result.successes = 5  # frozen


# ---------------------------------------------------------------- marks (which 1s cancelled which successes)


@pytest.mark.parametrize(
    "faces, difficulty, specialty, marks",
    [
        ([9, 7, 1], 6, False, ("success", "cancelled", "cancels")),  # the weakest success goes
        ([7, 7, 1], 6, False, ("cancelled", "success", "cancels")),  # ties: the earlier die
        ([1, 6, 1, 1, 5], 6, False, ("cancels", "cancelled", "one", "one", "fail")),
        ([10, 8, 1], 6, True, ("double", "cancelled", "cancels")),  # plain before Specialty 10s
        ([10, 8, 1, 1], 6, True, ("half", "cancelled", "cancels", "cancels")),
        ([10, 1], 6, True, ("half", "cancels")),
        ([10, 10, 1, 1, 1], 6, True, ("cancelled", "half", "cancels", "cancels", "cancels")),
        ([10, 1, 1, 1], 6, True, ("cancelled", "cancels", "cancels", "one")),
        ([10, 9, 1], 6, False, ("success", "cancelled", "cancels")),  # no Specialty: a 10 is plain
        ([10, 6, 1], 6, False, ("success", "cancelled", "cancels")),
        ([6, 10, 1], 6, False, ("cancelled", "success", "cancels")),  # the lowest face goes
        ([8, 6, 1], 6, False, ("success", "cancelled", "cancels")),  # lowest face, not earliest
        ([10, 10], 6, True, ("double", "double")),
        ([10, 10], 6, False, ("success", "success")),
        ([5, 4, 3, 2], 6, False, ("fail",) * 4),
        ([9, 8], 9, False, ("success", "fail")),
        ([3, 1], 3, False, ("cancelled", "cancels")),
    ],
)
def test_marks(faces, difficulty, specialty, marks):
    assert ev(faces, difficulty, specialty).marks == marks


def test_mark_constants():
    assert (v20.SUCCESS, v20.DOUBLE, v20.HALF, v20.CANCELLED, v20.CANCELS, v20.ONE, v20.FAIL) == (
        "success", "double", "half", "cancelled", "cancels", "one", "fail",
    )


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "faces, difficulty, message",
    [
        ([], 6, "A roll needs at least one die."),
        ([0], 6, "Die faces are whole numbers from 1 to 10, not 0."),
        ([11], 6, "Die faces are whole numbers from 1 to 10, not 11."),
        ([5.0], 6, "Die faces are whole numbers from 1 to 10, not 5.0."),
        ([True], 6, "Die faces are whole numbers from 1 to 10, not True."),
        ([6] * 51, 6, "That is 51 dice; pools are limited to 50."),
        ([6], 1, "Difficulty is a number from 2 to 10, not 1."),
        ([6], 11, "Difficulty is a number from 2 to 10, not 11."),
        ([6], "6", "Difficulty is a number from 2 to 10, not '6'."),
        ([6], True, "Difficulty is a number from 2 to 10, not True."),
    ],
)
def test_evaluate_refuses(faces, difficulty, message):
    with pytest.raises(DiceError) as caught:
        v20.evaluate(faces, difficulty)
    assert str(caught.value) == message


def test_flags_must_be_bool():
    with pytest.raises(DiceError, match="^Specialty is on or off \\(True or False\\), not 1.$"):
        v20.evaluate([6], 6, specialty=1)
    with pytest.raises(DiceError, match="^Willpower is on or off \\(True or False\\), not 'yes'.$"):
        v20.evaluate([6], 6, willpower="yes")
    assert ev([6] * 50).successes == 50  # 50 dice are allowed
    assert ev([6], 2).successes == 1 and ev([6], 10).successes == 0


# ---------------------------------------------------------------- rolling


def test_roll_uses_the_given_source():
    result = v20.roll(4, 6, rng=FixedFaces([1, 1, 3, 5]))
    assert result.dice == (1, 1, 3, 5) and result.botch is True
    result = v20.roll(2, 7, specialty=True, willpower=True, rng=FixedFaces([10, 1]))
    assert (result.successes, result.difficulty, result.specialty, result.willpower) == (2, 7, True, True)
    assert v20.roll(1, rng=FixedFaces([6])).difficulty == 6


def test_roll_seeded_matches_roll_faces():
    faces = roll_faces(10, random.Random(7))
    assert v20.roll(10, 6, rng=random.Random(7)).dice == faces
    assert len(v20.roll(50, 6).dice) == 50  # the default source


@pytest.mark.parametrize(
    "pool, difficulty, message",
    [
        (0, 6, "A pool of 0 dice cannot be attempted: no dice are left to roll."),
        (-2, 6, "A pool of -2 dice cannot be attempted: no dice are left to roll."),
        (51, 6, "That pool is 51 dice; pools are limited to 50."),
        (2.0, 6, "A pool is a whole number of dice, not 2.0."),
        (True, 6, "A pool is a whole number of dice, not True."),
        (3, 11, "Difficulty is a number from 2 to 10, not 11."),
        (3, 1, "Difficulty is a number from 2 to 10, not 1."),
    ],
)
def test_roll_refuses(pool, difficulty, message):
    rng = FixedFaces([6] * 60)
    with pytest.raises(DiceError) as caught:
        v20.roll(pool, difficulty, rng=rng)
    assert str(caught.value) == message
    assert len(rng.remaining) == 60  # nothing rolled


def test_roll_refuses_flags_before_rolling():
    rng = FixedFaces([6])
    with pytest.raises(DiceError, match="^Specialty is on or off"):
        v20.roll(1, 6, specialty=None, rng=rng)
    with pytest.raises(DiceError, match="^Willpower is on or off"):
        v20.roll(1, 6, willpower=None, rng=rng)
    assert rng.remaining == [6]
    assert v20.roll(1, 2, rng=FixedFaces([2])).successes == 1
    assert v20.roll(1, 10, rng=FixedFaces([10])).successes == 1
    assert v20.roll(50, 6, rng=FixedFaces([6] * 50)).successes == 50


# ---------------------------------------------------------------- difficulty clamping


def test_clamp_difficulty():
    assert v20.clamp_difficulty(6) == 6
    assert v20.clamp_difficulty(6, 2) == 8
    assert v20.clamp_difficulty(6, -3) == 3
    assert v20.clamp_difficulty(9, 3) == 10
    assert v20.clamp_difficulty(10, 1) == 10
    assert v20.clamp_difficulty(4, -5) == 2
    assert v20.clamp_difficulty(2, -1) == 2
    assert v20.clamp_difficulty(3, -1) == 2
    assert v20.clamp_difficulty(9, 1) == 10
    assert v20.clamp_difficulty(2) == 2 and v20.clamp_difficulty(10) == 10
    with pytest.raises(DiceError, match="^Difficulty is a number from 2 to 10, not 11.$"):
        v20.clamp_difficulty(11, -3)
    with pytest.raises(DiceError, match="^A difficulty modifier is a whole number, not 1.5.$"):
        v20.clamp_difficulty(6, 1.5)
    with pytest.raises(DiceError, match="^A difficulty modifier is a whole number, not True.$"):
        v20.clamp_difficulty(6, True)


# ---------------------------------------------------------------- automatic success


def test_automatic_success():
    result = v20.automatic_success(6, 6)
    assert result == v20.V20Result(
        dice=(), difficulty=6, specialty=False, willpower=False, raw_successes=1, ones=0,
        successes=1, botch=False, level="marginal", marks=(), automatic=True,
    )
    assert result.label == "marginal success" and result.success
    assert v20.automatic_success(9, 6).successes == 1  # never more than one
    assert v20.automatic_success(6).difficulty == 6
    assert v20.automatic_success(2, 2).automatic is True
    assert v20.automatic_success(10, 10, combat=False).successes == 1


def test_automatic_success_refused():
    with pytest.raises(DiceError) as caught:
        v20.automatic_success(5, 6)
    assert str(caught.value) == "Automatic success needs a pool of at least the difficulty: 5 dice against difficulty 6."
    with pytest.raises(DiceError) as caught:
        v20.automatic_success(8, 6, combat=True)
    assert str(caught.value) == "Automatic success is not allowed in combat: roll the dice."
    with pytest.raises(DiceError, match="^Combat is on or off"):
        v20.automatic_success(8, 6, combat=1)
    with pytest.raises(DiceError, match="^A pool of 0 dice"):
        v20.automatic_success(0, 2)
    with pytest.raises(DiceError, match="^Difficulty is a number"):
        v20.automatic_success(20, 11)


# ---------------------------------------------------------------- defaulting


def test_default_pool_trained():
    assert v20.default_pool(3, 2, "talent") == v20.Defaulted(5, 6, False, "talent")
    assert v20.default_pool(3, 2, "Skill", 7) == v20.Defaulted(5, 7, False, "skill")
    assert v20.default_pool(2, 1, "KNOWLEDGE", 8) == v20.Defaulted(3, 8, False, "knowledge")


def test_default_pool_untrained():
    assert v20.default_pool(3, 0, "talent") == v20.Defaulted(3, 6, True, "talent")  # no penalty
    assert v20.default_pool(3, 0, "talent", 9) == v20.Defaulted(3, 9, True, "talent")
    assert v20.default_pool(3, 0, "skill") == v20.Defaulted(3, 7, True, "skill")  # +1 difficulty
    assert v20.default_pool(4, 0, "skill", 10) == v20.Defaulted(4, 10, True, "skill")  # stops at 10
    assert v20.default_pool(0, 0, "talent") == v20.Defaulted(0, 6, True, "talent")
    with pytest.raises(DiceError) as caught:
        v20.default_pool(4, 0, "knowledge", name="Occult")
    assert str(caught.value) == "You have no dots in the Knowledge Occult: a Knowledge cannot be attempted untrained."
    with pytest.raises(DiceError) as caught:
        v20.default_pool(4, 0, "Knowledge")
    assert str(caught.value) == "You have no dots in that Knowledge: a Knowledge cannot be attempted untrained."


@pytest.mark.parametrize(
    "args, message",
    [
        ((-1, 2, "talent"), "An Attribute is a rating of 0 or more, not -1."),
        ((2.5, 2, "talent"), "An Attribute is a rating of 0 or more, not 2.5."),
        ((2, -1, "talent"), "An Ability is a rating of 0 or more, not -1."),
        ((2, True, "talent"), "An Ability is a rating of 0 or more, not True."),
        ((2, 1, "background"), "An Ability is a Talent, a Skill or a Knowledge, not 'background'."),
        ((2, 1, None), "An Ability is a Talent, a Skill or a Knowledge, not None."),
        ((2, 1, "talent", 11), "Difficulty is a number from 2 to 10, not 11."),
        ((2, 0, "skill", 1), "Difficulty is a number from 2 to 10, not 1."),
    ],
)
def test_default_pool_refuses(args, message):
    with pytest.raises(DiceError) as caught:
        v20.default_pool(*args)
    assert str(caught.value) == message


# ---------------------------------------------------------------- multiple actions


def test_split_seed_example():
    # Pistol: Dex 2 + Firearms 1 = 3; Dominate: Man 4 + Intimidation 2 = 6. Smallest 3: 2/1 or 1/2.
    assert v20.split_actions([3, 6]) == (2, 1)
    assert v20.split_actions([3, 6], split=[1, 2]) == (1, 2)
    assert v20.split_actions([3, 6], split=[2, 1]) == (2, 1)
    assert v20.split_actions([6, 3]) == (2, 1)


def test_split_even_earlier_first():
    assert v20.even_split(7, 3) == (3, 2, 2)
    assert v20.even_split(8, 3) == (3, 3, 2)
    assert v20.even_split(6, 3) == (2, 2, 2)
    assert v20.even_split(5, 1) == (5,)
    assert v20.split_actions([9, 7, 8]) == (3, 2, 2)
    assert v20.split_actions([5]) == (5,)  # one action: no split
    assert v20.split_actions([2, 2]) == (1, 1)
    assert v20.split_actions((4, 4, 4, 4)) == (1, 1, 1, 1)


def test_split_celerity_keeps_full_pool():
    assert v20.split_actions([3, 6, 5], celerity=[2]) == (2, 1, 5)
    assert v20.split_actions([6, 2], celerity={1}) == (6, 2)  # the Celerity pool is not the smallest
    assert v20.split_actions([6, 4, 2], celerity=(2,), split=(3, 1)) == (3, 1, 2)
    assert v20.split_actions([5, 7, 7], celerity=(1, 2)) == (5, 7, 7)


@pytest.mark.parametrize(
    "pools, split, celerity, message",
    [
        ([], None, (), "Declare at least one action."),
        ([3, 0], None, (), "A pool of 0 dice cannot be attempted: no dice are left to roll."),
        ([3, 51], None, (), "That pool is 51 dice; pools are limited to 50."),
        ([2, 5, 5], None, (), "The smallest pool, 2 dice, cannot give each of 3 actions a die: declare fewer actions."),
        ([3, 6], [3, 0], (), "Each action in a split gets at least 1 die."),
        ([3, 6], [2, 2], (), "The split must add up to the smallest pool, 3 dice, not 4."),
        ([3, 6], [1, 1], (), "The split must add up to the smallest pool, 3 dice, not 2."),
        ([3, 6], [3], (), "Give a number of dice for each of the 2 split actions."),
        ([3, 6], [1, 1, 1], (), "Give a number of dice for each of the 2 split actions."),
        ([3, 6], [1.5, 1.5], (), "Each action in a split gets at least 1 die."),
        ([3, 6], [True, 2], (), "Each action in a split gets at least 1 die."),
        ([3, 6], None, (2,), "There is no action 2 to take with Celerity."),
        ([3, 6], None, (-1,), "There is no action -1 to take with Celerity."),
        ([3, 6], None, ("1",), "There is no action '1' to take with Celerity."),
        ([3, 6], None, (0, 1), "Celerity gives extra actions: at least one action must be an ordinary one."),
    ],
)
def test_split_refuses(pools, split, celerity, message):
    with pytest.raises(DiceError) as caught:
        v20.split_actions(pools, split=split, celerity=celerity)
    assert str(caught.value) == message


def test_split_boundaries():
    assert v20.split_actions([3, 3, 3]) == (1, 1, 1)  # as many actions as dice
    assert v20.split_actions([3, 6], celerity=[0]) == (3, 6)
    assert v20.split_actions([3, 6], celerity=[1]) == (3, 6)


# ---------------------------------------------------------------- resisted actions


def test_resisted():
    liar, watcher = ev([7, 8, 9], 7), ev([7, 2], 7)
    outcome = v20.resist(liar, watcher)
    assert outcome == v20.Resisted(liar, watcher, "first", 2)
    outcome = v20.resist(watcher, liar)
    assert outcome == v20.Resisted(watcher, liar, "second", 2)
    left, right = ev([7, 9], 7), ev([8, 8, 1, 10], 7)
    assert v20.resist(left, right) == v20.Resisted(left, right, None, 0)
    nothing = v20.resist(ev([1], 7), ev([3], 7))  # a botch is a net of 0
    assert (nothing.winner, nothing.margin) == (None, 0)
    one = v20.resist(ev([7], 7), ev([1], 7))
    assert (one.winner, one.margin) == ("first", 1)


# ---------------------------------------------------------------- retry penalty


def test_retry_difficulty():
    assert v20.retry_difficulty(6, 0) == 6
    assert v20.retry_difficulty(6, 1) == 7
    assert v20.retry_difficulty(6, 3) == 9
    assert v20.retry_difficulty(8, 5) == 10  # stops at 10
    assert v20.retry_difficulty(6, 3, apply=False) == 6  # the Storyteller's switch
    with pytest.raises(DiceError, match="^Earlier failures are 0 or more, not -1.$"):
        v20.retry_difficulty(6, -1)
    with pytest.raises(DiceError, match="^Earlier failures are 0 or more, not 1.0.$"):
        v20.retry_difficulty(6, 1.0)
    with pytest.raises(DiceError, match="^Earlier failures are 0 or more, not False.$"):
        v20.retry_difficulty(6, False)
    with pytest.raises(DiceError, match="^The retry penalty is on or off"):
        v20.retry_difficulty(6, 1, apply=1)
    with pytest.raises(DiceError, match="^Difficulty is a number"):
        v20.retry_difficulty(12, 0)


def test_failures_after():
    assert v20.failures_after(0, ev([3])) == 1
    assert v20.failures_after(2, ev([1])) == 3  # a botch is a failed attempt
    assert v20.failures_after(2, ev([6, 1])) == 3
    assert v20.failures_after(4, ev([6])) == 0
    assert v20.failures_after(4, ev([1], willpower=True)) == 0


# ---------------------------------------------------------------- health track


def test_health_levels_table():
    assert v20_health.HEALTH_LEVELS == (
        ("Bruised", 0, "normal"),
        ("Hurt", -1, "normal"),
        ("Injured", -1, "half run speed"),
        ("Wounded", -2, "walk only"),
        ("Mauled", -2, "hobble 3 yards a turn"),
        ("Crippled", -5, "crawl 1 yard a turn"),
        ("Incapacitated", None, "none"),
    )
    assert v20_health.DAMAGE_TYPES == ("bashing", "lethal", "aggravated")
    assert (BASHING, LETHAL, AGGRAVATED) == ("bashing", "lethal", "aggravated")
    assert (v20_health.BOXES, v20_health.HEALTHY, v20_health.AGGRAVATED_BLOOD) == (7, "Healthy", 5)


@pytest.mark.parametrize(
    "marked, level, penalty, movement",
    [
        (0, "Healthy", 0, "normal"),
        (1, "Bruised", 0, "normal"),
        (2, "Hurt", -1, "normal"),
        (3, "Injured", -1, "half run speed"),
        (4, "Wounded", -2, "walk only"),
        (5, "Mauled", -2, "hobble 3 yards a turn"),
        (6, "Crippled", -5, "crawl 1 yard a turn"),
        (7, "Incapacitated", None, "none"),
    ],
)
def test_health_penalties(marked, level, penalty, movement):
    track = HealthTrack(lethal=marked)
    assert (track.marked, track.level, track.penalty, track.movement) == (marked, level, penalty, movement)
    assert track.incapacitated is (marked == 7)


def test_boxes_marked_aggravated_lethal_bashing():
    track = HealthTrack(bashing=2, lethal=1, aggravated=1)
    assert track.boxes == (AGGRAVATED, LETHAL, BASHING, BASHING, None, None, None)
    assert HealthTrack().boxes == (None,) * 7
    assert HealthTrack(bashing=7).boxes == (BASHING,) * 7
    # marking order does not depend on the order the damage came in
    track = v20_health.damage(HealthTrack(), BASHING, 2).track
    track = v20_health.damage(track, AGGRAVATED).track
    track = v20_health.damage(track, LETHAL).track
    assert track.boxes == (AGGRAVATED, LETHAL, BASHING, BASHING, None, None, None)
    assert (track.bashing, track.lethal, track.aggravated) == (2, 1, 1)
    assert (track.count(BASHING), track.count(LETHAL), track.count(AGGRAVATED)) == (2, 1, 1)


def test_health_track_refuses():
    for counts in ({"bashing": -1}, {"lethal": 1.0}, {"aggravated": True}):
        with pytest.raises(DiceError, match="^Damage on the health track is counted in whole levels, 0 or more.$"):
            HealthTrack(**counts)
    with pytest.raises(DiceError, match="^The health track has 7 boxes.$"):
        HealthTrack(bashing=3, lethal=3, aggravated=2)
    assert HealthTrack(bashing=3, lethal=3, aggravated=1).incapacitated
    with pytest.raises(DiceError, match="^Damage is bashing, lethal or aggravated, not 'fire'.$"):
        HealthTrack().count("fire")


def test_damage_fits():
    assert v20_health.damage(HealthTrack(), LETHAL, 3) == Damaged(HealthTrack(lethal=3), 0, 0)
    assert v20_health.damage(HealthTrack(bashing=6), AGGRAVATED) == Damaged(HealthTrack(bashing=6, aggravated=1), 0, 0)
    assert v20_health.damage(HealthTrack(), BASHING) == Damaged(HealthTrack(bashing=1))


def test_damage_past_a_full_track():
    full = HealthTrack(bashing=7)
    assert v20_health.damage(full, BASHING, 2) == Damaged(HealthTrack(bashing=5, lethal=2), 2, 0)
    assert v20_health.damage(full, LETHAL) == Damaged(HealthTrack(bashing=6, lethal=1), 1, 0)
    assert v20_health.damage(full, AGGRAVATED) == Damaged(HealthTrack(bashing=6, aggravated=1), 1, 0)
    # filling, then upgrading, in one blow
    assert v20_health.damage(HealthTrack(bashing=6), BASHING, 3) == Damaged(HealthTrack(bashing=5, lethal=2), 2, 0)
    # aggravated upgrades bashing before lethal, then lethal
    mixed = HealthTrack(bashing=1, lethal=6)
    assert v20_health.damage(mixed, AGGRAVATED, 2) == Damaged(HealthTrack(lethal=5, aggravated=2), 2, 0)
    # nothing lighter to upgrade: lost
    lethal = HealthTrack(lethal=7)
    assert v20_health.damage(lethal, BASHING) == Damaged(lethal, 0, 1)
    assert v20_health.damage(lethal, LETHAL, 2) == Damaged(lethal, 0, 2)
    assert v20_health.damage(HealthTrack(lethal=1, aggravated=6), LETHAL) == Damaged(HealthTrack(lethal=1, aggravated=6), 0, 1)
    assert v20_health.damage(HealthTrack(bashing=1, lethal=6), BASHING, 2) == Damaged(HealthTrack(lethal=7), 1, 1)
    agg = HealthTrack(aggravated=7)
    assert v20_health.damage(agg, AGGRAVATED) == Damaged(agg, 0, 1)


def test_damage_refuses():
    with pytest.raises(DiceError, match="^Damage is bashing, lethal or aggravated, not 'Lethal'.$"):
        v20_health.damage(HealthTrack(), "Lethal")
    for bad in (0, -1, 1.0, True):
        with pytest.raises(DiceError, match="^A number of health levels is 1 or more, not "):
            v20_health.damage(HealthTrack(), LETHAL, bad)


def test_healing_costs():
    assert v20_health.healing_cost(BASHING) == HealingCost(blood=1, willpower=0, days=0, turns=1)
    assert v20_health.healing_cost(LETHAL, 3) == HealingCost(blood=3, turns=3)
    assert v20_health.healing_cost(LETHAL, 3, per_turn=2) == HealingCost(blood=3, turns=2)
    assert v20_health.healing_cost(BASHING, 4, per_turn=2) == HealingCost(blood=4, turns=2)
    assert v20_health.healing_cost(BASHING, 4, per_turn=4) == HealingCost(blood=4, turns=1)
    assert v20_health.healing_cost(AGGRAVATED) == HealingCost(blood=5, willpower=0, days=1, turns=0)
    assert v20_health.healing_cost(AGGRAVATED, 3) == HealingCost(blood=15, days=3)
    assert v20_health.healing_cost(AGGRAVATED, 5, same_night=True) == HealingCost(blood=25, willpower=4, days=1)
    assert v20_health.healing_cost(AGGRAVATED, 1, same_night=True) == HealingCost(blood=5, willpower=0, days=1)
    assert v20_health.healing_cost(LETHAL, 2, same_night=True) == HealingCost(blood=2, turns=2)


def test_healing_cost_refuses():
    with pytest.raises(DiceError, match="^same_night is True or False.$"):
        v20_health.healing_cost(AGGRAVATED, 1, same_night=1)
    for bad in (0, 1.0, True):
        with pytest.raises(DiceError, match="^Levels healed per turn are 1 or more, not "):
            v20_health.healing_cost(LETHAL, 1, per_turn=bad)
    with pytest.raises(DiceError, match="^A number of health levels is 1 or more, not 0.$"):
        v20_health.healing_cost(LETHAL, 0)
    with pytest.raises(DiceError, match="^Damage is bashing"):
        v20_health.healing_cost("blood", 1)


def test_heal():
    track = HealthTrack(bashing=2, lethal=2, aggravated=2)
    assert v20_health.heal(track, BASHING) == (HealthTrack(bashing=1, lethal=2, aggravated=2), HealingCost(1, turns=1))
    assert v20_health.heal(track, LETHAL, 2) == (HealthTrack(bashing=2, aggravated=2), HealingCost(2, turns=2))
    assert v20_health.heal(track, AGGRAVATED, 2, same_night=True) == (
        HealthTrack(bashing=2, lethal=2),
        HealingCost(10, willpower=1, days=1),
    )
    assert v20_health.heal(track, AGGRAVATED, 2) == (HealthTrack(bashing=2, lethal=2), HealingCost(10, days=2))
    assert v20_health.heal(track, LETHAL, 2, per_turn=2) == (HealthTrack(bashing=2, aggravated=2), HealingCost(2, turns=1))
    with pytest.raises(DiceError) as caught:
        v20_health.heal(track, AGGRAVATED, 3)
    assert str(caught.value) == "There are only 2 levels of aggravated damage to heal, not 3."
    with pytest.raises(DiceError, match="^There are only 0 levels of bashing damage to heal, not 1.$"):
        v20_health.heal(HealthTrack(lethal=3), BASHING)


def test_wounded_pool():
    assert v20_health.wounded_pool(6, HealthTrack()) == 6
    assert v20_health.wounded_pool(6, HealthTrack(bashing=1)) == 6
    assert v20_health.wounded_pool(6, HealthTrack(bashing=2)) == 5
    assert v20_health.wounded_pool(6, HealthTrack(lethal=4)) == 4
    assert v20_health.wounded_pool(4, HealthTrack(aggravated=6)) == -1  # cannot be rolled
    assert v20_health.wounded_pool(6, HealthTrack(lethal=6), ignore=True) == 6  # 1 Willpower
    with pytest.raises(DiceError, match="^An Incapacitated character cannot act.$"):
        v20_health.wounded_pool(6, HealthTrack(bashing=7))
    with pytest.raises(DiceError, match="^An Incapacitated character cannot act.$"):
        v20_health.wounded_pool(6, HealthTrack(bashing=7), ignore=True)
    with pytest.raises(DiceError, match="^A pool is a whole number of dice, not '6'.$"):
        v20_health.wounded_pool("6", HealthTrack())
    with pytest.raises(DiceError, match="^A pool is a whole number of dice, not True.$"):
        v20_health.wounded_pool(True, HealthTrack())
    with pytest.raises(DiceError, match="^ignore is True or False.$"):
        v20_health.wounded_pool(6, HealthTrack(), ignore=1)
    with pytest.raises(DiceError, match="^A pool of -1 dice cannot be attempted"):
        v20.roll(v20_health.wounded_pool(4, HealthTrack(aggravated=6)), 6)

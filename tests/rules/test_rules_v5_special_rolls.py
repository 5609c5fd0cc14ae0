"""
V5 rules beyond the plain roll (docs/v5.md): rating-only rolls, Rouse at Hunger 5, the
`/willpower` ending, refusing Willpower that buys nothing, the core teamwork reading, Blood
Surge, Stains beyond Humanity and slaking. Explicit faces everywhere; exact odds as Fractions,
checked against icepool where they change.
"""

import re
from fractions import Fraction

import icepool
import pytest

from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import contest as v5_contest, humanity as v5_humanity, exact_odds as v5_odds, rouse as v5_rouse, sheet as v5_sheet
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import Pool, PoolPart, build_pool
from storyteller_dice.rules.randomness import FixedFaces


def refused(call, message):
    with pytest.raises(DiceError, match="^" + re.escape(message) + "$"):
        call()


def sheet(**changes):
    values = v5_sheet.clamp_all({})
    values.update({name.replace("_", " "): value for name, value in changes.items()})
    return values


TABLE = v5_sheet.trait_table({"composure": 3, "resolve": 2, "humanity": 7, "dexterity": 3, "stealth": 2,
                              "brawl": 1}, {"stealth": ("Silent",)})
TENS = icepool.d10.map(lambda face: 1 if face == 10 else 0)
SUCCESSES = icepool.d10.map(lambda face: 1 if face >= 6 else 0)


# ---------------------------------------------------------------- rating-only rolls


@pytest.mark.parametrize(
    "expression, rating_only",
    [
        ("willpower", True), ("humanity", True), ("wp", True), ("hum", True),
        ("willpower + 2", True), ("humanity - 1", True), ("2 + willpower", True), ("willpower - 3 + 1", True),
        ("-willpower", False), ("willpower + resolve", False), ("willpower + willpower", False),
        ("resolve", False), ("blood potency", False), ("3", False), ("dex + stealth(silent)", False),
        ("stealth(silent)", False),
    ],
)
def test_is_rating_only(expression, rating_only):
    assert v5.is_rating_only(build_pool(expression, TABLE)) is rating_only


def test_a_specialty_part_is_not_a_plain_modifier():
    pool = Pool(parts=(PoolPart("Willpower", 3, trait="willpower"), PoolPart("Calm specialty", 1, specialty="Calm")),
                total=4)
    assert not v5.is_rating_only(pool)


def test_hunger_dice_for():
    assert v5.hunger_dice_for(build_pool("humanity", TABLE), 3) == 0
    assert v5.hunger_dice_for(build_pool("dex+stealth", TABLE), 3) == 3
    refused(lambda: v5.hunger_dice_for(build_pool("humanity", TABLE), 6), "Hunger is from 0 to 5.")


def test_rating_only_roll_has_no_hunger_dice():
    # The case that was wrong before: at Hunger 3, Humanity 7 rolled 4 regular + 3 Hunger dice.
    faces = [1, 2, 6, 7, 8, 10, 1]
    plain = v5.roll(7, 3, 1, rng=FixedFaces(faces))
    assert (plain.regular, plain.hunger, plain.rating_only) == ((1, 2, 6, 7), (8, 10, 1), False)
    rated = v5.roll(7, 3, 1, rng=FixedFaces(faces), rating_only=True)
    assert rated.regular == tuple(faces) and rated.hunger == () and rated.hunger_rating == 3
    assert rated.rating_only is True and rated.hunger_level == 3
    assert v5.roll(1, 2, 1, rng=FixedFaces([6]), rating_only=1).rating_only is True
    refused(lambda: v5.roll(3, 6, 1, rng=FixedFaces([1, 1, 1]), rating_only=True), "Hunger is from 0 to 5.")


def test_rating_only_odds_are_the_no_hunger_odds():
    pool = build_pool("humanity", TABLE)
    chances = v5_odds.odds(pool.dice, v5.hunger_dice_for(pool, 3), 1)
    assert chances == v5_odds.odds(7, 0, 1)
    assert chances["bestial_failure"] == 0 and chances["messy_critical"] == 0
    assert chances["win"] == 1 - Fraction(1, 2) ** 7 == (7 @ SUCCESSES).probability(">=", 1)
    # What it was: 3 Hunger dice could make a bestial failure.
    assert v5_odds.odds(7, 3, 1)["bestial_failure"] > 0


def test_rating_only_roll_is_not_rerolled():
    rated = v5.roll(3, 1, 2, rng=FixedFaces([1, 2, 6]), rating_only=True)
    assert v5.reroll_refusal(rated) == v5.RATING_ONLY_REFUSAL == (
        "Willpower does not reroll a Willpower or Humanity test (V5 core); no Willpower spent.")
    refused(lambda: v5.apply_reroll(rated, (0,), (9,)), v5.RATING_ONLY_REFUSAL)
    assert v5.rescore(rated, 1).rating_only is True
    assert v5.reroll_refusal(v5.evaluate([1], [], 1)) is None
    again = v5.apply_reroll(v5.evaluate([1, 2], [], 1), (0,), (7,))
    assert again.rating_only is False and again.rerolled == (0,)
    assert v5.reroll_refusal(again) == "This roll has already been rerolled with Willpower."
    refused(lambda: v5.apply_reroll(again, (1,), (7,)), "This roll has already been rerolled with Willpower.")
    assert v5_odds.refusal(rated, "best") == v5.RATING_ONLY_REFUSAL


def test_remorse_and_frenzy_are_rating_only():
    assert v5_humanity.evaluate_remorse([6], 7, 2).roll.rating_only is True
    assert v5_humanity.evaluate_frenzy([6, 1, 1, 1, 1], 3, 7, 1).roll.rating_only is True


# ---------------------------------------------------------------- the rules' /willpower ending


def test_willpower_ending_on_a_win_spends_nothing():
    result = v5.evaluate([2, 3, 7], [10], 2)
    assert result.win and not result.critical
    decision = v5.willpower_ending(result)
    assert decision == v5.WillpowerDecision(False, (), v5.ENDING_WON)
    assert v5.ENDING_WON == "The roll already wins: nothing is rerolled and no Willpower is spent."
    # The old behaviour rerolled the 2 and the 3: a messy critical 19 times in 100.
    old = v5_odds.reroll_odds(result, v5.choose_failures(result))
    assert old["messy_critical"] == Fraction(19, 100) == (2 @ TENS).probability(">=", 1)
    assert old["win"] == 1


def test_willpower_ending_rerolls_failures_when_the_roll_did_not_win():
    decision = v5.willpower_ending(v5.evaluate([2, 3, 4, 7, 1], [5], 2))
    assert decision.reroll is True and decision.indexes == (0, 1, 2)
    assert decision.reason == "The roll did not win: Willpower rerolls the regular dice under 6."


@pytest.mark.parametrize(
    "result, reason",
    [
        (v5.evaluate([7], [1, 2], 3), v5.ENDING_NO_FAILURES),
        (v5.evaluate([], [2, 3], 1), v5.ENDING_ALL_HUNGER),
        (v5.roll(2, 0, 1, rng=FixedFaces([1, 2]), rating_only=True), v5.RATING_ONLY_REFUSAL),
        (v5.apply_reroll(v5.evaluate([1, 2], [], 3), (0,), (2,)),
         "This roll has already been rerolled with Willpower."),
    ],
)
def test_willpower_ending_refusals(result, reason):
    assert v5.willpower_ending(result) == v5.WillpowerDecision(False, (), reason)


def test_willpower_ending_messages():
    assert v5.ENDING_NO_FAILURES == "No regular die is under 6: nothing is rerolled and no Willpower is spent."
    assert v5.ENDING_ALL_HUNGER == ("Every die is a Hunger die (Hunger dice are never rerolled): nothing is "
                                    "rerolled and no Willpower is spent.")


# ---------------------------------------------------------------- is a reroll worth a point?


def test_best_on_a_roll_that_cannot_win_is_refused():
    result = v5.evaluate([1, 2, 3], [4], 12)
    picks = v5_odds.best_reroll(result)
    assert picks == (0, 1, 2)
    assert v5_odds.reroll_improves(result, picks)  # the old test: more expected successes
    assert v5_odds.reroll_odds(result, picks)["win"] == 0
    assert not v5_odds.worthwhile(result, picks)
    assert v5_odds.refusal(result, "best") == v5_odds.NOT_WORTHWHILE == (
        "No reroll raises the chance to win or lowers the chance of a messy critical here; "
        "no Willpower spent.")
    assert v5_odds.refusal(result, "failures") == v5_odds.NOT_WORTHWHILE


def test_a_reroll_that_raises_the_chance_to_win_is_worthwhile():
    result = v5.evaluate([1, 2, 3], [4], 2)
    assert v5_odds.worthwhile(result, (0, 1, 2))
    assert v5_odds.refusal(result, "best") is None and v5_odds.refusal(result, "failures") is None
    # One die alone cannot make 2 successes (a lone 10 is one): that choice buys nothing.
    assert v5_odds.refusal(result, "best", (0,)) == v5_odds.NOT_WORTHWHILE
    assert v5_odds.refusal(v5.evaluate([1, 2, 3], [4], 1), "best", (0,)) is None


def test_a_reroll_that_lowers_a_messy_critical_is_worthwhile():
    result = v5.evaluate([10, 7], [10], 2)
    assert v5.choose_messy(result) == (0,)
    after = v5_odds.reroll_odds(result, (0,))
    assert after["win"] == 1 and after["messy_critical"] == Fraction(1, 10)
    assert v5_odds.worthwhile(result, (0,)) and v5_odds.refusal(result, "messy") is None


def test_a_sure_win_without_a_messy_critical_buys_nothing():
    result = v5.evaluate([7, 8, 9], [], 1)
    assert not v5_odds.worthwhile(result, (0,))
    assert not v5_odds.worthwhile(result, ())
    assert v5_odds.refusal(result, "best") == v5_odds.NOT_WORTHWHILE
    assert v5_odds.refusal(result, "best", (0, 1)) == v5_odds.NOT_WORTHWHILE


@pytest.mark.parametrize(
    "result, strategy, message",
    [
        (v5.evaluate([7, 8], [], 3), "failures", "The failures strategy finds no regular dice under 6; no Willpower spent."),
        (v5.evaluate([7, 2], [], 3), "crits", "The crits strategy finds no unpaired 10 to chase a pair for; no Willpower spent."),
        (v5.evaluate([7, 2], [], 1), "messy", "The messy strategy finds no regular 10s to reroll that would leave a "
         "winning roll without a messy critical; no Willpower spent."),
        (v5.evaluate([], [2], 1), "best", "The best strategy finds no regular dice to reroll; no Willpower spent."),
    ],
)
def test_strategies_that_pick_nothing(result, strategy, message):
    assert v5_odds.refusal(result, strategy) == message


def test_refusal_with_picks_given_and_unknown_strategy():
    result = v5.evaluate([1, 2], [], 1)
    assert v5_odds.refusal(result, "failures", ()) == (
        "The failures strategy finds no regular dice under 6; no Willpower spent.")
    refused(lambda: v5_odds.refusal(result, "luck"),
            "Unknown Willpower strategy 'luck': use failures, crits, messy, best or dice faces.")
    assert v5_odds.strategy_picks(result, "failures") == (0, 1)
    assert v5_odds.strategy_picks(result, "best") == v5_odds.best_reroll(result)


def test_crits_on_a_win_counts_a_raised_critical_and_warns():
    result = v5.evaluate([10, 7, 2], [], 2)
    picks = v5.choose_crits(result)
    assert picks == (1, 2)
    after = v5_odds.reroll_odds(result, picks)
    # The 10 stays: at least one success from two fresh dice wins; a 10 among them pairs.
    assert after["win"] == 1 - Fraction(1, 2) ** 2 == (2 @ SUCCESSES).probability(">=", 1)
    assert after["critical"] == Fraction(19, 100) == (2 @ TENS).probability(">=", 1)
    assert not v5_odds.worthwhile(result, picks)
    assert v5_odds.worthwhile(result, picks, "crits")
    assert v5_odds.refusal(result, "crits") is None
    assert v5_odds.warning_for(result, "crits") == (
        "This roll already wins. Chasing a critical rerolls 2 dice: chance to still win 75.0%, "
        "critical 19.0%, messy critical 0.0%.")
    assert v5_odds.warning_for(result, "crits", (2,)) == (
        "This roll already wins. Chasing a critical rerolls 1 die: chance to still win 100.0%, "
        "critical 10.0%, messy critical 0.0%.")
    assert v5_odds.warning_for(result, "failures") is None


def test_crits_warning_only_on_a_win_with_picks():
    assert v5_odds.warning_for(v5.evaluate([10, 2], [], 3), "crits") is None
    assert v5_odds.warning_for(v5.evaluate([7, 8], [], 1), "crits") is None
    assert v5_odds.warning_for(v5.evaluate([10, 2], [], 3), "crits", (1,)) is None


def test_crits_that_cannot_raise_the_critical_is_refused():
    # A 10 and a 7 vs 1: chasing raises the critical chance, so crits may spend...
    assert v5_odds.refusal(v5.evaluate([10, 7], [], 1), "crits") is None
    # ... but rerolling nothing that matters does not: crits with the 10 rerolled away.
    result = v5.evaluate([10, 7], [], 1)
    assert not v5_odds.worthwhile(result, (0,), "crits")


# ---------------------------------------------------------------- Rouse at Hunger 5


def test_rouse_at_hunger_five_draws_no_die():
    result = v5_rouse.roll(5, 2, rng=FixedFaces([]))
    assert [c.rolled for c in result.checks] == [False, False] and result.faces == ()
    assert [c.passed for c in result.checks] == [False, False]
    assert result.hunger_after == 5 and result.passed == 0 and result.failed == 0 and result.cannot_rouse == 2
    assert v5_rouse.CANNOT_ROUSE == ("at Hunger 5 the Blood cannot be roused (no die is rolled; Hunger stays 5): "
                                     "a hunger frenzy test (Difficulty 4) is due (+frenzy vs 4)")
    assert v5_rouse.FRENZY_COMMAND == "+frenzy vs 4"


def test_rouse_three_checks_reach_five():
    result = v5_rouse.evaluate([7, 2], 4, count=3)
    assert [c.faces for c in result.checks] == [(7,), (2,), ()]
    assert [c.hunger_after for c in result.checks] == [4, 5, 5]
    assert (result.passed, result.failed, result.cannot_rouse, result.frenzy_difficulty) == (1, 1, 1, 4)


def test_rouse_below_five_has_no_frenzy_test():
    result = v5_rouse.evaluate([2], 3)
    assert result.frenzy_difficulty is None and result.cannot_rouse == 0 and result.checks[0].rolled


def _rouse_chances(hunger, count):
    """Exact chance that a frenzy test is due, by enumerating every die the checks may draw."""
    due = Fraction(0)
    for first in range(1, 11):
        for second in range(1, 11):
            faces = iter([first, second])
            result = v5_rouse._run(lambda: next(faces), hunger, count, 0, None)
            due += Fraction(1, 100) * result.beast_demands_blood
    return due


def test_rouse_frenzy_odds():
    assert _rouse_chances(5, 1) == 1  # it was: passes half the time, nothing said
    assert _rouse_chances(4, 1) == 0
    assert _rouse_chances(4, 2) == Fraction(1, 2)  # the first die fails, the second cannot roll
    assert _rouse_chances(3, 2) == 0


# ---------------------------------------------------------------- slaking


def test_slake_stops_at_one_unless_killed():
    assert v5_rouse.slake(4, 2) == 2 and v5_rouse.slake(4, 3) == 1 and v5_rouse.slake(4, 4) == 1
    assert v5_rouse.slake(4, 4, killed=True) == 0 and v5_rouse.slake(1, 1, killed=True) == 0
    assert v5_rouse.slake(5, 1, killed=True) == 4
    refused(lambda: v5_rouse.slake(1, 2),
            "Hunger is already 1: only draining and killing the vessel slakes the last point (staff: /kill).")
    refused(lambda: v5_rouse.slake(0, 1, killed=True), "Hunger is already 0.")


# ---------------------------------------------------------------- Blood Surge


@pytest.mark.parametrize("bp, dice", [(0, 1), (1, 2), (2, 2), (3, 3), (4, 3), (5, 4), (6, 4), (7, 5), (8, 5),
                                      (9, 6), (10, 6)])
def test_surge_dice(bp, dice):
    assert v5.surge_dice(bp) == dice


@pytest.mark.parametrize("bp", [-1, 11, True, "2", None])
def test_surge_dice_refuses_blood_potency_out_of_range(bp):
    refused(lambda: v5.surge_dice(bp), "Blood Potency is from 0 to 10.")
    refused(lambda: v5.rouse_reroll_level(bp), "Blood Potency is from 0 to 10.")


def test_surge_at_hunger_five_is_refused_before_rolling():
    message = ("At Hunger 5 the Blood cannot be roused, so there is no Blood Surge; roll without /surge. "
               "Trying to rouse the Blood at Hunger 5 calls for a hunger frenzy test (Difficulty 4, +frenzy vs 4).")
    assert v5_rouse.NO_SURGE == message
    refused(lambda: v5_rouse.check_surge(5, 2), message)
    refused(lambda: v5_rouse.roll_surge(5, 2, rng=FixedFaces([])), message)
    refused(lambda: v5_rouse.evaluate_surge([7], 5, 2), message)
    refused(lambda: v5_rouse.check_surge(4, 11), "Blood Potency is from 0 to 10.")
    refused(lambda: v5_rouse.check_surge(6, 1), "Hunger is from 0 to 5.")
    assert v5_rouse.check_surge(4, 3) == 3


def test_surge_rouse_is_never_rerolled_for_blood_potency():
    surge = v5_rouse.evaluate_surge([3], 2, 10)
    assert surge.dice == 6 and surge.rouse.faces == (3,) and surge.hunger_after == 3
    assert surge.rouse.level is None and not surge.rouse.may_reroll and surge.rouse.blood_potency == 10
    refused(lambda: v5_rouse.evaluate_surge([3, 8], 2, 10), "Too many faces for these Rouse checks.")
    passed = v5_rouse.roll_surge(1, 0, rng=FixedFaces([7]))
    assert passed.dice == 1 and passed.rouse.passed == 1 and passed.hunger_after == 1
    assert passed.rouse.faces == (7,)  # the die came from the given source
    failed = v5_rouse.roll_surge(4, 7, rng=FixedFaces([5]))
    assert failed.dice == 5 and failed.hunger_after == 5 and not failed.rouse.beast_demands_blood
    assert failed.rouse.blood_potency == 7 and failed.rouse.checks[0].reroll is None


def test_surged_pool_is_bounded():
    assert v5_rouse.surged_pool(8, 2) == 10 and v5_rouse.surged_pool(44, 10) == 50
    refused(lambda: v5_rouse.surged_pool(45, 10), "That pool is 51 dice; pools are limited to 50.")
    refused(lambda: v5_rouse.surged_pool(3, 11), "Blood Potency is from 0 to 10.")


def test_can_rouse():
    assert v5_rouse.can_rouse(0) and v5_rouse.can_rouse(4) and not v5_rouse.can_rouse(5)
    refused(lambda: v5_rouse.can_rouse(6), "Hunger is from 0 to 5.")


# ---------------------------------------------------------------- teamwork, core reading


def test_teamwork_rules():
    assert v5_contest.TEAMWORK_RULES == ("seed", "core")
    assert v5_contest.check_teamwork_rule("seed") == "seed" and v5_contest.check_teamwork_rule("core") == "core"
    refused(lambda: v5_contest.check_teamwork_rule("book"), "Unknown teamwork rule 'book': use one of seed, core.")


@pytest.mark.parametrize("dots, dice", [(0, 0), (1, 1), (3, 1), (5, 1)])
def test_core_helper_dice(dots, dice):
    assert v5_contest.core_helper_dice(dots) == dice


@pytest.mark.parametrize("dots", [-1, 6, True, "1", None])
def test_core_helper_dots_out_of_range(dots):
    refused(lambda: v5_contest.core_helper_dice(dots), "A Skill's dots are from 0 to 5.")


def test_check_core_helper():
    assert v5_contest.check_core_helper(2, "stealth") == 2
    refused(lambda: v5_contest.check_core_helper(0, "animal ken"),
            "Helping with Animal Ken needs at least one dot in it (the core teamwork rule: each helper "
            "with a dot adds one die).")


def test_core_team_pool():
    assert v5_contest.core_team_pool(5, [0, 1, 3]) == 7
    assert v5_contest.core_team_pool(5, []) == 5 and v5_contest.core_team_pool(50, [0]) == 50
    assert v5_contest.core_team_pool(1, iter([1] * 10)) == 11
    refused(lambda: v5_contest.core_team_pool(49, [1, 1]), "That pool is 51 dice; pools are limited to 50.")
    refused(lambda: v5_contest.core_team_pool(5, [1] * 11), "At most 10 helpers join a teamwork roll.")
    refused(lambda: v5_contest.core_team_pool(0, [1]), "A pool is at least 1 die.")
    refused(lambda: v5_contest.core_team_pool(5, [7]), "A Skill's dots are from 0 to 5.")


def test_core_team_rolls_once_with_the_bonus():
    dice = v5_contest.core_team_pool(3, [2, 1])
    result = v5.roll(dice, 2, 2, rng=FixedFaces([6, 2, 10, 10, 1]))
    assert result.regular == (6, 2, 10) and result.hunger == (10, 1) and result.messy_critical
    assert v5_odds.odds(dice, 0, 1)["win"] == (5 @ SUCCESSES).probability(">=", 1)


def test_pool_skill():
    skills = v5_sheet.ALL_SKILLS
    assert v5_contest.pool_skill(build_pool("dex+stealth(silent)", TABLE), skills) == "stealth"
    assert v5_contest.pool_skill(build_pool("dex+stealth-brawl", TABLE), skills) == "stealth"
    refused(lambda: v5_contest.pool_skill(build_pool("dex+resolve", TABLE), skills),
            "A core teamwork roll uses a pool with exactly one Skill (like dex+stealth).")
    refused(lambda: v5_contest.pool_skill(build_pool("stealth+brawl+dex", TABLE), skills),
            "A core teamwork roll uses a pool with exactly one Skill (like dex+stealth); this one has "
            "Brawl, Stealth.")
    assert v5_contest.pool_skill(build_pool("stealth+stealth", TABLE), iter(skills)) == "stealth"


# ---------------------------------------------------------------- Stains beyond Humanity


def test_overflowing_stains_impair():
    fits = sheet(humanity=7, stains=3)
    assert v5_sheet.empty_humanity_boxes(fits) == 3
    assert v5_sheet.overflow_stains(fits) == 0 and not v5_sheet.impaired(fits) and v5_sheet.impairment(fits) == 0
    over = sheet(humanity=7, stains=4)  # refused before overflowing Stains were kept
    assert v5_sheet.check_value("stains", 4, over) == 4 and v5_sheet.check_value("stains", 10, over) == 10
    assert v5_sheet.overflow_stains(over) == 1 and v5_sheet.impaired(over) and v5_sheet.impairment(over) == 2
    assert v5_sheet.overflow_stains(sheet(humanity=10, stains=2)) == 2
    assert v5_sheet.IMPAIRED_NOTE == "Impaired (Stains beyond Humanity): -2 dice until the Remorse test"


def test_impaired_dice():
    over = sheet(humanity=7, stains=5)
    assert v5_sheet.impaired_dice(5, over) == 3 and v5_sheet.impaired_dice(3, over) == 1
    assert v5_sheet.impaired_dice(2, over) == 1
    assert v5_sheet.impaired_dice(5, sheet(humanity=7, stains=3)) == 5


def test_stain_changes_deal_aggravated_willpower_damage():
    values = {"composure": 2, "resolve": 2, "humanity": 7, "stains": 3}
    assert v5_sheet.stain_changes(values, 4) == {"stains": 4, "willpower aggravated": 1}
    assert v5_sheet.stain_changes(dict(values, stains=2), 5) == {"stains": 5, "willpower aggravated": 2}
    assert v5_sheet.stain_changes(dict(values, stains=4, **{"willpower aggravated": 1}), 5) == {
        "stains": 5, "willpower aggravated": 2}
    assert v5_sheet.stain_changes(dict(values, stains=5), 4) == {"stains": 4}  # lowering heals nothing
    assert v5_sheet.stain_changes(values, 3) == {"stains": 3}
    assert v5_sheet.stain_changes(dict(values, stains=0), 2) == {"stains": 2}
    refused(lambda: v5_sheet.stain_changes(values, 11),
            "Stains must be from 0 to 10 (Stains beyond the empty Humanity boxes are Aggravated Willpower damage).")


def test_stain_damage_on_a_full_track():
    values = {"composure": 1, "resolve": 1, "humanity": 7, "stains": 3, "willpower superficial": 2}
    changes = v5_sheet.stain_changes(values, 4)
    assert changes == {"stains": 4, "willpower superficial": 1, "willpower aggravated": 1}
    assert list(changes) == ["stains", "willpower superficial", "willpower aggravated"]
    assert v5_sheet.stain_changes(dict(values, **{"willpower superficial": 1}), 4) == {
        "stains": 4, "willpower aggravated": 1}
    full = {"composure": 1, "resolve": 1, "humanity": 7, "stains": 4, "willpower aggravated": 2}
    assert v5_sheet.stain_changes(full, 6) == {"stains": 6, "willpower aggravated": 2}
    assert v5_sheet.stain_changes(dict(values, stains=3), 6) == {
        "stains": 6, "willpower superficial": 0, "willpower aggravated": 2}


def test_remorse_with_overflowing_stains():
    assert v5_humanity.remorse_pool(7, 4) == 1 and v5_humanity.remorse_pool(10, 10) == 1
    kept = v5_humanity.evaluate_remorse([6], 7, 4)
    assert kept.kept and kept.stains_after == 0 and kept.roll.pool == 1
    lost = v5_humanity.evaluate_remorse([5], 7, 10)
    assert lost.humanity_after == 6 and lost.stains_after == 0
    refused(lambda: v5_humanity.remorse_pool(7, 11), "Stains are from 0 to 10.")
    # Exact odds: one die, 6+ keeps Humanity.
    assert SUCCESSES.probability(">=", 1) == Fraction(1, 2)


def test_frenzy_with_a_penalty():
    assert v5_humanity.frenzy_pool(3, 7) == 5 and v5_humanity.frenzy_pool(3, 7, 2) == 3
    assert v5_humanity.frenzy_pool(1, 2, 2) == 1 and v5_humanity.frenzy_pool(0, 0, 0) == 1
    for bad in (-1, True, "2", None):
        refused(lambda: v5_humanity.frenzy_pool(3, 7, bad), "A pool penalty is a whole number of dice, 0 or more.")
    result = v5_humanity.evaluate_frenzy([6, 7, 1], 3, 7, 2, penalty=2)
    assert result.penalty == 2 and result.resisted and result.roll.pool == 3
    refused(lambda: v5_humanity.evaluate_frenzy([6, 7, 1, 1, 1], 3, 7, 2, penalty=2),
            "A frenzy test at Willpower 3 and Humanity 7 rolls 3 dice.")
    rolled = v5_humanity.roll_frenzy(3, 7, 1, rng=FixedFaces([1, 2, 9]), penalty=2)
    assert rolled.roll.regular == (1, 2, 9) and rolled.penalty == 2
    assert v5_humanity.evaluate_frenzy([6] * 5, 3, 7).penalty == 0

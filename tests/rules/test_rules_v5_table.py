"""
The rest of the V5 table with explicit faces: Rouse checks, contests, teamwork,
Remorse and frenzy (docs/v5.md), plus the counting cases the commands rely on.
"""

import pytest

from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import contest as v5_contest, humanity as v5_humanity, rouse as v5_rouse
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces


# ------------------------------------------------------------------ tens, messy, bestial


@pytest.mark.parametrize(
    "regular, hunger, successes",
    [
        ([10, 10, 10], [], 5),  # one pair (4) + a lone 10
        ([10, 10], [10], 5),  # the pair may mix regular and Hunger dice
        ([10], [10, 10], 5),
        ([10, 10, 10, 10], [], 8),  # two pairs
        ([10, 10], [10, 10], 8),
        ([10, 2, 10], [10, 10, 3], 8),
        ([10, 10, 10, 10, 10], [], 9),  # two pairs + a lone 10
    ],
)
def test_three_and_four_tens(regular, hunger, successes):
    result = v5.evaluate(regular, hunger, 1)
    assert result.successes == successes
    assert result.critical
    assert result.messy_critical == (10 in hunger)


def test_four_tens_exactly_meet_difficulty_eight():
    result = v5.evaluate([10, 10, 10, 10], [], 8)
    assert result.win and result.margin == 0 and result.critical


def test_three_tens_one_short_is_not_critical():
    result = v5.evaluate([10, 10], [10], 6)  # 5 successes vs 6
    assert not result.win and not result.critical and not result.messy_critical


@pytest.mark.parametrize("difficulty, messy", [(1, True), (4, True), (5, False), (9, False)])
def test_messy_only_on_a_win(difficulty, messy):
    result = v5.evaluate([10, 2], [10, 1], difficulty)  # 4 successes, a Hunger 10 and a Hunger 1
    assert result.messy_critical is messy
    assert result.win is messy
    assert result.bestial_failure is (not messy)  # the Hunger 1 counts only on a failure


@pytest.mark.parametrize("difficulty, bestial", [(0, False), (2, False), (3, True)])
def test_bestial_only_on_a_failure(difficulty, bestial):
    result = v5.evaluate([6, 7], [1], difficulty)
    assert result.bestial_failure is bestial
    assert result.win is not bestial


def test_bestial_needs_a_hunger_one_not_a_regular_one():
    result = v5.evaluate([1, 1, 1], [2], 1)
    assert not result.bestial_failure and result.total_failure


# ------------------------------------------------------------------ rouse checks


def test_rouse_pass_keeps_hunger():
    result = v5_rouse.evaluate([6], 2)
    check = result.checks[0]
    assert check.passed and result.hunger_after == 2 and not result.beast_demands_blood


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5])
def test_rouse_fail_raises_hunger(face):
    result = v5_rouse.evaluate([face], 2)
    assert not result.checks[0].passed and result.hunger_after == 3
    assert not result.beast_demands_blood


@pytest.mark.parametrize("face", [6, 7, 8, 9, 10])
def test_rouse_pass_faces(face):
    assert v5_rouse.evaluate([face], 0).hunger_after == 0


def test_rouse_at_hunger_five_rolls_no_die():
    # at Hunger 5 the Blood cannot be roused; no die, a hunger frenzy test is due.
    result = v5_rouse.evaluate([], 5)
    check = result.checks[0]
    assert not check.passed and not check.rolled and check.face is None and check.hunger_after == 5
    assert check.beast_demands_blood and check.cannot_rouse and result.beast_demands_blood
    assert result.faces == () and result.failed == 0 and result.cannot_rouse == 1
    assert result.frenzy_difficulty == 4
    assert v5_rouse.BEAST_DEMANDS_BLOOD == "the Beast demands blood: hunger frenzy test"
    with pytest.raises(DiceError, match="Too many faces"):
        v5_rouse.evaluate([9], 5)


def test_rouse_reaching_five_then_the_second_check_cannot_rouse():
    result = v5_rouse.evaluate([2], 4, count=2)
    first, second = result.checks
    assert (first.hunger_before, first.hunger_after, first.beast_demands_blood) == (4, 5, False)
    assert (second.hunger_before, second.hunger_after, second.beast_demands_blood) == (5, 5, True)
    assert first.rolled and not second.rolled and result.faces == (2,) and result.failed == 1


def test_two_rouse_checks_each_at_the_hunger_left():
    result = v5_rouse.evaluate([1, 8], 1, count=2)
    assert [c.hunger_before for c in result.checks] == [1, 2]
    assert result.hunger_after == 2 and result.passed == 1 and result.failed == 1


@pytest.mark.parametrize(
    "bp, level, rerolls",
    [
        (0, 1, False),
        (1, 1, True), (1, 2, False),
        (2, 1, True), (2, 2, False),
        (3, 2, True), (3, 3, False),
        (4, 2, True),
        (5, 3, True), (5, 4, False),
        (6, 3, True),
        (7, 4, True), (7, 5, False),
        (8, 4, True),
        (9, 5, True),
        (10, 5, True), (10, 1, True),
    ],
)
def test_blood_potency_rerolls_by_level(bp, level, rerolls):
    faces = [2, 7] if rerolls else [2]
    result = v5_rouse.evaluate(faces, 1, blood_potency=bp, level=level)
    check = result.checks[0]
    assert result.may_reroll is rerolls
    assert (check.reroll is not None) is rerolls
    assert check.passed is rerolls
    assert result.hunger_after == (1 if rerolls else 2)


def test_blood_potency_reroll_happens_once_and_the_second_die_stands():
    result = v5_rouse.evaluate([2, 5], 1, blood_potency=3, level=1)
    check = result.checks[0]
    assert check.faces == (2, 5) and not check.passed and result.hunger_after == 2


def test_blood_potency_no_reroll_on_a_pass_or_without_a_level():
    assert v5_rouse.evaluate([8], 1, blood_potency=5, level=1).checks[0].reroll is None
    assert v5_rouse.evaluate([3], 1, blood_potency=10).checks[0].reroll is None


def test_blood_potency_reroll_per_check():
    result = v5_rouse.evaluate([1, 9, 2, 3], 2, count=2, blood_potency=2, level=1)
    assert [c.faces for c in result.checks] == [(1, 9), (2, 3)]
    assert result.hunger_after == 3


def test_rouse_blood_potency_reroll_at_hunger_four():
    result = v5_rouse.evaluate([4, 10], 4, blood_potency=1, level=1)
    assert result.checks[0].passed and not result.beast_demands_blood and result.hunger_after == 4


def test_rouse_roll_draws_one_die_per_check_and_rerolls():
    source = FixedFaces([3, 6, 5, 2])
    result = v5_rouse.roll(2, count=2, blood_potency=1, level=1, rng=source)
    assert result.faces == (3, 6, 5, 2) and result.hunger_after == 3 and source.remaining == []


@pytest.mark.parametrize(
    "faces, kwargs",
    [
        ([], {}),  # too few faces
        ([7, 7], {}),  # too many
        ([2], {"blood_potency": 1, "level": 1}),  # a reroll die is missing
        ([11], {}),
        ([7], {"count": 0}),
        ([7] * 6, {"count": 6}),
        ([7], {"level": 6}),
        ([7], {"level": 0}),
        ([7], {"blood_potency": 11}),
    ],
)
def test_rouse_refuses_bad_input(faces, kwargs):
    with pytest.raises(DiceError):
        v5_rouse.evaluate(faces, 1, **kwargs)


def test_rouse_refuses_bad_hunger():
    with pytest.raises(DiceError):
        v5_rouse.evaluate([7], 6)


# ------------------------------------------------------------------ contests


def test_contest_more_successes_wins_by_the_difference():
    contest = v5_contest.evaluate_contest([6, 7, 8], [2], [6, 2], [3])
    assert contest.winner == v5_contest.ATTACKER and contest.margin == 2 and not contest.tie
    assert contest.attacker.win and not contest.defender.win


def test_contest_defender_wins():
    contest = v5_contest.evaluate_contest([6], [], [6, 7, 8, 9], [])
    assert contest.winner == v5_contest.DEFENDER and contest.margin == 3


def test_contest_tie_goes_to_the_defender():
    contest = v5_contest.evaluate_contest([6, 7], [1], [8, 2], [9])
    assert contest.tie and contest.winner == v5_contest.DEFENDER and contest.margin == 0
    assert contest.defender.win and not contest.attacker.win
    assert contest.attacker.bestial_failure  # the loser's Hunger 1 on a lost contest


def test_contest_zero_to_zero_is_a_tie_for_the_defender():
    contest = v5_contest.evaluate_contest([1, 2], [], [3], [1])
    assert contest.tie and contest.winner == v5_contest.DEFENDER and contest.margin == 0
    # 0 successes never wins a roll (docs/v5.md): the defender wins the tie, yet each side's
    # own roll is a total failure, and the defender's Hunger 1 makes it bestial.
    assert contest.attacker.total_failure and contest.defender.total_failure
    assert not contest.attacker.win and not contest.defender.win
    assert contest.defender.bestial_failure and not contest.attacker.bestial_failure
    seed = v5_contest.evaluate_contest([1, 2], [4], [3], [], "total_failure")
    assert seed.attacker.bestial_failure and not seed.defender.bestial_failure


def test_contest_messy_only_for_the_winner():
    lost = v5_contest.evaluate_contest([10, 2], [10], [10, 10, 10, 6], [])  # 4 against 6
    assert not lost.attacker.messy_critical and not lost.attacker.critical
    assert lost.defender.critical and not lost.defender.messy_critical
    won = v5_contest.evaluate_contest([10, 2], [10], [6], [])
    assert won.attacker.messy_critical


def test_contest_three_and_four_tens():
    contest = v5_contest.evaluate_contest([10, 10], [10], [10, 10, 10, 10], [])
    assert (contest.attacker.successes, contest.defender.successes) == (5, 8)
    assert contest.winner == v5_contest.DEFENDER and contest.margin == 3


def test_contest_roll_draws_the_attacker_first():
    source = FixedFaces([6, 7, 1, 8, 9, 10])
    contest = v5_contest.roll_contest(3, 1, 3, 2, rng=source)
    assert contest.attacker.regular == (6, 7) and contest.attacker.hunger == (1,)
    assert contest.defender.regular == (8,) and contest.defender.hunger == (9, 10)
    assert contest.winner == v5_contest.DEFENDER and contest.margin == 1


def test_contest_replace_side_scores_again_and_keeps_reroll_marks():
    contest = v5_contest.evaluate_contest([2, 3, 6], [], [7, 8], [])
    assert contest.winner == v5_contest.DEFENDER
    rerolled = v5.apply_reroll(contest.attacker, (0, 1), (9, 10))
    again = v5_contest.replace_side(contest, v5_contest.ATTACKER, rerolled)
    assert again.winner == v5_contest.ATTACKER and again.margin == 1
    assert again.attacker.rerolled == (0, 1)
    assert again.defender.difficulty == 3  # the defender now needs 3 to win


def test_contest_side_difficulty_makes_best_reroll_aim_at_the_contest():
    contest = v5_contest.evaluate_contest([2, 6], [], [7, 8], [])
    assert contest.attacker.difficulty == 3 and contest.defender.difficulty == 1


def test_contest_refuses_bad_pools():
    with pytest.raises(DiceError):
        v5_contest.roll_contest(0, 0, 3, 0, rng=FixedFaces([]))
    with pytest.raises(DiceError):
        v5_contest.roll_contest(3, 6, 3, 0, rng=FixedFaces([]))


# ------------------------------------------------------------------ teamwork


def test_teamwork_helpers_successes_add_to_the_leader():
    team = v5_contest.evaluate_teamwork(([6, 2], [3]), [([7, 8], []), ([1], [9])], 4)
    assert team.successes == 4 and team.win and team.margin == 0
    assert [r.successes for r in team.participants] == [1, 2, 1]


def test_teamwork_messy_from_the_leader_only():
    helper_messy = v5_contest.evaluate_teamwork(([6], []), [([10], [10])], 2)
    assert helper_messy.win and not helper_messy.critical and not helper_messy.messy_critical
    leader_messy = v5_contest.evaluate_teamwork(([10], [10]), [([6], [])], 2)
    assert leader_messy.messy_critical and leader_messy.outcome == "messy_critical"


def test_teamwork_bestial_from_the_leader_only():
    helper_one = v5_contest.evaluate_teamwork(([6], []), [([2], [1])], 3)
    assert not helper_one.win and not helper_one.bestial_failure and helper_one.outcome == "failure"
    leader_one = v5_contest.evaluate_teamwork(([6], [1]), [([2], [])], 3)
    assert leader_one.bestial_failure and leader_one.outcome == "bestial_failure"


def test_teamwork_no_bestial_when_helpers_carry_the_win():
    team = v5_contest.evaluate_teamwork(([2], [1]), [([6, 7], [])], 2)
    assert team.win and not team.bestial_failure
    assert team.leader.total_failure and team.leader.bestial_failure  # the leader's own dice
    seed = v5_contest.evaluate_teamwork(([2], [3]), [([6, 7], [])], 2, "total_failure")
    assert seed.win and not seed.bestial_failure and seed.leader.bestial_failure


def test_teamwork_zero_successes_never_wins_even_at_difficulty_zero():
    team = v5_contest.evaluate_teamwork(([2], [1]), [([3], [])], 0)
    assert not team.win and team.total_failure and team.bestial_failure
    assert team.outcome == "bestial_failure" and team.margin == 0
    one = v5_contest.evaluate_teamwork(([2], [1]), [([6], [])], 0)
    assert one.win and not one.total_failure and not one.bestial_failure and one.margin == 1


def test_teamwork_total_failure_is_the_teams():
    team = v5_contest.evaluate_teamwork(([2], []), [([6], [])], 3)
    assert not team.total_failure  # the leader had 0, the team 1
    nothing = v5_contest.evaluate_teamwork(([2], []), [([3], [])], 1)
    assert nothing.total_failure and nothing.outcome == "total_failure"


def test_teamwork_replace_participant():
    team = v5_contest.evaluate_teamwork(([2, 6], []), [([3], [])], 3)
    assert not team.win
    helper = v5.apply_reroll(team.helpers[0], (0,), (10,))
    again = v5_contest.replace_participant(team, 1, helper)
    assert again.successes == 2 and not again.win
    leader = v5.apply_reroll(team.leader, (0,), (7,))
    again = v5_contest.replace_participant(again, 0, leader)
    assert again.successes == 3 and again.win and again.leader.rerolled == (0,)
    with pytest.raises(DiceError):
        v5_contest.replace_participant(team, 5, helper)


def test_teamwork_roll_draws_leader_then_helpers():
    source = FixedFaces([6, 10, 7, 10])
    team = v5_contest.roll_teamwork((2, 1), [(2, 1)], 3, rng=source)
    assert team.leader.regular == (6,) and team.leader.hunger == (10,)
    assert team.helpers[0].regular == (7,) and team.helpers[0].hunger == (10,)
    assert team.successes == 4 and team.win and not team.critical  # the two 10s are on different rolls


def test_teamwork_refuses_too_many_helpers():
    with pytest.raises(DiceError):
        v5_contest.evaluate_teamwork(([6], []), [([6], [])] * 11, 1)


# ------------------------------------------------------------------ remorse


@pytest.mark.parametrize("humanity, stains, pool", [(7, 2, 1), (5, 2, 3), (9, 1, 1), (7, 3, 1), (3, 1, 6)])
def test_remorse_pool(humanity, stains, pool):
    assert v5_humanity.remorse_pool(humanity, stains) == pool


def test_remorse_success_keeps_humanity_and_clears_stains():
    result = v5_humanity.evaluate_remorse([2, 6, 1], 5, 2)
    assert result.kept and result.humanity_after == 5 and result.stains_after == 0
    assert result.roll.hunger == ()  # no Hunger dice


def test_remorse_failure_drops_humanity_and_clears_stains():
    result = v5_humanity.evaluate_remorse([2, 5, 1], 5, 2)
    assert not result.kept and result.humanity_after == 4 and result.stains_after == 0
    assert not result.lost_to_the_beast


def test_remorse_drop_to_zero():
    result = v5_humanity.evaluate_remorse([1] * 8, 1, 1)
    assert result.humanity_after == 0 and result.lost_to_the_beast


def test_remorse_minimum_one_die_at_full_boxes():
    result = v5_humanity.evaluate_remorse([10], 7, 3)
    assert result.roll.pool == 1 and result.kept


@pytest.mark.parametrize(
    "faces, humanity, stains",
    [([6], 7, 0), ([6], 0, 3), ([6, 6], 7, 2), ([6], 7, 11), ([6], 11, 0)],
)
def test_remorse_refusals(faces, humanity, stains):
    with pytest.raises(DiceError):
        v5_humanity.evaluate_remorse(faces, humanity, stains)


def test_remorse_roll_uses_the_source():
    result = v5_humanity.roll_remorse(6, 1, rng=FixedFaces([1, 2, 3]))
    assert result.roll.regular == (1, 2, 3) and result.humanity_after == 5


# ------------------------------------------------------------------ frenzy


@pytest.mark.parametrize("willpower, humanity, pool", [(3, 7, 5), (5, 8, 7), (0, 2, 1), (0, 3, 1), (4, 0, 4),
                                                        (2, 9, 5)])
def test_frenzy_pool_is_willpower_plus_a_third_of_humanity(willpower, humanity, pool):
    assert v5_humanity.frenzy_pool(willpower, humanity) == pool


def test_frenzy_resists_or_not():
    resisted = v5_humanity.evaluate_frenzy([6, 7, 2, 1, 9], 3, 7, difficulty=3)
    assert resisted.resisted is True and resisted.roll.hunger == () and resisted.humanity_dice == 2
    frenzies = v5_humanity.evaluate_frenzy([6, 2, 2, 1, 9], 3, 7, difficulty=3)
    assert frenzies.resisted is False and not frenzies.roll.bestial_failure  # no Hunger dice


def test_frenzy_without_difficulty_only_counts():
    result = v5_humanity.evaluate_frenzy([6, 2, 2, 1, 9], 3, 7)
    assert result.resisted is None and not result.difficulty_given and result.roll.successes == 2


def test_frenzy_refusals():
    with pytest.raises(DiceError):
        v5_humanity.evaluate_frenzy([6], 3, 7)  # 5 dice expected
    with pytest.raises(DiceError):
        v5_humanity.frenzy_pool(11, 7)
    with pytest.raises(DiceError):
        v5_humanity.roll_frenzy(3, 7, difficulty=-1, rng=FixedFaces([]))


# ------------------------------------------------------------------ purity


def test_slake_never_below_zero():
    from storyteller_dice.rules.v5 import rouse as v5_rouse

    assert v5_rouse.slake(4, 2) == 2
    assert v5_rouse.slake(2, 5) == 1  # stops at 1 unless the vessel was killed
    assert v5_rouse.slake(2, 5, killed=True) == 0
    for hunger, amount in ((0, 1), (1, 1), (3, 0), (6, 1)):
        with pytest.raises(DiceError):
            v5_rouse.slake(hunger, amount)

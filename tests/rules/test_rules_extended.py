"""The shared extended-roll state (rules.extended) and each system's extended rules, with exact faces."""

import re

import pytest

from storyteller_dice.rules import extended, seyruun, v5, v20
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.seyruun.system import SYSTEM as SEYRUUN
from storyteller_dice.rules.v5.extended import RULES as V5_RULES, evaluate as v5_evaluate
from storyteller_dice.rules.v20.system import SYSTEM as V20
from storyteller_dice.rules.v5.system import SYSTEM as V5

V20_RULES = V20.extended
SEYRUUN_RULES = SEYRUUN.extended


def refused(call, message):
    with pytest.raises(DiceError, match="^" + re.escape(message) + "$"):
        call()


def run(rules, target, results):
    state = extended.start("dex + athletics", target)
    steps = []
    for result in results:
        steps.append(rules.step(result))
        state = extended.add(state, steps[-1])
    return state, steps


# ---------------------------------------------------------------- the shared state


def test_start_add_complete():
    state = extended.start("  dex   +  athletics ", 3)
    assert state.pool == "dex + athletics" and (state.total, state.rolls, state.complete) == (0, 0, False)
    state = extended.add(state, extended.Step(added=2))
    assert (state.total, state.rolls, state.before, state.remaining) == (2, 1, 0, 1)
    state = extended.add(state, extended.Step(added=4))
    assert (state.total, state.complete, state.remaining) == (6, True, 0)
    refused(lambda: extended.add(state, extended.Step(added=1)),
            "That extended roll is already complete (6/3); start a new one.")


def test_reset_marks_and_correction():
    state = extended.add(extended.start("x", 10), extended.Step(added=4))
    state = extended.add(state, extended.Step(reset=True, marks=("botch",)))
    assert (state.total, state.before, state.marks, state.count("botch")) == (0, 4, (("botch", 1),), 1)
    fixed = extended.correct_last(state, extended.Step(added=3))
    assert (fixed.total, fixed.marks, fixed.rolls) == (7, (), 2)
    again = extended.correct_last(fixed, extended.Step(reset=True, marks=("botch",)))
    assert (again.total, again.count("botch")) == (0, 1)
    assert extended.add(extended.start("x", 5), extended.Step(added=-2)).total == 0  # never below 0
    refused(lambda: extended.correct_last(extended.start("x", 5), extended.Step()),
            "That roll is no longer the latest roll of your extended roll.")


def test_targets_and_pool():
    assert extended.start("x", 1).target == 1 and extended.start("x", 100).target == 100
    for bad in (0, 101, True, "3", 2.0):
        refused(lambda: extended.start("x", bad), "An extended roll's target is a total of 1 to 100 successes.")
    refused(lambda: extended.start("   ", 3), "Say what to roll for the extended roll.")


def test_round_trip_and_damage():
    state = extended.start("dex", 9, switches=("spec",), private=True, numbers_only=True, run="7-1.5")
    state = extended.add(state, extended.Step(added=2, marks=("botch",)))
    assert extended.ExtendedRoll.from_dict(state.to_dict()) == state
    for damaged in ([1], {"pool": "dex"}, {"target": 4}, {"pool": "dex", "target": "4"}, {"pool": "", "target": 4},
                    {"pool": "dex", "target": 4, "marks": [["botch"]]}, {"pool": "dex", "target": 0}):
        refused(lambda: extended.ExtendedRoll.from_dict(damaged), extended.DAMAGED)


def test_progress_and_describe():
    state, steps = run(SEYRUUN_RULES, 4, [seyruun.evaluate([6, 10], 1), seyruun.evaluate([1, 2], 1)])
    assert extended.progress(state, SEYRUUN_RULES, steps[-1]) == (
        "3/4 after 2 rolls (a botch on this roll adds nothing; 1 botch).")
    assert extended.describe(state, SEYRUUN_RULES) == "dex + athletics toward 4: 3/4 after 2 rolls, 1 botch"
    assert extended.describe(state, SEYRUUN_RULES, pool="P") == "P toward 4: 3/4 after 2 rolls, 1 botch"
    done, _ = run(V5_RULES, 2, [v5_evaluate([6, 7], [])])
    assert extended.progress(done, V5_RULES) == "2/2 after 1 roll: complete."
    assert extended.describe(done, V5_RULES).endswith("2/2 after 1 roll, complete")


# ---------------------------------------------------------------- each system's rules


def test_v5_successes_add_and_a_bestial_failure_keeps_the_total():
    state, steps = run(V5_RULES, 10, [v5_evaluate([6, 7, 8], []), v5_evaluate([2, 3], [1]),
                                      v5_evaluate([10], [10])])
    assert [step.added for step in steps] == [3, 0, 4]
    assert steps[1].note == "bestial failure on this roll: the total is kept" and not steps[1].reset
    assert (state.total, state.rolls, state.marks) == (7, 3, ())


def test_v5_rolls_at_difficulty_one_and_tells_the_wing():
    request = V5_RULES.request(V5.parse("4 vs 3", numbers_only=True))
    assert (request.target, request.target_given, request.get("extended")) == (1, False, True)
    assert v5_evaluate([10], [10]).messy_critical and v5_evaluate([6], []).difficulty == 1


def test_v5_willpower_reroll_corrects_the_total():
    before = v5_evaluate([2, 3], [1])
    state = extended.add(extended.start("dex", 10), V5_RULES.step(before))
    after = v5.apply_reroll(before, (0, 1), (10, 10))
    state = extended.correct_last(state, V5_RULES.step(after))
    assert (state.total, state.rolls) == (4, 1)


def test_v20_net_successes_add_and_a_botch_resets():
    state, steps = run(V20_RULES, 5, [v20.evaluate([7, 8, 3], 6), v20.evaluate([1, 3], 6)])
    assert (state.total, state.rolls, state.before) == (0, 2, 2)
    assert steps[1].reset and steps[1].note == "a botch resets the total to 0"
    state = extended.add(state, V20_RULES.step(v20.evaluate([2, 3], 6)))  # a failure adds nothing
    state = extended.add(state, V20_RULES.step(v20.evaluate([7, 1], 6, willpower=True)))
    assert (state.total, state.rolls) == (1, 4)
    state = extended.add(state, V20_RULES.step(v20.evaluate([9, 9, 9, 9], 6)))
    assert (state.total, state.complete) == (5, True)
    assert (V20_RULES.target_word, V20_RULES.lasting) == ("for", ("spec",))


def test_v20_keeps_the_difficulty():
    request = V20.parse("5 vs 8", numbers_only=True)
    assert V20_RULES.request(request) == request


def test_seyruun_a_botch_adds_nothing_and_is_counted():
    state, steps = run(SEYRUUN_RULES, 5, [seyruun.evaluate([6, 10], 1), seyruun.evaluate([1, 2], 1),
                                          seyruun.evaluate([2, 3], 1), seyruun.evaluate([6, 6], 1)])
    assert [step.added for step in steps] == [3, 0, 0, 2]
    assert [step.marks for step in steps] == [(), ("botch",), (), ()]
    assert (state.total, state.rolls, state.count("botch"), state.complete) == (5, 4, 1, True)


def test_seyruun_each_roll_is_judged_at_simple():
    request = SEYRUUN_RULES.request(SEYRUUN.parse("5 vs 3", numbers_only=True))
    assert (request.target, request.target_given) == (seyruun.MIN_DIFFICULTY, False)

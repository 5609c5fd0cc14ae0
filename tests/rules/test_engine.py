"""The seam (rules.engine) and V5 behind it (rules.v5.system): explicit faces, exact figures."""

import itertools
import json
from fractions import Fraction

import pytest

from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import exact_odds as v5_odds
from storyteller_dice.rules.engine import (Chance, DiceGroup, Die, OddsView, Outcome, RollView, read_whole, split_vs)
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces
from storyteller_dice.rules.v5.system import SYSTEM, V5System


def roller(**values):
    sheet = {"dexterity": 3, "stealth": 2, "hunger": 2}
    sheet.update(values)
    return SYSTEM.roller("Anna", sheet, {})


# ---------------------------------------------------------------- reading typed text


@pytest.mark.parametrize("text, expected", [
    ("dex+stealth vs 3", ("dex+stealth", "3")),
    ("dex+stealth VS. 3", ("dex+stealth", "3")),
    ("dex+stealth", ("dex+stealth", None)),
    ("  7 vs (5,2) ", ("7", "(5,2)")),
    ("a vs b vs 3", ("a", "b vs 3")),
])
def test_split_vs(text, expected):
    assert split_vs(text) == expected


@pytest.mark.parametrize("text", ["vs 3", "VS", "vs. 2"])
def test_split_vs_needs_a_pool(text):
    with pytest.raises(DiceError, match="before 'vs'"):
        split_vs(text)


@pytest.mark.parametrize("typed, expected", [
    ("3", 3), ("0003", 3), ("00000000000003", 3), (" 12 ", 12), ("0", 0), ("000", 0),
    ("9" * 40, 10**12),
])
def test_read_whole(typed, expected):
    assert read_whole(typed, "A number") == expected


@pytest.mark.parametrize("typed", ["²", "٣", "-1", "1.5", "", "three", "+3"])
def test_read_whole_refuses(typed):
    with pytest.raises(DiceError, match="^A number, not '"):
        read_whole(typed, "A number")


def test_read_whole_signed_and_checked():
    assert read_whole("-4", "A number", signed=True) == -4
    assert read_whole("-0004", "A number", signed=True) == -4
    with pytest.raises(DiceError, match="Hunger"):
        read_whole("9", "A number", check=v5.check_hunger)


def test_read_whole_crops_a_long_refusal():
    with pytest.raises(DiceError) as err:
        read_whole("x" * 500, "A number")
    assert len(str(err.value)) < 60


# ---------------------------------------------------------------- the neutral shapes


def test_roll_view_round_trips_through_json():
    view = RollView(
        system="toy", pool="3 dice", target="vs 2",
        groups=(DiceGroup("Dice", (Die(3, frozenset({"fail"})), Die(10, frozenset({"ten", "success"}))), sides=10),
                DiceGroup("Extra", (Die(8, frozenset({"success", "hunger"})),), sides=8)),
        score=2, noun=("hit", "hits"), outcome=Outcome("win", "a win", "good"), notes=("a note",),
    )
    data = json.loads(json.dumps(view.to_dict()))
    assert RollView.from_dict(data) == view
    assert view.faces == (3, 10, 8)
    assert view.score_text == "2 hits"


def test_outcome_tone_is_checked():
    with pytest.raises(ValueError):
        Outcome("x", "x", "splendid")


def test_odds_view_must_sum_to_one():
    with pytest.raises(ValueError):
        OddsView("toy", "1 die", "", chances=(Chance("a", "a", Fraction(1, 2)),), distribution=())
    with pytest.raises(ValueError):
        OddsView("toy", "1 die", "", chances=(), distribution=((0, Fraction(1, 3)),))


# ---------------------------------------------------------------- V5 behind the seam


def test_v5_parse_roll_view_record():
    anna = roller()
    request = SYSTEM.parse("dex+stealth vs 3", roller=anna)
    assert (request.dice, request.target, request.target_given) == (5, 3, True)
    result = SYSTEM.roll(request, anna, FixedFaces([10, 6, 2, 10, 1]))
    assert (result.regular, result.hunger) == ((10, 6, 2), (10, 1))
    view = SYSTEM.view(result, request)
    assert view.pool == "Dexterity 3 + Stealth 2 = 5 (5 dice), Hunger 2"
    assert view.target == "vs 3"
    assert [g.label for g in view.groups] == ["Dice", "Hunger"]
    assert [sorted(d.marks) for d in view.groups[1].dice] == [["hunger", "success", "ten"], ["hunger", "one"]]
    assert view.score == 5  # 10, 6, 10: three successes, and the pair of 10s adds two
    assert view.outcome == Outcome("messy_critical", "messy critical", "mixed")
    assert view.notes == ("margin +2, solid success",)
    record = json.loads(json.dumps(SYSTEM.record(result, request)))
    assert record["regular"] == [10, 6, 2] and record["hunger"] == [10, 1]
    assert RollView.from_dict(record["view"]) == view


def test_v5_no_difficulty_is_judged_at_one_without_a_margin():
    anna = roller(hunger=0)
    request = SYSTEM.parse("dex", roller=anna)
    result = SYSTEM.roll(request, anna, FixedFaces([7, 2, 3]))
    view = SYSTEM.view(result, request)
    assert (view.outcome.key, view.target, view.notes) == ("success", "", ())


def test_v5_willpower_ending_and_switch():
    assert SYSTEM.parse("dex vs 2/willpower", roller=roller()).option("willpower")
    assert SYSTEM.parse("dex vs 2 / WP", roller=roller()).option("willpower")
    assert SYSTEM.parse("dex vs 2", frozenset({"willpower"}), roller=roller()).option("willpower")
    assert not SYSTEM.parse("dex vs 2", roller=roller()).option("willpower")


def test_v5_numbers_only_refuses_traits():
    with pytest.raises(DiceError):
        SYSTEM.parse("dex", roller=roller(), numbers_only=True)
    assert SYSTEM.parse("4+1", roller=roller(), numbers_only=True).dice == 5


def test_v5_configure_reads_the_bestial_setting():
    system = SYSTEM.configure({"V5_BESTIAL_FAILURE": "total_failure"})
    assert isinstance(system, V5System) and system.bestial_rule == "total_failure"
    with pytest.raises(DiceError):
        SYSTEM.configure({"V5_BESTIAL_FAILURE": "sometimes"})
    anna = roller(hunger=1)
    request = system.parse("2 vs 1", roller=anna)
    # total_failure reading: 0 successes with a Hunger die is bestial even without a Hunger 1
    assert system.roll(request, anna, FixedFaces([2, 3])).bestial_failure
    assert not SYSTEM.roll(request, anna, FixedFaces([2, 3])).bestial_failure


def _partition_by_enumeration(pool, hunger, difficulty, rule):
    """Count every face combination (small pools): each outcome of the +odds partition."""
    regular_n, hunger_n = v5.split_pool(pool, hunger)
    counts = dict.fromkeys(("messy_critical", "critical", "success", "failure", "total_failure",
                            "bestial_failure"), 0)
    for faces in itertools.product(range(1, 11), repeat=pool):
        result = v5.evaluate(faces[:regular_n], faces[regular_n:], difficulty, rule)
        if result.messy_critical:
            key = "messy_critical"
        elif result.critical:
            key = "critical"
        elif result.win:
            key = "success"
        elif result.bestial_failure:
            key = "bestial_failure"
        elif result.total_failure:
            key = "total_failure"
        else:
            key = "failure"
        counts[key] += 1
    return {key: Fraction(n, 10**pool) for key, n in counts.items()}


@pytest.mark.parametrize("rule", ["official", "total_failure"])
@pytest.mark.parametrize("pool, hunger, difficulty", [
    (1, 0, 1), (1, 1, 0), (2, 1, 1), (3, 2, 2), (3, 3, 0), (4, 1, 3), (4, 5, 2), (4, 0, 2),
])
def test_v5_odds_partition_each_outcome_once(pool, hunger, difficulty, rule):
    system = V5System(bestial_rule=rule)
    anna = roller(hunger=hunger)
    request = system.parse(f"{pool} vs {difficulty}", roller=anna, numbers_only=True)
    view = system.odds(request, anna)
    assert sum(c.probability for c in view.chances) == 1
    assert {c.key: c.probability for c in view.chances} == _partition_by_enumeration(pool, hunger, difficulty, rule)


def test_v5_odds_agree_with_the_odds_engine_at_fifty_dice():
    anna = roller(hunger=5)
    request = SYSTEM.parse("50 vs 20", roller=anna, numbers_only=True)
    view = SYSTEM.odds(request, anna)
    exact = v5_odds.odds(50, 5, 20)
    assert view.chance("messy_critical") + view.chance("critical") + view.chance("success") == exact["win"]
    assert view.chance("bestial_failure") == exact["bestial_failure"]
    assert view.chance("total_failure") == Fraction(1, 2) ** 45 * Fraction(2, 5) ** 5


def test_v5_sheet_state_and_layout():
    anna = SYSTEM.roller("Anna", {"composure": 2, "resolve": 3, "willpower superficial": 1, "hunger": 4}, {})
    assert anna.state["hunger"] == 4
    assert anna.state["willpower_max"] == 5 and anna.state["willpower_left"] == 4
    sections = SYSTEM.sheet.layout({"composure": 2, "resolve": 3, "willpower superficial": 1}, {})
    tracks = {s.title: s for s in sections if s.kind == "track"}
    assert tracks["Willpower"].boxes == "/...."
    assert tracks["Willpower"].text == "4/5 left (Superficial 1, Aggravated 0)"
    assert "hunger" in SYSTEM.sheet.staff_only

"""Whalefall behind the seam (rules/whalefall/system.py): parse -> roll -> view -> record, odds."""

import json
import random
import re
from fractions import Fraction

import icepool
import pytest

from storyteller_dice.rules import whalefall
from storyteller_dice.rules.engine import FAIL, SUCCESS, RollView, System, check_system
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces
from storyteller_dice.rules.whalefall.system import SYSTEM, WhalefallSystem

# The rules' own column measure (one a code point), whatever a test of the game set before.
pytestmark = pytest.mark.usefixtures("code_point_columns")


def roller(**values):
    return SYSTEM.roller("Gomez", values, {})


def play(text, faces, numbers_only=False, **values):
    request = SYSTEM.parse(text, roller=roller(**values), numbers_only=numbers_only)
    rng = FixedFaces(faces)
    result = SYSTEM.roll(request, rng=rng)
    assert rng.remaining == []
    return request, result, SYSTEM.view(result, request)


def marks(view):
    return [sorted(die.marks) for group in view.groups for die in group.dice]


# ---------------------------------------------------------------- the rules' examples


def test_gomez_diplomacy_three_seven_nine_vs_six_two_succeeds():
    request, result, view = play("diplomacy vs (6,2)", [3, 7, 9], diplomacy=3)
    assert request.dice == 3 and request.target == (6, 2)
    assert view.pool == "Diplomacy 3 (3d10)"
    assert view.target == "vs (6,2)"
    assert view.faces == (3, 7, 9)
    assert marks(view) == [[FAIL], [SUCCESS], [SUCCESS]]
    assert view.score == 2 and view.score_text == "2 dice at 6+"
    assert (view.outcome.key, view.outcome.label, view.outcome.tone) == ("success", "success", "good")
    assert view.notes == ()


def test_ryuji_two_four_ten_vs_five_two_fails_flagged_partial():
    request, result, view = play("athletics vs (5,2)", [2, 4, 10], athletics=3)
    assert result.check.success is False and result.check.partial is True
    assert view.score_text == "1 die at 5+"
    assert (view.outcome.key, view.outcome.label, view.outcome.tone) == (
        "failure_partial", "failure (partial)", "mixed")
    assert view.notes == ("partial: 1 die met 5+, 2 needed; the GM may rule a partial success or failure",)
    assert SYSTEM.record(result, request)["partial"] is True


def test_ilija_athletics_four_is_four_d10s():
    request, _, view = play("athletics vs (5,2)", [1, 5, 9, 2], athletics=4)
    assert request.dice == 4
    assert view.groups[0].sides == 10 and view.outcome.key == "success"


def test_check_one_vs_five_two_fails_automatically_without_dice():
    request, result, view = play("1 vs (5,2)", [], numbers_only=True)
    assert result.check.automatic is True and result.check.dice == ()
    assert view.groups == () and view.score is None and view.score_text == ""
    assert (view.outcome.key, view.outcome.label, view.outcome.tone) == (
        "automatic_failure", "automatic failure", "bad")
    assert view.notes == ("fails without rolling: 1 die, fewer than the 2 needed",)
    assert view.pool == "1d10"


def test_untrained_skill_fails_automatically():
    _, result, view = play("stealth vs (5,1)", [])
    assert view.outcome.key == "automatic_failure"
    assert view.notes == ("fails without rolling: 0 dice, fewer than the 1 needed",)


# ---------------------------------------------------------------- each syntax


def test_check_four_vs_five_two_rolls_four_d10s():
    request, _, view = play("4 vs (5,2)", [5, 1, 1, 1], numbers_only=True)
    assert view.pool == "4d10" and view.groups[0].sides == 10
    assert view.outcome.key == "failure_partial"


def test_check_four_d8_rolls_d8s():
    request, _, view = play("4d8 vs (5,2)", [8, 5, 1, 4], numbers_only=True)
    assert request.get("sides") == 8
    assert view.pool == "4d8"
    assert view.groups[0].sides == 8
    assert view.score == 2 and view.outcome.key == "success"


def test_d8_faces_above_eight_are_never_asked_for():
    with pytest.raises(AssertionError):
        play("1d8 vs (5,1)", [9], numbers_only=True)


def test_skill_with_a_die_size_and_a_modifier():
    request, _, view = play("athletics+1 d6 vs (4,2)", [1, 4, 6], athletics=2)
    assert request.dice == 3 and request.get("sides") == 6
    assert view.pool == "Athletics 2 + 1 = 3 (3d6)"
    assert view.outcome.key == "success"


def test_plain_failure_no_die_met():
    _, _, view = play("3 vs (5,2)", [1, 2, 4], numbers_only=True)
    assert (view.outcome.key, view.outcome.tone) == ("failure", "bad")
    assert view.score == 0 and view.score_text == "0 dice at 5+"
    assert view.notes == ()


def test_target_without_parentheses_and_vs_case():
    request = SYSTEM.parse("4 VS 5,2", numbers_only=True)
    assert request.target == (5, 2)


def test_modifiers_below_zero_leave_zero_dice():
    request, _, view = play("athletics-3 vs (5,1)", [], athletics=1)
    assert request.dice == 0 and view.outcome.key == "automatic_failure"


@pytest.mark.parametrize("text, message", [
    ("athletics", "Say the target number after 'vs' as (face,count)"),
    ("4", "Say the target number after 'vs' as (face,count)"),
    ("athletics vs 5", "Write the target number as (face,count)"),
    ("athletics vs (11,2)", "The face to reach is from 1 to 10 on a d10."),
    ("4d8 vs (9,2)", "The face to reach is from 1 to 8 on a d8."),
    ("athletics d1 vs (1,1)", "Dice have from 2 to 100 sides."),
    ("athletics vs (5,0)", "The number of dice needed is from 1 to 50."),
    ("athletics+diplomacy vs (5,2)", "not several skills"),
    ("athletics(climbing) vs (5,2)", "Whalefall has no Specialties"),
    ("51 vs (5,2)", "limited to 50"),
    ("vs (5,2)", "Say what to roll before 'vs'."),
    ("flying vs (5,2)", "There is no trait called 'flying'."),
])
def test_bad_input_is_refused_in_plain_words(text, message):
    with pytest.raises(DiceError, match=re.escape(message)):
        SYSTEM.parse(text, roller=roller(athletics=3))


def test_check_takes_numbers_only():
    with pytest.raises(DiceError, match="only numbers can be used here"):
        SYSTEM.parse("athletics vs (5,2)", roller=roller(athletics=3), numbers_only=True)


# ---------------------------------------------------------------- the record


@pytest.mark.parametrize("text, faces, numbers_only", [
    ("diplomacy vs (6,2)", [3, 7, 9], False),
    ("athletics vs (5,2)", [2, 4, 10], False),
    ("1 vs (5,2)", [], True),
    ("4d8 vs (5,2)", [8, 5, 1, 4], True),
])
def test_record_is_json_and_the_view_round_trips(text, faces, numbers_only):
    request, result, view = play(text, faces, numbers_only=numbers_only, diplomacy=3, athletics=3)
    record = SYSTEM.record(result, request)
    assert json.loads(json.dumps(record)) == record
    assert record["system"] == "whalefall"
    assert RollView.from_dict(record["view"]) == view
    assert record["dice"] == list(faces)
    # the stored faces judge the same again
    if not record["automatic"]:
        again = whalefall.evaluate(record["dice"], record["target"], record["needed"], record["sides"])
        assert (again.success, again.partial, again.meeting) == (
            record["success"], record["partial"], record["meeting"])


def test_record_of_an_automatic_failure_keeps_the_pool():
    request, result, _ = play("1 vs (5,2)", [], numbers_only=True)
    record = SYSTEM.record(result, request)
    assert (record["pool"], record["dice"], record["automatic"], record["partial"]) == (1, [], True, False)


# ---------------------------------------------------------------- odds


def icepool_chances(pool, face, count, sides):
    meeting = pool @ (icepool.Die(range(1, sides + 1)) >= face)
    success = Fraction(sum(q for k, q in meeting.items() if k >= count), meeting.denominator())
    partial = Fraction(sum(q for k, q in meeting.items() if 1 <= k < count), meeting.denominator())
    return success, partial


@pytest.mark.parametrize("text, pool, face, count, sides", [
    ("3 vs (6,2)", 3, 6, 2, 10),
    ("4d8 vs (5,2)", 4, 5, 2, 8),
    ("10 vs (9,4)", 10, 9, 4, 10),
    ("2d6 vs (6,2)", 2, 6, 2, 6),
    ("7 vs (1,7)", 7, 1, 7, 10),
])
def test_odds_equal_the_modules_exact_odds_and_icepool(text, pool, face, count, sides):
    request = SYSTEM.parse(text, numbers_only=True)
    odds = SYSTEM.odds(request)
    exact = whalefall.odds(pool, face, count, sides)
    assert odds.chance("success") == exact["success"]
    assert odds.chance("failure_partial") == exact["partial"]
    assert odds.chance("failure") == 1 - exact["success"] - exact["partial"]
    assert sum(c.probability for c in odds.chances) == 1
    assert dict(odds.distribution) == exact["distribution"]
    assert (odds.chance("success"), odds.chance("failure_partial")) == icepool_chances(pool, face, count, sides)
    assert [c.key for c in odds.chances] == ["success", "failure_partial", "failure"]
    assert odds.noun == (f"die at {face}+", f"dice at {face}+")


def test_gomez_odds_exactly():
    odds = SYSTEM.odds(SYSTEM.parse("diplomacy vs (6,2)", roller=roller(diplomacy=3)))
    assert odds.chance("success") == Fraction(1, 2)
    assert odds.chance("failure_partial") == Fraction(3, 8)
    assert odds.chance("failure") == Fraction(1, 8)
    assert odds.pool == "Diplomacy 3 (3d10)" and odds.target == "vs (6,2)"
    assert odds.notes == ("expected dice at 6+: 1.50",)
    assert [c.label for c in odds.chances] == ["success", "failure (partial)", "failure (no die met)"]


def test_odds_of_an_automatic_failure():
    odds = SYSTEM.odds(SYSTEM.parse("1 vs (5,2)", numbers_only=True))
    assert [(c.key, c.probability) for c in odds.chances] == [("automatic_failure", 1)]
    assert odds.distribution == ()
    assert odds.notes == ("fails without rolling: 1 die, fewer than the 2 needed",)


def test_every_outcome_key_of_view_is_a_key_of_odds():
    seen = set()
    for text, faces in (("3 vs (6,2)", [3, 7, 9]), ("3 vs (5,2)", [2, 4, 10]), ("3 vs (5,2)", [1, 1, 1])):
        request, _, view = play(text, faces, numbers_only=True)
        assert view.outcome.key in {c.key for c in SYSTEM.odds(request).chances}
        seen.add(view.outcome.key)
    assert seen == {"success", "failure_partial", "failure"}


def test_seeded_rolls_match_the_module():
    request = SYSTEM.parse("6d12 vs (7,3)", numbers_only=True)
    ours = SYSTEM.roll(request, rng=random.Random(5)).check
    assert ours == whalefall.roll(6, 7, 3, rng=random.Random(5), sides=12)


# ---------------------------------------------------------------- the sheet


def test_system_is_usable():
    assert isinstance(SYSTEM, System) and check_system(SYSTEM) is SYSTEM
    assert SYSTEM.key == "whalefall" and SYSTEM.title == "Whalefall"


def test_sheet_has_the_seeds_skills_from_zero_to_ten():
    sheet = SYSTEM.sheet
    for skill in ("athletics", "diplomacy", "barter", "business", "firearms"):
        assert sheet.defaults()[skill] == 0
    assert sheet.match("Dipl") == "diplomacy"
    assert sheet.check_value("athletics", 10, {}) == 10
    for bad in (-1, 11, True):
        with pytest.raises(DiceError, match="Athletics must be from 0 to 10 levels."):
            sheet.check_value("athletics", bad, {})
    with pytest.raises(DiceError, match="no Specialties"):
        sheet.check_specialty("athletics", "climbing", {"athletics": 3}, ())
    assert sheet.clamp({"athletics": 99})["athletics"] == 10


def test_sheet_layout_fits_eighty_columns():
    sections = SYSTEM.sheet.layout({"athletics": 4, "diplomacy": 3}, {})
    assert [s.kind for s in sections] == ["columns"]
    rows = sections[0].rows
    assert [title for title, _ in rows] == ["Body", "Craft", "People"]
    assert ("Athletics", 4) in rows[0][1] and ("Diplomacy", 3) in rows[2][1]
    # three columns of "Label ........ 10" side by side, two spaces apart
    widest = [max(len(label) + 4 for label, _ in column) for _, column in rows]
    assert sum(widest) + 2 * (len(rows) - 1) <= 80
    display = pytest.importorskip("storyteller_dice.rules.display")
    if hasattr(display, "format_sheet"):
        text = display.format_sheet("Gomez", "approved", sections, width=80)
        assert all(display.visible_len(line) <= 80 for line in text.split("\n"))


def test_help_lines_fit():
    for text in (SYSTEM.help, SYSTEM.sheet.help(), SYSTEM.roll_usage, SYSTEM.check_usage):
        assert all(len(line) <= 80 for line in text.split("\n"))


def test_a_game_sets_its_own_skills():
    system = SYSTEM.configure({"WHALEFALL_SKILLS": {"Body": ["Athletics", "Swimming"], "Mind": ["Hacking"]}})
    assert isinstance(system, WhalefallSystem) and system is not SYSTEM
    assert system.sheet.skills == ("athletics", "swimming", "hacking")
    request = system.parse("swim vs (5,1)", roller=system.roller("Ryuji", {"swimming": 2}, {}))
    assert request.dice == 2
    assert SYSTEM.configure({}) is SYSTEM
    assert system.configure({"WHALEFALL_SKILLS": ["Climbing"]}).sheet.skills == ("climbing",)


@pytest.mark.parametrize("skills", ["athletics", {"Body": ["Athletics", "athletics"]}, {"Body": ["x" * 30]},
                                    [], {"Body": ["Ath|letics"]}])
def test_a_bad_skill_list_is_refused_at_start(skills):
    with pytest.raises(DiceError, match="WHALEFALL_SKILLS"):
        SYSTEM.configure({"WHALEFALL_SKILLS": skills})


@pytest.mark.parametrize("text, faces, numbers_only", [
    ("athletics vs (5,2)", [2, 4, 10], False),
    ("1 vs (5,2)", [], True),
    ("50d8 vs (5,2)", [8] * 50, True),
])
def test_rolls_and_odds_fit_eighty_columns_on_the_display(text, faces, numbers_only):
    display = pytest.importorskip("storyteller_dice.rules.display")
    if not hasattr(display, "format_roll"):
        pytest.skip("storyteller_dice.rules.display has no format_roll yet")
    request, _, view = play(text, faces, numbers_only=numbers_only, athletics=3)
    for shown in (display.format_roll(view, "Ryuji", comment="leaps the pit " * 5, width=80),
                  display.format_odds(SYSTEM.odds(request), width=80)):
        assert all(display.visible_len(line) <= 80 for line in shown.split("\n"))

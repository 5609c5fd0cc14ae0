"""The Dice Check behind the seam (rules/dicecheck/system.py): parse -> roll -> view -> record, odds."""

import json
import random
import re
from dataclasses import replace
from fractions import Fraction

import icepool
import pytest

from storyteller_dice.rules import dicecheck
from storyteller_dice.rules.dicecheck.system import SYSTEM
from storyteller_dice.rules.engine import FAIL, SUCCESS, Roller, RollView, System, check_system
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces

# The rules' own column measure (one a code point), whatever a test of the game set before.
pytestmark = pytest.mark.usefixtures("code_point_columns")

RUDOLF = {"strength": 4, "swords": 4, "athletics": 2, "evasion": 1}
BOB = {"strength": 3, "athletics": 3, "evasion": 2, "grit": 1}


def rudolf():
    return SYSTEM.roller("Rudolf", RUDOLF, {"swords": ["Cut"], "athletics": ["Grapple"]})


def bob(focuses=("Grapple",)):
    return SYSTEM.roller("Bob", BOB, {"athletics": list(focuses)})


def play(text, faces, roller=None, target=None, numbers_only=False, switches=frozenset()):
    request = SYSTEM.parse(text, switches=switches, roller=roller, numbers_only=numbers_only)
    if target is not None:
        request = SYSTEM.resolve_target(request, target)
    rng = FixedFaces(faces)
    result = SYSTEM.roll(request, rng=rng)
    assert rng.remaining == []
    return request, result, SYSTEM.view(result, request)


def marks(group):
    return [sorted(die.marks) for die in group.dice]


# ---------------------------------------------------------------- the rules' examples


def test_rudolf_nine_dice_at_seven_vs_evasion_two_four_hits_effect_two():
    faces = [2, 4, 4, 5, 6, 7, 7, 9, 10]
    request, result, view = play("9d(7+):EVA Bob", faces, target=bob())
    assert request.target == 2
    assert view.pool == "9d(7+)" and view.target == "vs Bob's Evasion 2"
    assert view.score == 4 and view.score_text == "4 hits"
    assert marks(view.groups[0]) == [[FAIL]] * 5 + [[SUCCESS]] * 4
    assert (view.outcome.key, view.outcome.label, view.outcome.tone) == ("success", "success", "good")
    assert view.notes == ("Effect 2, Degree of Success 2",)


def test_rudolf_with_his_sword_and_cut_focus_is_nine_dice_at_seven():
    request, _, view = play("Swords (Cut):EVA Bob", [2, 4, 4, 5, 6, 7, 7, 9, 10], roller=rudolf(), target=bob())
    assert request.dice == 9 and request.pool.threshold == 7
    assert view.pool == "Strength 4 + Swords 4 + Cut 1 = 9d(7+)"
    assert view.notes == ("Effect 2, Degree of Success 2",)


def test_esmera_eleven_dice_at_six_vs_four_seven_hits_effect_three_dos_two():
    request, result, view = play("11d(6+):4", [1, 2, 2, 4, 6, 6, 7, 8, 9, 9, 10], numbers_only=True)
    assert view.score == 7 and view.target == "vs TN 4"
    assert (result.check.effect, result.check.dos) == (3, 2)
    assert view.notes == ("Effect 3, Degree of Success 2",)


def test_strength_four_rolls_four_dice_at_seven_plus():
    request, result, view = play("STR:3", [6, 7, 8, 1], roller=SYSTEM.roller("Anna", {"strength": 4}, {}))
    assert request.dice == 4 and request.pool.threshold == 7
    assert view.pool == "Strength 4 = 4d(7+)" and view.target == "vs TN 3"
    assert marks(view.groups[0]) == [[FAIL], [SUCCESS], [SUCCESS], [FAIL]]
    assert view.outcome.key == "failure" and view.notes == ("botch margin 1",)


@pytest.mark.parametrize("level, threshold", [(1, 10), (2, 9), (3, 7), (4, 7), (5, 6), (7, 6), (8, 5), (11, 5)])
def test_the_attribute_level_sets_the_threshold(level, threshold):
    request = SYSTEM.parse("STR:1", roller=SYSTEM.roller("A", {"strength": level}, {}))
    assert request.pool.threshold == threshold == dicecheck.threshold_for_attribute(level)
    assert request.dice == level


def test_twelve_dice_at_six_needs_three():
    request, _, view = play("12d(6+):3", [6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 10], numbers_only=True)
    assert request.dice == 12 and view.pool == "12d(6+)"
    assert view.score == 4 and view.notes == ("Effect 1, Degree of Success 1",)


def test_big_botch():
    _, _, view = play("3d(6+):3", [1, 2, 5], numbers_only=True)
    assert (view.outcome.key, view.outcome.label, view.outcome.tone) == ("big_botch", "big botch", "disaster")
    assert view.notes == ("botch margin 3",)


# ---------------------------------------------------------------- targets and opposed checks


def test_a_defence_check_waits_for_the_target():
    request = SYSTEM.parse("Command (Intimidate):GRI Bob the Red", roller=SYSTEM.roller(
        "Vera", {"charisma": 5, "command": 2}, {"command": ["Intimidate"]}))
    assert request.get("needs_target") == "grit" and request.get("target_name") == "Bob the Red"
    assert request.target is None
    with pytest.raises(DiceError, match="Name the target first"):
        SYSTEM.roll(request, rng=FixedFaces([]))
    with pytest.raises(DiceError, match="Name the target first"):
        SYSTEM.odds(request)
    ready = SYSTEM.resolve_target(request, bob())
    assert ready.get("needs_target") is None and ready.target == 1
    assert ready.get("target_text") == "vs Bob the Red's Grit 1"
    assert SYSTEM.resolve_target(ready, bob()) is ready
    assert ready.dice == 8 and ready.pool.threshold == 6


def test_opposed_grapple_both_roll_the_others_hits_are_the_tn():
    # Rudolf: Strength 4 + Athletics 2 + Grapple 1 = 7d(7+); Bob: 3 + 3 + 1 = 7d(7+).
    faces = [7, 8, 9, 1, 1, 1, 1] + [7, 7, 1, 1, 1, 1, 1]
    request, result, view = play("Athletics (Grapple):Athletics (Grapple) Bob", faces, roller=rudolf(), target=bob())
    assert request.get("other").dice == 7
    assert view.target == "vs Bob's Athletics (Grapple), 7d(7+)"
    assert [g.label for g in view.groups] == ["Dice", "Bob"]
    assert view.groups[1].faces == (7, 7, 1, 1, 1, 1, 1)
    assert result.check.tn == 2 and view.score == 3
    assert view.notes == ("Effect 1, Degree of Success 1", "Bob: 2 hits at 7+, the TN")
    record = SYSTEM.record(result, request)
    assert record["other"] == {"name": "Bob", "dice": [7, 7, 1, 1, 1, 1, 1], "threshold": 7, "hits": 2}


def test_opposed_tie_goes_to_the_active_side():
    faces = [7, 1, 1, 1, 1, 1, 1] + [7, 1, 1, 1, 1, 1, 1]
    _, _, view = play("Athletics (Grapple):Athletics (Grapple) Bob", faces, roller=rudolf(), target=bob())
    assert view.outcome.key == "success" and view.notes[0] == "Effect 0, Degree of Success 1"


def test_opposed_target_without_the_focus_rolls_without_it():
    request = SYSTEM.resolve_target(
        SYSTEM.parse("Athletics (Grapple):Athletics (Grapple) Bob", roller=rudolf()), bob(focuses=()))
    assert request.get("other").dice == 6


def test_opposed_attributes():
    request = SYSTEM.resolve_target(SYSTEM.parse("STR:STR Bob", roller=rudolf()), bob())
    assert request.get("needs_target") is None
    other = request.get("other")
    assert (other.dice, other.threshold) == (3, 7)


def test_resolve_target_shows_the_given_name_without_markup():
    request = SYSTEM.parse("STR:EVA bo", roller=rudolf())
    ready = SYSTEM.resolve_target(request, bob(), name="B|rob")
    assert ready.get("target_text") == "vs Brob's Evasion 2"


def test_a_target_without_a_sheet_is_refused():
    with pytest.raises(DiceError, match="Bob has no sheet"):
        SYSTEM.resolve_target(SYSTEM.parse("STR:EVA Bob", roller=rudolf()), Roller(name="Bob"))


# ---------------------------------------------------------------- other syntax


def test_modifiers_and_damage_checks():
    request, result, view = play("6d(6+)+2:2", [6] * 4 + [1] * 4, switches={"damage"}, numbers_only=True)
    assert request.dice == 8 and view.pool == "6d(6+) + 2 = 8d(6+)"
    assert result.check.wounds == 2
    assert view.notes == ("Effect 2, Degree of Success 2: 2 wounds",)
    request = SYSTEM.parse("Swords (Cut) - 2:3", roller=rudolf())
    assert request.dice == 7 and request.pool.text == "Strength 4 + Swords 4 + Cut 1 - 2 = 7d(7+)"


def test_a_plain_number_is_a_static_check_at_six():
    request = SYSTEM.parse("12:3", numbers_only=True)
    assert (request.dice, request.pool.threshold, request.target) == (12, 6, 3)


def test_untrained_skill_rolls_the_attribute():
    request = SYSTEM.parse("Medicine:2", roller=SYSTEM.roller("E", {"intelligence": 5}, {}))
    assert request.dice == 5 and request.pool.threshold == 6
    assert request.pool.text == "Intelligence 5 + Medicine 0 = 5d(6+)"


@pytest.mark.parametrize("text, message", [
    ("", "Say what to check"),
    ("STR", "with one colon"),
    ("STR:3:4", "with one colon"),
    ("Swords:", "Both sides of the colon are needed"),
    ("XYZ:3", "There is no Attribute, Skill or defence called 'XYZ'"),
    ("EVA:3", "Evasion is a defence: it is a TN, not a pool."),
    ("STR (Lift):3", "Strength is an Attribute: Focuses belong to Skills."),
    ("Swords (Stab):EVA Bob", "You have no Swords Focus 'Stab' (yours: Cut)."),
    ("Swords (Cut):EVA", "Name whose Evasion you roll against: Swords (Cut):EVA <target>, or give the TN "
                         "as a number, like Swords (Cut):2."),
    ("STR:3 Bob", "A TN of 3 needs no target: drop 'Bob'."),
    ("STR:51", "A target number is from 0 to 50 hits."),
    ("12d(11+):3", "A threshold is from 1+ to 10+."),
    ("60d(6+):3", "That pool is 60 dice; pools are limited to 50."),
    ("52d(6+)-1:3", "That pool is 51 dice; pools are limited to 50."),
    ("STR+60:3", "That pool is 64 dice; pools are limited to 50."),
    ("STR:EVA (Dodge) Bob", "Evasion has no Focus."),
])
def test_bad_input_is_refused_in_plain_words(text, message):
    with pytest.raises(DiceError, match=re.escape(message)):
        SYSTEM.parse(text, roller=rudolf())


def test_check_takes_static_checks_only():
    with pytest.raises(DiceError, match=re.escape("'STR' is on a sheet; only static checks like 12d(6+):3")):
        SYSTEM.parse("STR:3", roller=rudolf(), numbers_only=True)
    # a static check may still be made against a target's defence
    assert SYSTEM.parse("9d(7+):EVA Bob", numbers_only=True).get("needs_target") == "evasion"


# ---------------------------------------------------------------- the record


@pytest.mark.parametrize("text, faces, target", [
    ("9d(7+):EVA Bob", [2, 4, 4, 5, 6, 7, 7, 9, 10], True),
    ("11d(6+):4", [1, 2, 2, 4, 6, 6, 7, 8, 9, 9, 10], False),
    ("3d(6+):3", [1, 2, 5], False),
    ("Athletics (Grapple):Athletics (Grapple) Bob", [7] * 14, True),
])
def test_record_is_json_and_the_view_round_trips(text, faces, target):
    request, result, view = play(text, faces, roller=rudolf(), target=bob() if target else None)
    record = SYSTEM.record(result, request)
    assert json.loads(json.dumps(record)) == record
    assert record["system"] == "dicecheck"
    assert RollView.from_dict(record["view"]) == view
    again = dicecheck.evaluate(record["dice"], record["threshold"], record["tn"])
    assert (again.hits, again.success, again.effect, again.dos, again.botch_margin, again.big_botch) == (
        record["hits"], record["success"], record["effect"], record["dos"], record["botch_margin"],
        record["big_botch"])


# ---------------------------------------------------------------- odds


def icepool_hits(pool, threshold):
    return pool @ (icepool.d10 >= threshold)


@pytest.mark.parametrize("text, pool, threshold, tn", [
    ("9d(7+):2", 9, 7, 2), ("11d(6+):4", 11, 6, 4), ("12d(6+):3", 12, 6, 3), ("4d(7+):3", 4, 7, 3),
    ("3d(10+):0", 3, 10, 0), ("5d(5+):8", 5, 5, 8),
])
def test_odds_equal_the_modules_exact_odds_and_icepool(text, pool, threshold, tn):
    odds = SYSTEM.odds(SYSTEM.parse(text, numbers_only=True))
    exact = dicecheck.odds(pool, threshold, tn)
    assert odds.chance("success") == exact["success"]
    assert odds.chance("big_botch") == exact["big_botch"]
    assert odds.chance("failure") == 1 - exact["success"] - exact["big_botch"]
    assert sum(c.probability for c in odds.chances) == 1
    assert dict(odds.distribution) == exact["hits"]
    hits = icepool_hits(pool, threshold)
    assert odds.chance("success") == Fraction(sum(q for k, q in hits.items() if k >= tn), hits.denominator())
    assert odds.noun == ("hit", "hits")


def test_esmera_odds_split_success_by_degree_and_agree_with_the_chart():
    from storyteller_dice.rules.display import format_odds, strip_markup

    odds = SYSTEM.odds(SYSTEM.parse("11d(6+):4", numbers_only=True))
    title, key, parts = odds.breakdown
    assert (title, key) == ("by Degree of Success", "success")
    hits = icepool_hits(11, 6)
    total = hits.denominator()
    # Against an independent count: DoS 1 is 4-5 Hits, DoS 2 6-7, DoS 3 8-11.
    for part, (low, high) in zip(parts, ((4, 5), (6, 7), (8, 11))):
        assert part.probability == Fraction(sum(hits.quantity(h) for h in range(low, high + 1)), total)
    assert sum(p.probability for p in parts) == odds.chance("success")
    text = strip_markup(format_odds(odds))
    rows = {m[0]: Fraction(m[1]) for m in re.findall(r"^ +([≤≥]? ?\d+) +(\d+\.\d)% #", text, re.M)}
    line = re.search(r"by Degree of Success: DoS 1 (\S+)%, DoS 2 (\S+)%, DoS 3 (\S+)%", text)
    high = rows["8"] + rows["9"] + rows["≥ 10"]
    assert [Fraction(x) for x in line.groups()] == [rows["4"] + rows["5"], rows["6"] + rows["7"], high]
    assert line.group(1) == line.group(2)  # 4-5 and 6-7 Hits are exactly as likely: equal figures
    success = Fraction(re.search(r"success +(\d+\.\d)%", text).group(1))
    assert success == rows["4"] + rows["5"] + rows["6"] + rows["7"] + high


@pytest.mark.parametrize("active, a_th, other, o_th", [(7, 7, 7, 7), (4, 6, 9, 5), (0, 7, 3, 10), (12, 5, 1, 9)])
def test_opposed_odds_equal_icepool(active, a_th, other, o_th):
    exact = dicecheck.opposed_odds(active, a_th, other, o_th)
    difference = icepool_hits(active, a_th) - icepool_hits(other, o_th)
    total = difference.denominator()
    assert exact["success"] == Fraction(sum(q for k, q in difference.items() if k >= 0), total)
    assert exact["big_botch"] == Fraction(sum(q for k, q in difference.items() if k <= -3), total)
    assert sum(exact["dos"].values()) == 1
    assert sum(p for d, p in exact["dos"].items() if d) == exact["success"]
    assert exact["hits"] == dicecheck.odds(active, a_th, 0)["hits"]


def test_opposed_odds_through_the_system():
    request = SYSTEM.resolve_target(
        SYSTEM.parse("Athletics (Grapple):Athletics (Grapple) Bob", roller=rudolf()), bob())
    odds = SYSTEM.odds(request)
    exact = dicecheck.opposed_odds(7, 7, 7, 7)
    assert odds.chance("success") == exact["success"] and odds.chance("big_botch") == exact["big_botch"]
    assert sum(c.probability for c in odds.chances) == 1


def test_every_outcome_key_of_view_is_a_key_of_odds():
    seen = set()
    for faces in ([6, 6, 6], [6, 6, 1], [1, 1, 1]):
        request, _, view = play("3d(6+):3", faces, numbers_only=True)
        assert view.outcome.key in {c.key for c in SYSTEM.odds(request).chances}
        seen.add(view.outcome.key)
    assert seen == {"success", "failure", "big_botch"}


def test_seeded_rolls_match_the_module():
    request = SYSTEM.parse("10d(6+):3", numbers_only=True)
    assert SYSTEM.roll(request, rng=random.Random(9)).check == dicecheck.roll(10, 6, 3, rng=random.Random(9))


# ---------------------------------------------------------------- the sheet


def test_system_is_usable():
    assert isinstance(SYSTEM, System) and check_system(SYSTEM) is SYSTEM
    assert SYSTEM.key == "dicecheck" and SYSTEM.title == "The Dice Check"
    assert SYSTEM.roll_switches == ("damage",)


def test_sheet_ranges_and_names():
    sheet = SYSTEM.sheet
    defaults = sheet.defaults()
    assert defaults["strength"] == 1 and defaults["swords"] == 0 and defaults["evasion"] == 0
    assert defaults["wounds"] == 0
    assert sheet.match("STR") == "strength" and sheet.match("eva") == "evasion" and sheet.match("GRI") == "grit"
    assert sheet.match("swo") == "swords"
    assert sheet.check_value("strength", 11, {}) == 11
    with pytest.raises(DiceError, match="Strength must be from 1 to 11."):
        sheet.check_value("strength", 12, {})
    with pytest.raises(DiceError, match="Strength must be from 1 to 11."):
        sheet.check_value("strength", 0, {})
    with pytest.raises(DiceError, match="Evasion must be from 0 to 10."):
        sheet.check_value("evasion", 11, {})
    assert sheet.clamp({"strength": 40, "wounds": -2})["strength"] == 11
    assert sheet.state({"wounds": 3}) == {"wounds": 3}


def test_focuses():
    sheet = SYSTEM.sheet
    assert sheet.check_specialty("swords", "  Cut ", {"swords": 1}, ()) == "Cut"
    for skill, name, values, owned, message in (
        ("strength", "Lift", {"strength": 3}, (), "Only Skills have Focuses"),
        ("swords", "Cut", {"swords": 0}, (), "A Focus needs at least 1 training in Swords."),
        ("swords", "Cut", {"swords": 2}, ("cut",), "Swords already has the Focus Cut."),
        ("swords", "C(u)t", {"swords": 2}, (), "Focus names start with a letter"),
    ):
        with pytest.raises(DiceError, match=re.escape(message)):
            sheet.check_specialty(skill, name, values, owned)


def test_sheet_layout_fits_eighty_columns():
    sections = SYSTEM.sheet.layout(dict(RUDOLF, wounds=2), {"swords": ["Cut"], "athletics": ["Grapple"]})
    assert [(s.kind, s.title) for s in sections] == [
        ("columns", "Attributes"), ("line", "Thresholds"), ("columns", "Skills"), ("line", "Focuses"),
        ("line", "Defences"), ("track", "Wounds")]
    assert ("Strength", 4) in sections[0].rows[0][1]
    assert sections[1].text == "STR 7+  DEX 10+  CON 10+  INT 10+  WIS 10+  CHA 10+"
    assert sections[3].text == "Athletics (Grapple), Swords (Cut)"
    assert sections[4].text == "Evasion (EVA) 1   Grit (GRI) 0   Hardness (HAR) 0"
    assert (sections[5].boxes, sections[5].text) == ("XX........", "2/10")
    for section in sections:
        if section.kind == "columns":
            widest = [max(len(label) + 4 for label, _ in column) for _, column in section.rows]
            assert sum(widest) + 2 * (len(section.rows) - 1) <= 80
        else:
            assert len(section.title) + 2 + len(section.text) + len(section.boxes) + 1 <= 80
    display = pytest.importorskip("storyteller_dice.rules.display")
    if hasattr(display, "format_sheet"):
        text = display.format_sheet("Rudolf", "approved", sections, width=80)
        assert all(display.visible_len(line) <= 80 for line in text.split("\n"))


def test_help_lines_fit():
    for text in (SYSTEM.help, SYSTEM.sheet.help(), SYSTEM.roll_usage, SYSTEM.check_usage):
        assert all(len(line) <= 80 for line in text.split("\n"))


@pytest.mark.parametrize("text, faces, target", [
    ("Swords (Cut):EVA Bob", [2, 4, 4, 5, 6, 7, 7, 9, 10], True),
    ("Athletics (Grapple):Athletics (Grapple) Bob", [7] * 14, True),
    ("50d(6+):50", [6] * 50, False),
])
def test_rolls_and_odds_fit_eighty_columns_on_the_display(text, faces, target):
    display = pytest.importorskip("storyteller_dice.rules.display")
    if not hasattr(display, "format_roll"):
        pytest.skip("rules.display has no format_roll yet")
    request, _, view = play(text, faces, roller=rudolf(), target=bob() if target else None)
    for shown in (display.format_roll(view, "Rudolf", comment="a wide cut " * 5, width=80),
                  display.format_odds(SYSTEM.odds(request), width=80)):
        assert all(display.visible_len(line) <= 80 for line in shown.split("\n"))

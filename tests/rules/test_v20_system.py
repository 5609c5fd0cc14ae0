"""V20 behind the seam (rules.v20.system): sheet, parse -> roll -> view -> record, odds. Pure."""

import json
from fractions import Fraction

import icepool
import pytest

from storyteller_dice.rules import engine, v20
from storyteller_dice.rules.engine import RollView, System
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces
from storyteller_dice.rules.v20.system import SYSTEM, V20System, ones_text

# The rules' own column measure (one a code point), whatever a test of the game set before.
pytestmark = pytest.mark.usefixtures("code_point_columns")

SHEET = {"dexterity": 3, "brawl": 2, "firearms": 0, "manipulation": 4, "intimidation": 2, "stealth": 1,
         "occult": 0, "wits": 2, "willpower": 6, "willpower temporary": 4, "humanity": 6, "courage": 3}
SPECIALTIES = {"brawl": ["Grappling"]}


def roller(extra=None, specialties=SPECIALTIES):
    return SYSTEM.roller("Anna", dict(SHEET, **(extra or {})), specialties)


def play(text, faces, switches=(), extra=None, numbers_only=False):
    anna = roller(extra)
    request = SYSTEM.parse(text, frozenset(switches), roller=anna, numbers_only=numbers_only)
    rng = FixedFaces(faces)
    result = SYSTEM.roll(request, anna, rng)
    assert rng.remaining == []
    return request, result, SYSTEM.view(result, request)


def marks(view):
    return [(die.face, sorted(die.marks)) for group in view.groups for die in group.dice]


def test_is_a_system():
    assert isinstance(SYSTEM, V20System) and isinstance(SYSTEM, System)
    assert engine.check_system(SYSTEM) is SYSTEM
    assert (SYSTEM.key, SYSTEM.title) == ("v20", "Classic Storyteller (V20)")
    assert SYSTEM.roll_switches == ("spec", "willpower", "ignorepain", "auto", "retry")
    assert all(len(line) <= 72 for line in SYSTEM.help.splitlines())
    assert all(len(line) <= 72 for line in SYSTEM.sheet.help().splitlines())


# ---------------------------------------------------------------- rolls


def test_dex_brawl_vs_6():
    request, result, view = play("dex+brawl vs 6", [8, 6, 3, 1, 10])
    assert (request.dice, request.target, request.target_given) == (5, 6, True)
    assert (result.successes, result.botch, result.level) == (2, False, "moderate")
    assert view.pool == "Dexterity 3 + Brawl 2 = 5 dice"
    assert view.target == "difficulty 6"
    assert view.score_text == "2 successes"
    assert (view.outcome.key, view.outcome.label, view.outcome.tone) == ("moderate", "moderate success", "good")
    assert marks(view) == [(8, ["success"]), (6, ["cancelled"]), (3, ["fail"]), (1, ["cancels"]),
                           (10, ["success"])]
    assert view.notes == ("one 1 cancelled 1 success",)


def test_default_difficulty_is_6():
    request, result, view = play("dex+brawl", [6, 5, 2, 2, 2])
    assert (request.target, request.target_given) == (6, False)
    assert view.target == "difficulty 6"
    assert (view.score, view.outcome.key, view.outcome.label) == (1, "marginal", "marginal success")


def test_check_numbers_only():
    request, result, view = play("5 vs 7", [7, 7, 7, 7, 10], numbers_only=True)
    assert (request.dice, request.target) == (5, 7)
    assert view.pool == "5 dice"
    assert (view.score, view.outcome.key, view.outcome.tone) == (5, "phenomenal", "triumph")
    with pytest.raises(DiceError, match="only numbers"):
        SYSTEM.parse("dex", roller=roller(), numbers_only=True)
    assert SYSTEM.parse("4+1 vs 3", numbers_only=True).dice == 5  # no roller: no sheet, no state


@pytest.mark.parametrize("typed", ["vs 11", "vs 1", "vs 0", "vs -3", "vs six", "vs 6.5"])
def test_difficulty_out_of_range_is_refused(typed):
    with pytest.raises(DiceError, match="2 to 10|from 2 to 10"):
        SYSTEM.parse(f"dex+brawl {typed}", roller=roller())


def test_difficulty_bounds_accepted():
    assert SYSTEM.parse("dex vs 2", roller=roller()).target == 2
    assert SYSTEM.parse("dex vs 10", roller=roller()).target == 10
    assert SYSTEM.parse("dex vs 010", roller=roller()).target == 10


@pytest.mark.parametrize(
    "faces, score, key, label, tone, note",
    [
        ([1, 1, 3, 5], 0, "botch", "botch", "disaster", "two 1s and no successes to cancel: a botch"),
        ([1, 1, 7, 2], 0, "botch", "botch", "disaster", "one 1 cancelled 1 success; one 1 left over: a botch"),
        ([6, 1, 1, 4], 0, "botch", "botch", "disaster", "one 1 cancelled 1 success; one 1 left over: a botch"),
        ([3, 1, 1, 4], 0, "botch", "botch", "disaster", "two 1s and no successes to cancel: a botch"),
        ([6, 7, 1, 1], 0, "failure", "failure", "bad", "two 1s cancelled 2 successes"),
        ([2, 3, 4, 5], 0, "failure", "failure", "bad", None),
        ([6, 7, 8, 2], 3, "complete", "complete success", "good", None),
        ([6, 7, 8, 9], 4, "exceptional", "exceptional success", "triumph", None),
    ],
)
def test_levels_and_botches(faces, score, key, label, tone, note):
    _, result, view = play("dex+stealth", faces)
    assert (view.score, view.outcome.key, view.outcome.label, view.outcome.tone) == (score, key, label, tone)
    assert view.notes == ((note,) if note else ())
    assert view.score == result.successes


def test_ones_text():
    assert [ones_text(n) for n in (1, 2, 10, 11)] == ["one 1", "two 1s", "ten 1s", "11 1s"]


def test_seed_botch_marks():
    _, _, view = play("dex+stealth", [1, 1, 3, 5])
    assert marks(view) == [(1, ["one"]), (1, ["one"]), (3, ["fail"]), (5, ["fail"])]
    _, _, view = play("2+1", [1, 1, 7], numbers_only=True)
    assert marks(view) == [(1, ["cancels"]), (1, ["one"]), (7, ["cancelled"])]


# ---------------------------------------------------------------- Specialties


def test_specialty_named_is_automatic_and_adds_no_die():
    request, result, view = play("dex+brawl(grappling)", [10, 10, 1, 5, 2])
    assert request.option("spec") and request.dice == 5
    assert result.specialty and result.raw_successes == 4 and result.successes == 3
    assert view.pool == "Dexterity 3 + Brawl 2 (Grappling) = 5 dice"
    assert marks(view) == [(10, ["cancelled", "double", "success"]), (10, ["double", "success"]),
                           (1, ["cancels"]), (5, ["fail"]), (2, ["fail"])]
    assert view.notes == ("Specialty (Grappling): 10s count twice", "one 1 cancelled 1 success")
    assert (view.score, view.outcome.key) == (3, "complete")


def test_specialty_with_a_space_and_a_prefix():
    assert SYSTEM.parse("dex + brawl (grap) vs 7", roller=roller()).option("spec")


def test_specialty_switch_explicit():
    request, result, view = play("dex+brawl", [10, 3, 3, 3, 3], switches={"spec"})
    assert result.specialty and view.score == 2
    assert view.notes == ("Specialty: 10s count twice",)
    assert marks(view)[0] == (10, ["double", "success"])


def test_no_specialty_no_double():
    _, result, view = play("dex+brawl", [10, 3, 3, 3, 3])
    assert not result.specialty and view.score == 1 and marks(view)[0] == (10, ["success"])


def test_specialty_not_owned_refused():
    with pytest.raises(DiceError, match="no Brawl Specialty 'boxing'"):
        SYSTEM.parse("dex+brawl(boxing)", roller=roller())
    with pytest.raises(DiceError, match="no Stealth Specialty"):
        SYSTEM.parse("dex+stealth(shadows)", roller=roller())
    with pytest.raises(DiceError, match="cannot be subtracted"):
        SYSTEM.parse("dex-brawl(grappling)", roller=roller())
    with pytest.raises(DiceError, match="no Specialties"):
        SYSTEM.parse("dex+potence(x)", roller=roller())


# ---------------------------------------------------------------- Willpower and costs


def test_willpower_success_cannot_be_cancelled_and_prevents_the_botch():
    request, result, view = play("dex+stealth", [1, 1, 3, 5], switches={"willpower"})
    assert request.option("willpower")
    assert SYSTEM.costs(request) == {"willpower temporary": 1}
    assert (result.successes, result.botch) == (1, False)
    assert (view.outcome.key, view.score_text) == ("marginal", "1 success")
    assert view.notes == ("two 1s and no successes to cancel, but Willpower's success stands: no botch",
                          "Willpower: +1 success that cannot be cancelled")


def test_costs_nothing_without_willpower():
    assert SYSTEM.costs(SYSTEM.parse("dex", roller=roller())) == {}


def test_willpower_refused_without_points_left():
    with pytest.raises(DiceError, match="needs 1 temporary Willpower and you have 0 left"):
        SYSTEM.parse("dex", {"willpower"}, roller=roller({"willpower temporary": 0}))


# ---------------------------------------------------------------- defaulting


def test_default_talent_rolls_attribute_alone():
    request, result, view = play("wits+alertness", [6, 6])
    assert (request.dice, request.target) == (2, 6)
    assert view.pool == "Wits 2 + Alertness 0 = 2 dice"
    assert view.notes == ("untrained Talent Alertness: the Attribute alone, no penalty",)


def test_default_skill_at_plus_one_difficulty():
    request, result, view = play("dex+firearms vs 6", [7, 6, 9])
    assert (request.dice, request.target, request.get("base_difficulty")) == (3, 7, 6)
    assert view.target == "difficulty 7"
    assert view.notes == ("untrained Skill Firearms: difficulty +1",)
    assert marks(view) == [(7, ["success"]), (6, ["fail"]), (9, ["success"])]


def test_default_skill_stops_at_10():
    request = SYSTEM.parse("dex+firearms vs 10", roller=roller())
    assert request.target == 10
    assert request.get("notes") == ("untrained Skill Firearms: difficulty +1", "difficulty stops at 10")


def test_default_knowledge_refused():
    with pytest.raises(DiceError, match="no dots in the Knowledge Occult: a Knowledge cannot be attempted"):
        SYSTEM.parse("int+occult", roller=roller())


def test_trained_ability_does_not_default():
    request = SYSTEM.parse("dex+stealth vs 6", roller=roller())
    assert (request.dice, request.target, request.get("notes")) == (4, 6, ())


def test_rating_only_pools():
    request, _, view = play("willpower", [6] * 6)
    assert view.pool == "Willpower 6 = 6 dice"
    assert SYSTEM.parse("courage+2", roller=roller()).dice == 5
    with pytest.raises(DiceError, match="Humanity roll uses the rating alone"):
        SYSTEM.parse("humanity+wits", roller=roller())
    with pytest.raises(DiceError, match="Willpower roll uses the rating alone"):
        SYSTEM.parse("dex+wp", roller=roller())


# ---------------------------------------------------------------- wounds


def test_wound_penalty_off_the_pool_and_shown():
    anna = roller({"health lethal": 3})
    assert (anna.get("wound_penalty"), anna.get("health_level")) == (-1, "Injured")
    request, result, view = play("dex+brawl vs 6", [6, 2, 2, 2], extra={"health lethal": 3})
    assert request.dice == 4
    assert view.pool == "Dexterity 3 + Brawl 2 - 1 Injured = 4 dice"
    assert view.notes == ("Injured: -1 die",)


def test_wound_penalty_on_check_and_crippled():
    request, _, view = play("8", [6, 6, 6], extra={"health bashing": 6}, numbers_only=True)
    assert request.dice == 3 and view.pool == "8 - 5 Crippled = 3 dice"
    assert view.notes == ("Crippled: -5 dice",)


def test_wound_penalty_leaves_no_dice():
    with pytest.raises(DiceError, match="Dexterity 3 - 5 Crippled = -2 dice: no dice are left to roll"):
        SYSTEM.parse("dex", roller=roller({"health aggravated": 6}))


def test_incapacitated_cannot_roll():
    anna = roller({"health bashing": 7})
    assert anna.get("incapacitated") is True
    with pytest.raises(DiceError, match="Incapacitated character cannot act"):
        SYSTEM.parse("dex+brawl", roller=anna)
    with pytest.raises(DiceError, match="Incapacitated"):
        SYSTEM.parse("3", {"ignorepain"}, roller=anna, numbers_only=True)


def test_ignorepain_costs_willpower():
    request, _, view = play("dex+brawl", [6] * 5, switches={"ignorepain"}, extra={"health lethal": 4})
    assert request.dice == 5 and view.pool == "Dexterity 3 + Brawl 2 = 5 dice"
    assert SYSTEM.costs(request) == {"willpower temporary": 1}
    assert view.notes[0] == "Wounded: -2 dice ignored (1 Willpower)"
    with pytest.raises(DiceError, match="no wound penalty"):
        SYSTEM.parse("dex", {"ignorepain"}, roller=roller())


def test_one_willpower_an_action():
    """/willpower with /ignorepain would spend 2 points on one action: refused, odds too."""
    wounded = roller({"health lethal": 4, "willpower": 5, "willpower temporary": 5})
    message = "At most 1 Willpower can be spent on an action: use /willpower or /ignorepain, not both."
    for numbers_only in (False, True):
        with pytest.raises(DiceError) as refused:
            SYSTEM.parse("dex+brawl" if not numbers_only else "5", {"ignorepain", "willpower"}, roller=wounded,
                         numbers_only=numbers_only)
        assert str(refused.value) == message


# ---------------------------------------------------------------- /auto and /retry


def test_automatic_success():
    request = SYSTEM.parse("dex+brawl vs 5", {"auto"}, roller=roller())
    result = SYSTEM.roll(request, roller(), FixedFaces([]))
    view = SYSTEM.view(result, request)
    assert view.groups == () and view.score == 1
    assert (view.outcome.key, view.outcome.label) == ("marginal", "marginal success")
    assert view.notes == ("automatic success: no dice rolled",)
    odds = SYSTEM.odds(request)
    assert odds.chance("marginal") == 1 and odds.distribution == ((1, Fraction(1)),)


def test_automatic_success_refused():
    with pytest.raises(DiceError, match="pool of at least the difficulty: 2 dice against difficulty 6"):
        SYSTEM.parse("2 vs 6", {"auto"}, numbers_only=True)
    with pytest.raises(DiceError, match="not both"):
        SYSTEM.parse("6 vs 6", {"auto", "willpower"}, numbers_only=True)
    with pytest.raises(DiceError, match="at least the difficulty"):  # the wound penalty counts
        SYSTEM.parse("dex+brawl vs 5", {"auto"}, roller=roller({"health lethal": 3}))


def test_retry_penalty_from_the_roller_state():
    import dataclasses
    anna = roller()
    anna = dataclasses.replace(anna, state=dict(anna.state, retry_failures=2))
    request = SYSTEM.parse("dex+stealth vs 6", {"retry"}, roller=anna)
    assert request.target == 8
    assert request.get("notes") == ("retry after 2 failed attempts: difficulty +2",)
    assert SYSTEM.parse("dex+stealth vs 6", roller=anna).target == 6  # only when asked
    from storyteller_dice.rules.v20.system import action_key, failures_after
    assert action_key(request) == "dexterity+stealth"
    result = SYSTEM.roll(request, anna, FixedFaces([8, 2, 2, 2]))
    assert failures_after(2, result) == 0
    assert failures_after(2, v20.evaluate([2], 6)) == 3


# ---------------------------------------------------------------- record


def test_record_is_json_and_round_trips():
    request, result, view = play("dex+brawl(grappling) vs 7", [10, 1, 7, 3, 1], extra={"health bashing": 1})
    record = json.loads(json.dumps(SYSTEM.record(result, request)))
    assert RollView.from_dict(record["view"]) == view
    assert {key: record[key] for key in ("dice", "difficulty", "base_difficulty", "pool", "specialty", "willpower",
                                         "automatic", "wound_penalty", "successes", "botch", "level")} == {
        "dice": [10, 1, 7, 3, 1], "difficulty": 7, "base_difficulty": 7, "pool": 5, "specialty": True,
        "willpower": False, "automatic": False, "wound_penalty": 0, "successes": 1, "botch": False,
        "level": "marginal"}
    assert SYSTEM.replay(record) == result


def test_record_without_request():
    result = v20.evaluate([6, 1], 6)
    record = json.loads(json.dumps(SYSTEM.record(result)))
    assert record["view"]["pool"] == "2 dice" and record["view"]["outcome"]["key"] == "failure"


# ---------------------------------------------------------------- odds


def _icepool_net(pool, difficulty, specialty, willpower):
    faces = [-1] + [0] * (difficulty - 2) + [1] * (10 - difficulty) + [2 if specialty else 1]
    total = icepool.Die(faces).pool(pool).sum() if pool > 1 else icepool.Die(faces)
    return total


@pytest.mark.parametrize("text, switches, extra", [
    ("dex+brawl vs 6", (), None),
    ("dex+brawl(grappling) vs 8", (), None),
    ("dex+firearms vs 5", ("willpower",), None),
    ("dex+brawl vs 3", ("spec", "willpower"), {"health lethal": 2}),
    ("20 vs 9", (), None),
])
def test_odds_are_the_rules_and_sum_to_one(text, switches, extra):
    anna = roller(extra)
    request = SYSTEM.parse(text, frozenset(switches), roller=anna, numbers_only=text[0].isdigit())
    view = SYSTEM.odds(request, anna)
    exact = v20.odds(request.dice, request.target, request.option("spec"), request.option("willpower"))
    assert [c.key for c in view.chances] == ["botch", "failure", "marginal", "moderate", "complete",
                                              "exceptional", "phenomenal"]
    assert sum(c.probability for c in view.chances) == 1
    assert view.distribution == tuple(exact["distribution"].items())
    assert view.chance("botch") == exact["botch"]
    assert 1 - view.chance("botch") - view.chance("failure") == exact["success"]
    assert view.chance("phenomenal") == sum(p for net, p in exact["distribution"].items() if net >= 5)
    # icepool as an independent oracle: the sum D of per-die worths
    total = _icepool_net(request.dice, request.target, request.option("spec"), request.option("willpower"))
    bump = int(request.option("willpower"))
    below = Fraction(total.probability("<", 0))
    assert view.chance("botch") == (0 if bump else below)
    net = total.map(lambda d: max(0, d) + bump)
    for level in range(1, 5):
        assert view.chance(v20.LEVELS[level]) == Fraction(net.probability("==", level))
    assert view.chance("phenomenal") == Fraction(net.probability(">=", 5))
    assert view.target == f"difficulty {request.target}"
    assert view.notes[-1].startswith("expected net successes ")


def test_odds_notes_carry_the_adjustments():
    anna = roller({"health lethal": 3})
    view = SYSTEM.odds(SYSTEM.parse("dex+firearms", {"willpower"}, roller=anna), anna)
    assert view.pool == "Dexterity 3 + Firearms 0 - 1 Injured = 2 dice"
    assert view.notes[:3] == ("untrained Skill Firearms: difficulty +1", "Injured: -1 die",
                              "Willpower: +1 success that cannot be cancelled")
    assert view.chance("botch") == 0


# ---------------------------------------------------------------- the sheet


def test_sheet_defaults_and_clamp():
    sheet = SYSTEM.sheet
    values = sheet.clamp({})
    assert values["strength"] == 1 and values["brawl"] == 0 and values["humanity"] == 7
    assert values["willpower"] == 1 and values["willpower temporary"] == 1
    assert values["generation"] == 13 and values["blood pool"] == 10
    assert sheet.clamp({"willpower": 7})["willpower temporary"] == 7  # unset: full
    assert sheet.clamp({"willpower": 3, "willpower temporary": 5})["willpower temporary"] == 3
    assert sheet.clamp({"generation": 8})["blood pool"] == 15
    assert sheet.clamp({"generation": 13, "blood pool": 15})["blood pool"] == 10
    kept = sheet.clamp({"health bashing": 5, "health lethal": 4, "health aggravated": 2})
    assert (kept["health aggravated"], kept["health lethal"], kept["health bashing"]) == (2, 4, 1)


def test_sheet_match_and_ranges():
    sheet = SYSTEM.sheet
    assert [sheet.match(t) for t in ("str", "int", "per", "app", "wp", "twp", "path", "bp", "gen", "agg",
                                     "animal ken", "self control", "willpower temp")] == [
        "strength", "intelligence", "perception", "appearance", "willpower", "willpower temporary", "humanity",
        "blood pool", "generation", "health aggravated", "animal ken", "self control", "willpower temporary"]
    with pytest.raises(DiceError, match="Health is a track"):
        sheet.match("health")
    values = sheet.clamp({"willpower": 5})
    assert sheet.check_value("willpower temporary", 5, values) == 5
    for trait, bad, message in (("strength", 0, "from 1 to 5"), ("brawl", 6, "from 0 to 5"),
                                ("humanity", 11, "from 0 to 10"), ("willpower", 11, "from 1 to 10"),
                                ("willpower temporary", 6, "at most the permanent"),
                                ("blood pool", 11, "Generation 13"), ("generation", 3, "from 4 to 15")):
        with pytest.raises(DiceError, match=message):
            sheet.check_value(trait, bad, values)
    with pytest.raises(DiceError, match="7 health levels"):
        sheet.check_value("health lethal", 3, {"health bashing": 5})
    assert sheet.staff_only == {"health bashing", "health lethal", "health aggravated"}


def test_each_ability_knows_its_category():
    from storyteller_dice.rules.v20.system import ABILITIES, CATEGORY, DISCIPLINES
    assert {len(names) for names in ABILITIES.values()} == {10}
    assert CATEGORY["alertness"] == "talent" and CATEGORY["animal ken"] == "skill"
    assert CATEGORY["technology"] == "knowledge"
    assert len(DISCIPLINES) == 17 and "thaumaturgy" in DISCIPLINES


def test_specialties_on_the_sheet():
    sheet = SYSTEM.sheet
    assert sheet.check_specialty("brawl", "  Dirty  Fighting ", SHEET, ()) == "Dirty Fighting"
    assert sheet.check_specialty("dexterity", "Quick", SHEET, ()) == "Quick"
    with pytest.raises(DiceError, match="one dot in Firearms"):
        sheet.check_specialty("firearms", "Pistols", SHEET, ())
    with pytest.raises(DiceError, match="already has"):
        sheet.check_specialty("brawl", "grappling", SHEET, ("Grappling",))
    with pytest.raises(DiceError, match="neither"):
        sheet.check_specialty("potence", "x", SHEET, ())


def test_state():
    state = roller({"health lethal": 2, "health aggravated": 1, "generation": 9, "blood pool": 8}).state
    assert state == {"wound_penalty": -1, "incapacitated": False, "health_level": "Injured",
                     "health": {"bashing": 0, "lethal": 2, "aggravated": 1}, "willpower_left": 4,
                     "willpower_max": 6, "blood_pool": 8, "blood_pool_max": 14, "blood_per_turn": 2,
                     "humanity": 6, "generation": 9}
    assert roller().state["wound_penalty"] == 0 and roller().state["health_level"] == "Healthy"


def _section_widths(section):
    """Rough visible widths of a section as a display renders it (title, boxes, text)."""
    if section.kind == "columns":
        columns = [max([len(group)] + [len(label) + 3 for label, _ in rows]) for group, rows in section.rows]
        return [sum(columns) + 2 * (len(columns) - 1)]
    if section.kind == "track":
        return [len(section.title) + 2 + len(section.boxes) + 2 + len(section.text)]
    return [len(section.title) + 2 + len(section.text)]


def test_layout():
    values = dict(SHEET, **{"health bashing": 1, "health lethal": 2, "health aggravated": 1, "dominate": 3,
                            "celerity": 1})
    sections = SYSTEM.sheet.layout(values, {"brawl": ["Grappling"], "dexterity": ["Quick"]})
    kinds = [(s.kind, s.title) for s in sections]
    assert kinds == [("columns", "Attributes"), ("columns", "Abilities"), ("line", "Specialties"),
                     ("line", "Disciplines"), ("line", "Virtues"), ("line", "Humanity"), ("line", "Blood Pool"),
                     ("track", "Willpower"), ("track", "Health")]
    attributes, abilities = sections[0], sections[1]
    assert [group for group, _ in attributes.rows] == ["Physical", "Social", "Mental"]
    assert attributes.rows[1][1] == (("Charisma", 1), ("Manipulation", 4), ("Appearance", 1))
    assert [group for group, _ in abilities.rows] == ["Talents", "Skills", "Knowledges"]
    assert sections[2].text == "Dexterity (Quick), Brawl (Grappling)"
    assert sections[3].text == "Celerity 1, Dominate 3"
    assert sections[4].text == "Conscience 1   Self-Control 1   Courage 3"
    assert sections[6].text == "10/10 (up to 1 a turn)"
    assert (sections[7].boxes, sections[7].text) == ("XXXX..", "4/6 left")
    assert (sections[8].boxes, sections[8].text) == ("*XX/...", "Wounded: -2 dice (Aggravated 1, Lethal 2, "
                                                                "Bashing 1)")
    assert all(width <= 80 for section in sections for width in _section_widths(section))


def test_layout_health_extremes():
    healthy = SYSTEM.sheet.layout({}, {})[-1]
    assert (healthy.boxes, healthy.text) == (".......", "Healthy (Aggravated 0, Lethal 0, Bashing 0)")
    down = SYSTEM.sheet.layout({"health aggravated": 7}, {})[-1]
    assert (down.boxes, down.text) == ("*******", "Incapacitated: cannot act (Aggravated 7, Lethal 0, Bashing 0)")
    hurt = SYSTEM.sheet.layout({"health bashing": 2}, {})[-1]
    assert hurt.text.startswith("Hurt: -1 die")


def test_format_sheet_fits_80_columns_when_the_display_exists():
    display = pytest.importorskip("storyteller_dice.rules.display")
    values = dict(SHEET, **{"health lethal": 3, "dominate": 3})
    text = display.format_sheet("Anna", "approved", SYSTEM.sheet.layout(values, SPECIALTIES), width=80)
    assert all(display.visible_len(line) <= 80 for line in text.splitlines())
    assert "Injured" in text


def test_module_is_pure_and_imports_no_v5():
    import ast
    import pathlib
    import storyteller_dice.rules.v20.system as module

    source = pathlib.Path(module.__file__)
    tree = ast.parse(source.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(("." * node.level) + (node.module or ""))
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert not any("v5" in name for name in imported), imported
    assert not any(name.split(".")[0] in ("django", "evennia", "twisted") for name in imported)


def test_seeded_contract_parse_roll_view_record_replay():
    import random
    anna = roller()
    for seed in range(20):
        request = SYSTEM.parse("dex+brawl(grappling)+40 vs 7", roller=anna)
        result = SYSTEM.roll(request, anna, random.Random(seed))
        record = json.loads(json.dumps(SYSTEM.record(result, request)))
        assert SYSTEM.replay(record) == result
        view = RollView.from_dict(record["view"])
        assert view == SYSTEM.view(result, request) and len(view.faces) == 45
        standing = sum(2 if d.has("double") and not d.has("cancelled") else 1 if d.has("success") else 0
                       for d in view.groups[0].dice)
        assert standing == view.score  # the marks add up to the score

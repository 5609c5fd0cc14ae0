"""
Seyruun behind the seam (`rules.seyruun.system`): parse -> roll with explicit faces -> view ->
record, exact odds against `rules.seyruun` and icepool, the sheet. Plain functions: no database.
"""

import json
import random
from fractions import Fraction

import icepool
import pytest

from storyteller_dice.rules import seyruun
from storyteller_dice.rules.engine import (CHANCE, DOUBLE, FAIL, ONE, SUCCESS, TEN, DiceGroup, Die, Outcome, Roller,
                          RollRequest, RollView, check_system)
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.randomness import FixedFaces
from storyteller_dice.rules.seyruun.system import (ENHANCED_NOTE, SYSTEM, SeyruunPool, SeyruunSheet, SeyruunSystem,
                                  read_difficulty)

# The rules' own column measure (one a code point), whatever a test of the game set before.
pytestmark = pytest.mark.usefixtures("code_point_columns")

SHEET = SYSTEM.sheet
# The rules' thief: Dexterity 3, Stealth 3 (and the boots, +1, typed in the pool).
ANNA = {"dexterity": 3, "stealth": 3, "composure": 2, "resolve": 3, "charisma": 4, "dominate": 2,
        "wits": 2, "strength": 2, "brawl": 2}


def roller(**changes):
    values = dict(ANNA)
    values.update(changes)
    return SYSTEM.roller("Anna", values, {})


def play(text, faces, switches=(), who=None, numbers_only=False):
    """parse -> roll with exactly these faces -> (request, result, view); every face used."""
    who = roller() if who is None else who
    request = SYSTEM.parse(text, frozenset(switches), who, numbers_only=numbers_only)
    rng = FixedFaces(faces)
    result = SYSTEM.roll(request, who, rng)
    assert rng.remaining == []
    return request, result, SYSTEM.view(result, request)


def marks(view):
    return [(die.face, set(die.marks)) for group in view.groups for die in group.dice]


# ---------------------------------------------------------------- the rules' syntax


def test_seed_example_dexterity_stealth_boots_is_seven_dice():
    request, result, view = play("dex+stealth+1 vs 2", [6, 7, 2, 3, 4, 5, 2])
    assert request.dice == 7
    assert request.target == 2 and request.target_given
    assert view == RollView(
        system="seyruun",
        pool="Dexterity 3 + Stealth 3 + 1 = 7 dice",
        target="vs 2",
        groups=(DiceGroup("Dice", (
            Die(6, frozenset({SUCCESS})), Die(7, frozenset({SUCCESS})), Die(2, frozenset({FAIL})),
            Die(3, frozenset({FAIL})), Die(4, frozenset({FAIL})), Die(5, frozenset({FAIL})),
            Die(2, frozenset({FAIL})))),),
        score=2,
        noun=("success", "successes"),
        outcome=Outcome("solid", "solid", "good"),
        notes=(),
    )


def test_full_names_and_spaces_read_the_same():
    request = SYSTEM.parse("Dexterity + Stealth + 1 vs 2", frozenset(), roller())
    assert request.dice == 7 and request.pool.describe() == "Dexterity 3 + Stealth 3 + 1 = 7 dice"


def test_no_difficulty_is_a_simple_task_and_shows_no_target():
    request, result, view = play("dex+stealth", [6, 1, 1, 1, 1, 1])
    assert request.target == 1 and not request.target_given
    assert view.target == ""
    assert view.outcome == Outcome("just_enough", "just enough", "good")
    assert SYSTEM.record(result, request)["difficulty_given"] is False


@pytest.mark.parametrize("word, needed", [("simple", 1), ("Moderate", 2), ("complex", 3), ("EPIC", 4),
                                          ("legendary", 5), ("3", 3), ("20", 20), ("007", 7)])
def test_difficulty_words_and_numbers(word, needed):
    assert read_difficulty(word) == needed
    assert SYSTEM.parse(f"dex+stealth vs {word}", frozenset(), roller()).target == needed


@pytest.mark.parametrize("typed", ["0", "21", "-1", "hard", "2.5"])
def test_bad_difficulty_refused(typed):
    with pytest.raises(DiceError):
        SYSTEM.parse(f"dex+stealth vs {typed}", frozenset(), roller())


def test_check_plain_number():
    request, result, view = play("4 vs 2", [10, 3, 4, 5], numbers_only=True)
    assert view.pool == "4 dice" and view.target == "vs 2"
    assert view.score == 2 and view.outcome.key == "solid"
    assert marks(view)[0] == (10, {SUCCESS, DOUBLE, TEN})


def test_check_arithmetic_and_one_die():
    request, result, view = play("3-2", [8], numbers_only=True)
    assert view.pool == "3 - 2 = 1 die"
    assert view.outcome.key == "just_enough"


def test_check_refuses_trait_names():
    with pytest.raises(DiceError, match="only numbers"):
        SYSTEM.parse("dex+stealth", frozenset(), roller(), numbers_only=True)


def test_roll_with_no_sheet_takes_numbers_only():
    request = SYSTEM.parse("5 vs 2")
    assert request.dice == 5
    with pytest.raises(DiceError, match="only numbers"):
        SYSTEM.parse("dex+stealth")


# ---------------------------------------------------------------- the chance die


def test_check_zero_vs_one_is_a_chance_die_and_its_10_succeeds():
    request, result, view = play("0 vs 1", [10], numbers_only=True)
    assert view.groups == (DiceGroup("Chance die", (Die(10, frozenset({CHANCE, SUCCESS, TEN})),)),)
    assert view.pool == "0: a chance die"
    assert view.score == 1 and view.outcome == Outcome("just_enough", "just enough", "good")
    assert view.notes == ("chance die: 10 succeeds, 1 is a dramatic botch",)
    assert result.result.chance


def test_chance_die_1_is_a_dramatic_botch():
    _, _, view = play("0 vs 1", [1], numbers_only=True)
    assert marks(view) == [(1, {CHANCE, ONE})]
    assert view.outcome == Outcome("dramatic_botch", "dramatic botch", "disaster")


@pytest.mark.parametrize("face", range(2, 10))
def test_chance_die_2_to_9_fails(face):
    _, _, view = play("0 vs 1", [face], numbers_only=True)
    assert marks(view) == [(face, {CHANCE, FAIL})]
    assert view.outcome.key == "failure" and view.score == 0


def test_chance_die_10_cannot_make_two_successes():
    _, _, view = play("0 vs 2", [10], numbers_only=True)
    assert view.score == 1 and view.outcome.key == "failure"


def test_penalties_below_zero_roll_a_chance_die():
    _, _, view = play("dex+stealth-7 vs 1", [1])
    assert view.pool == "Dexterity 3 + Stealth 3 - 7 = -1: a chance die"
    assert view.outcome.key == "dramatic_botch"


# ---------------------------------------------------------------- willpower


def test_willpower_switch_adds_three_dice_before_rolling():
    request, result, view = play("4 vs 2", [1, 2, 3, 6, 6, 4, 5], switches={"willpower"}, numbers_only=True)
    assert request.dice == 7 and request.option("willpower")
    assert view.pool == "4 + Willpower 3 = 7 dice"
    assert view.notes == ("1 Willpower spent: +3 dice",)
    assert SYSTEM.costs(request) == {"willpower_left": 1}


@pytest.mark.parametrize("ending", ["/willpower", "/wp", " / Willpower ", "/WP"])
def test_willpower_ending(ending):
    request = SYSTEM.parse(f"dex+stealth vs 2{ending}", frozenset(), roller())
    assert request.dice == 9 and request.option("willpower") and request.target == 2
    assert request.text == "dex+stealth vs 2"


def test_no_willpower_no_cost():
    assert SYSTEM.costs(SYSTEM.parse("dex+stealth", frozenset(), roller())) == {}


def test_willpower_refused_when_none_left():
    spent = roller(**{"willpower spent": 5})
    assert spent.state["willpower_left"] == 0
    with pytest.raises(DiceError, match="no Willpower left"):
        SYSTEM.parse("dex+stealth", frozenset({"willpower"}), spent)
    SYSTEM.parse("dex+stealth", frozenset(), spent)  # rolling without it is fine


def test_willpower_takes_no_number():
    with pytest.raises(DiceError, match="takes no number"):
        SYSTEM.parse("dex+stealth/wp 3", frozenset(), roller())


# ---------------------------------------------------------------- pool rules


def test_untrained_rolls_the_attribute_less_one_die():
    request, _, view = play("dex+athletics vs 1", [6, 1])
    assert request.dice == 2
    assert view.pool == "Dexterity 3 + Athletics 0 - untrained 1 = 2 dice"
    assert view.notes == ("untrained: -1 die",)


def test_attribute_alone_is_untrained():
    request = SYSTEM.parse("cha", frozenset(), roller())
    assert request.dice == 3 and request.pool.untrained and request.pool.attribute == 4


def test_power_stands_in_for_the_skill():
    request, _, view = play("cha+dominate vs 2", [6, 6, 6, 6, 6, 6])
    assert view.pool == "Charisma 4 + Dominate 2 = 6 dice"
    assert view.outcome.key == "supernatural_brilliance" and view.score == 6
    assert not request.pool.untrained


def test_power_without_dots_cannot_be_rolled():
    with pytest.raises(DiceError, match="no dots in Elemental Core"):
        SYSTEM.parse("int+elemental", frozenset(), roller())


def test_two_attributes_for_initiative():
    request = SYSTEM.parse("wits+dex", frozenset(), roller())
    assert request.dice == 5 and request.pool.attribute == 2 and not request.pool.untrained


def test_willpower_in_a_pool_counts_its_maximum():
    request = SYSTEM.parse("res+willpower", frozenset(), roller(**{"willpower spent": 4}))
    assert request.dice == 3 + 5
    assert request.pool.describe() == "Resolve 3 + Willpower 5 = 8 dice"


def test_skill_first_is_fine_and_the_attribute_is_the_base():
    request = SYSTEM.parse("stealth+dex", frozenset(), roller())
    assert request.dice == 6 and request.pool.attribute == 3


@pytest.mark.parametrize("text, message", [
    ("stealth", "starts from an Attribute"),
    ("dex+stealth+athletics", "one Skill or Power"),
    ("dex-stealth", "cannot be subtracted"),
    ("dex+stealth(boots)", "no Specialties"),
    ("dex+nonsense", "no trait called"),
    ("dex+", "ends with an operator"),
    ("vs 2", "before 'vs'"),
])
def test_bad_pools_refused(text, message):
    with pytest.raises(DiceError, match=message):
        SYSTEM.parse(text, frozenset(), roller())


def test_external_bonuses_capped_at_five_say_what_was_cut():
    request, _, view = play("str+brawl+3+4", [6] * 9)
    assert request.dice == 9
    assert view.pool == "Strength 2 + Brawl 2 + 3 + 4 - bonus cut 2 = 9 dice"
    assert view.notes == ("external bonuses +7 capped at +5 (2 dice cut)",)


def test_bonus_of_exactly_five_is_not_cut():
    request = SYSTEM.parse("str+brawl+5", frozenset(), roller())
    assert request.dice == 9 and request.pool.bonus_cut == 0 and request.pool.notes() == ()


def test_penalty_numbers_are_taken_off():
    request = SYSTEM.parse("dex+stealth+2-3", frozenset(), roller())
    assert request.dice == 5


def test_ten_die_cap_with_overflow_note():
    request, result, view = play("dex+stealth+5 vs 3/wp", [6] * 10)
    assert request.dice == 14
    assert len(view.faces) == 10
    assert view.pool == "Dexterity 3 + Stealth 3 + 5 + Willpower 3 = 14 dice (10 rolled)"
    assert view.notes == ("1 Willpower spent: +3 dice", "4 dice overflow (for damage and secondary effects)")
    assert SYSTEM.record(result, request)["overflow"] == 4


def test_one_die_overflow_singular():
    _, _, view = play("11", [7] * 10, numbers_only=True)
    assert view.notes == ("1 die overflow (for damage and secondary effects)",)


@pytest.mark.parametrize("text", ["51", "30+30", "45+4/wp"])
def test_pools_above_fifty_refused(text):
    with pytest.raises(DiceError, match="limited to 50"):
        SYSTEM.parse(text, frozenset(), roller(), numbers_only=True)


def test_fifty_is_allowed():
    assert SYSTEM.parse("50", frozenset(), roller(), numbers_only=True).dice == 50


# ---------------------------------------------------------------- wounds and multi-action


@pytest.mark.parametrize("level, name, penalty", [(1, "Light", 1), (2, "Moderate", 2), (3, "Severe", 3),
                                                  (4, "Crippled", 5)])
def test_wound_penalty_on_every_pool(level, name, penalty):
    hurt = roller(wound=level)
    assert hurt.state["wound"] == name.lower() and hurt.state["wound_penalty"] == penalty
    request = SYSTEM.parse("dex+stealth+1", frozenset(), hurt)
    assert request.dice == 7 - penalty
    assert request.pool.describe() == f"Dexterity 3 + Stealth 3 + 1 - {name} wound {penalty} = {7 - penalty} dice"
    die_word = "die" if penalty == 1 else "dice"
    assert request.pool.notes() == (f"{name} wound: -{penalty} {die_word}",)
    assert SYSTEM.parse("4", frozenset(), hurt, numbers_only=True).dice == 4 - penalty


def test_crippled_check_of_four_is_a_chance_die():
    _, _, view = play("4 vs 1", [10], who=roller(wound=4), numbers_only=True)
    assert view.pool == "4 - Crippled wound 5 = -1: a chance die"
    assert view.notes == ("Crippled wound: -5 dice", "chance die: 10 succeeds, 1 is a dramatic botch")
    assert view.outcome.key == "just_enough"


def test_multi_switch_is_two_actions():
    request, _, view = play("dex+brawl vs 2", [6, 6, 1], switches={"multi"})
    assert request.dice == 3 and request.get("actions") == 2
    assert view.pool == "Dexterity 3 + Brawl 2 - multi-action 2 = 3 dice"
    assert view.notes == ("2 actions: -2 dice",)


@pytest.mark.parametrize("ending, dice", [("/multi 3", 1), ("/multi", 3), ("/MULTI 2", 3), ("/multi 3/wp", 4),
                                          ("/wp/multi 3", 4)])
def test_multi_ending(ending, dice):
    request = SYSTEM.parse(f"dex+brawl vs 2{ending}", frozenset(), roller())
    assert request.dice == dice and request.target == 2


@pytest.mark.parametrize("ending", ["/multi 1", "/multi 11", "/multi x", "/multi 0"])
def test_multi_bad_counts(ending):
    with pytest.raises(DiceError, match="actions"):
        SYSTEM.parse(f"dex+brawl{ending}", frozenset(), roller())


# ---------------------------------------------------------------- outcomes and marks


@pytest.mark.parametrize("faces, difficulty, key, label, tone", [
    ([10, 10, 6, 6], 1, "supernatural_brilliance", "supernatural brilliance", "triumph"),
    ([10, 6, 6, 2], 1, "heroic", "heroic", "good"),
    ([10, 6, 1, 2], 3, "solid", "solid", "good"),
    ([10, 1, 1, 2], 2, "solid", "solid", "good"),
    ([6, 1, 1, 2], 1, "just_enough", "just enough", "good"),
    ([6, 1, 1, 2], 2, "failure", "failure", "bad"),
    ([5, 4, 3, 2], 1, "failure", "failure", "bad"),
    ([5, 4, 3, 1], 1, "botch", "botch", "disaster"),
])
def test_outcomes(faces, difficulty, key, label, tone):
    _, result, view = play(f"4 vs {difficulty}", faces, numbers_only=True)
    assert view.outcome == Outcome(key, label, tone)
    assert result.outcome == key


def test_ones_marked_only_when_they_botch():
    _, _, with_success = play("3", [1, 6, 2], numbers_only=True)
    assert marks(with_success) == [(1, {FAIL}), (6, {SUCCESS}), (2, {FAIL})]
    _, _, botched = play("3", [1, 5, 1], numbers_only=True)
    assert marks(botched) == [(1, {ONE}), (5, {FAIL}), (1, {ONE})]


def test_ten_counts_two():
    _, _, view = play("2", [10, 4], numbers_only=True)
    assert view.score == 2 and view.score_text == "2 successes"


def test_enhanced_critical_note_on_a_win():
    _, _, view = play("dex+stealth vs 2", [10, 10, 3, 4, 5, 6])
    assert view.notes == (ENHANCED_NOTE,)
    assert ENHANCED_NOTE == "enhanced critical: two or more 10s - tell the Storyteller"


def test_enhanced_critical_note_even_on_a_failure():
    _, result, view = play("3 vs 5", [10, 10, 1], numbers_only=True)
    assert view.outcome.key == "failure" and view.notes == (ENHANCED_NOTE,)
    assert SYSTEM.record(result)["enhanced_critical"] is True


def test_one_ten_is_no_enhanced_critical():
    _, _, view = play("3 vs 1", [10, 9, 1], numbers_only=True)
    assert view.notes == ()


# ---------------------------------------------------------------- record


def test_record_is_json_and_its_view_round_trips():
    request, result, view = play("dex+stealth+3+4 vs 3/wp/multi 2", [10, 10, 1, 2, 3, 6, 7, 8, 9, 5])
    data = SYSTEM.record(result, request)
    assert json.loads(json.dumps(data)) == data
    assert RollView.from_dict(data["view"]) == view
    assert {k: v for k, v in data.items() if k != "view"} == {
        "system": "seyruun", "dice": [10, 10, 1, 2, 3, 6, 7, 8, 9, 5], "difficulty": 3,
        "difficulty_given": True, "successes": 8, "outcome": "supernatural_brilliance", "chance": False,
        "enhanced_critical": True, "pool": 12, "overflow": 2, "attribute": 3, "untrained": False,
        "bonus_cut": 2, "willpower": True, "wound": None, "actions": 2, "kind": None,
    }


def test_record_of_a_chance_die_round_trips():
    request, result, view = play("0 vs 1", [1], numbers_only=True)
    data = SYSTEM.record(result, request)
    assert RollView.from_dict(json.loads(json.dumps(data))["view"]) == view
    assert data["chance"] is True and data["outcome"] == "dramatic_botch"


def test_view_without_the_request_is_the_same():
    request, result, view = play("dex+stealth vs 2", [6, 6, 6, 6, 6, 6])
    assert SYSTEM.view(result) == view


def test_a_bare_request_still_rolls():
    request = RollRequest(system="seyruun", text="5", pool=None, dice=5, target=2, target_given=True)
    result = SYSTEM.roll(request, None, FixedFaces([6, 6, 1, 1, 1]))
    assert SYSTEM.view(result, request).pool == "5 dice"
    assert SYSTEM.odds(request).pool == "5 dice"


def test_seeded_roll_is_repeatable():
    request = SYSTEM.parse("dex+stealth+1 vs 2", frozenset(), roller())
    first = SYSTEM.view(SYSTEM.roll(request, None, random.Random(7)), request)
    again = SYSTEM.view(SYSTEM.roll(request, None, random.Random(7)), request)
    assert first == again and len(first.faces) == 7


# ---------------------------------------------------------------- odds


def _split(n, difficulty):
    view = SYSTEM.odds(SYSTEM.parse(f"{n} vs {difficulty}", numbers_only=True))
    return view, {c.key: c.probability for c in view.chances}


@pytest.mark.parametrize("n", [-3, 0, 1, 2, 5, 7, 10, 12, 50])
@pytest.mark.parametrize("difficulty", [1, 2, 3, 4, 6, 11, 20])
def test_odds_equal_rules_seyruun(n, difficulty):
    view, chances = _split(n, difficulty)
    figures = seyruun.odds(n, difficulty)
    assert sum(chances.values()) == 1
    assert len(chances) == len(view.chances)  # each once
    wins = ("supernatural_brilliance", "heroic", "solid", "just_enough")
    assert sum(chances.get(k, 0) for k in wins) == figures["win"]
    assert chances["failure"] == figures["failure"]
    botch = "dramatic_botch" if n <= 0 else "botch"
    assert chances[botch] == figures["botch"]
    assert dict(view.distribution) == figures["distribution"] == seyruun.distribution(n)
    for key, low, high in ((k, lo, hi) for k, lo, hi in [("supernatural_brilliance", 6, 99), ("heroic", 4, 5),
                                                         ("solid", 2, 3), ("just_enough", 1, 1)]):
        expected = sum((p for s, p in figures["distribution"].items() if low <= s <= high and s >= difficulty),
                       Fraction(0))
        assert chances.get(key, Fraction(0)) == expected


def test_odds_against_icepool():
    die = icepool.d10.map(lambda f: icepool.Vector((2 if f == 10 else 1 if f >= 6 else 0, int(f == 1))))
    for n in (1, 3, 7, 10):
        total = n @ die
        for difficulty in (1, 2, 4, 7):
            _, chances = _split(n, difficulty)
            for key, low, high in [("supernatural_brilliance", 6, 99), ("heroic", 4, 5), ("solid", 2, 3),
                                   ("just_enough", 1, 1)]:
                low = max(low, difficulty)
                expected = total.map(lambda v: low <= v[0] <= high).probability(True) if low <= high else 0
                assert chances.get(key, 0) == expected
            assert chances["botch"] == total.map(lambda v: v[0] == 0 and v[1] > 0).probability(True)


def test_chance_die_odds():
    view, chances = _split(0, 1)
    assert chances == {"just_enough": Fraction(1, 10), "failure": Fraction(8, 10), "dramatic_botch": Fraction(1, 10)}
    assert [c.label for c in view.chances] == ["just enough (1 success)", "failure", "dramatic botch"]
    assert view.distribution == ((0, Fraction(9, 10)), (1, Fraction(1, 10)))
    _, chances = _split(0, 2)
    assert chances == {"failure": Fraction(9, 10), "dramatic_botch": Fraction(1, 10)}


def test_odds_view_exact_labels_tones_and_notes():
    request = SYSTEM.parse("dex+stealth+1 vs 2", frozenset(), roller())
    view = SYSTEM.odds(request)
    assert view.system == "seyruun" and view.pool == "Dexterity 3 + Stealth 3 + 1 = 7 dice" and view.target == "vs 2"
    assert [(c.key, c.label, c.tone) for c in view.chances] == [
        ("supernatural_brilliance", "supernatural brilliance (6+ successes)", "triumph"),
        ("heroic", "heroic (4-5 successes)", "good"),
        ("solid", "solid (2-3 successes)", "good"),
        ("failure", "failure", "bad"),
        ("botch", "botch", "disaster"),
    ]
    assert view.notes == ("expected successes 4.20", "enhanced critical (two or more 10s) 15.0%")
    assert view.chance("botch") == Fraction(5**7 - 4**7, 10**7)


def test_odds_include_the_pool_notes_and_the_wound():
    request = SYSTEM.parse("dex+athletics vs 3", frozenset(), roller(wound=1))
    view = SYSTEM.odds(request)
    assert request.dice == 1
    assert view.notes == ("untrained: -1 die", "Light wound: -1 die", "expected successes 0.60")
    assert [c.label for c in view.chances] == ["failure", "botch"]


def test_odds_label_of_a_single_top_value():
    _, chances = _split(10, 20)
    assert chances["supernatural_brilliance"] == Fraction(1, 10**10)
    view, _ = _split(10, 20)
    assert view.chances[0].label == "supernatural brilliance (20 successes)"


# ---------------------------------------------------------------- the sheet


def test_system_is_registered_shape():
    assert check_system(SYSTEM) is SYSTEM
    assert SYSTEM.key == "seyruun" and SYSTEM.title == "Seyruun"
    assert set(SYSTEM.roll_switches) == {"willpower", "multi", "damage", "soak"}


def test_defaults_and_clamp():
    defaults = SHEET.defaults()
    assert defaults["dexterity"] == 1 and defaults["stealth"] == 0 and defaults["dominate"] == 0
    assert defaults["willpower spent"] == 0 and defaults["wound"] == 0
    clamped = SHEET.clamp({"dexterity": 9, "stealth": -2, "willpower spent": 9, "wound": 7, "junk": 3,
                           "resolve": "x"})
    assert clamped["dexterity"] == 5 and clamped["stealth"] == 0 and clamped["wound"] == 4
    assert clamped["resolve"] == 1 and clamped["willpower spent"] == 2  # Composure 1 + Resolve 1
    assert "junk" not in clamped


@pytest.mark.parametrize("typed, trait", [("dex", "dexterity"), ("Int", "intelligence"), ("con", "constitution"),
                                          ("intim", "intimidation"), ("elemental", "elemental core"),
                                          ("div", "divinity tree"), ("willpower spent", "willpower spent"),
                                          ("wounds", "wound"), ("stea", "stealth"), ("res", "resolve")])
def test_match(typed, trait):
    assert SHEET.match(typed) == trait


def test_match_willpower_says_how_to_set_it():
    with pytest.raises(DiceError, match="Composure \\+ Resolve"):
        SHEET.match("wp")
    with pytest.raises(DiceError, match="ambiguous"):
        SHEET.match("in")


@pytest.mark.parametrize("trait, good, bad", [("dexterity", (1, 5), (0, 6)), ("stealth", (0, 5), (-1, 6)),
                                              ("dominate", (0, 5), (-1, 6)), ("wound", (0, 4), (-1, 5)),
                                              ("willpower spent", (0, 5), (-1, 6))])
def test_check_value_ranges(trait, good, bad):
    values = {"composure": 2, "resolve": 3}
    for value in good:
        assert SHEET.check_value(trait, value, values) == value
    for value in bad + (True, "3"):
        with pytest.raises(DiceError, match=trait.title()):
            SHEET.check_value(trait, value, values)


def test_read_value_takes_wound_names():
    assert SHEET.read_value("wound", "Moderate") == 2
    assert SHEET.read_value("wound", "none") == 0
    assert SHEET.read_value("wound", "3") == 3
    assert SHEET.read_value("dexterity", "4") == 4
    with pytest.raises(DiceError):
        SHEET.read_value("dexterity", "moderate")


def test_state_and_pay():
    values = {"composure": 2, "resolve": 3, "willpower spent": 1, "wound": 2}
    assert SHEET.state(values) == {"wound": "moderate", "wound_penalty": 2, "willpower_max": 5,
                                   "willpower_left": 4}
    paid = SHEET.pay(values, {"willpower_left": 1})
    assert paid["willpower spent"] == 2 and values["willpower spent"] == 1
    assert SHEET.pay(values, {}) == SHEET.clamp(values)
    with pytest.raises(DiceError, match="1 Willpower left"):
        SHEET.pay({"composure": 1, "resolve": 1, "willpower spent": 1}, {"willpower_left": 2})
    with pytest.raises(DiceError, match="pays"):
        SHEET.pay(values, {"hunger": 1})


def test_roll_then_pay_uses_costs():
    values = dict(ANNA)
    who = SYSTEM.roller("Anna", values, {})
    request = SYSTEM.parse("dex+stealth/wp", frozenset(), who)
    after = SHEET.pay(values, SYSTEM.costs(request))
    assert SYSTEM.roller("Anna", after, {}).state["willpower_left"] == who.state["willpower_left"] - 1


def test_traits_offer_everything_rollable():
    table = SHEET.traits(ANNA, {})
    assert table.values["dexterity"] == 3 and table.values["dominate"] == 2 and table.values["willpower"] == 5
    assert "wound" not in table.values and "willpower spent" not in table.values
    assert table.specialty_traits == frozenset()


def test_layout():
    sections = SHEET.layout(dict(ANNA, wound=1, **{"willpower spent": 2}), {})
    assert [(s.kind, s.title) for s in sections] == [("columns", "Attributes"), ("columns", "Skills"),
                                                     ("line", "Powers"), ("track", "Willpower"), ("line", "Wound")]
    attributes = sections[0].rows
    assert attributes[1] == ("Physical", (("Strength", 2), ("Dexterity", 3), ("Constitution", 1)))
    assert [title for title, _ in sections[1].rows] == ["Mental", "Physical", "Social"]
    assert sections[2].text == "Dominate 2"
    assert (sections[3].boxes, sections[3].text) == ("//...", "3/5 left (Composure + Resolve)")
    assert sections[4].text == "Light: -1 die on every pool"
    plain = SHEET.layout({}, {})
    assert plain[2].text == "none" and plain[4].text == "none"
    assert SHEET.layout({"wound": 4}, {})[4].text == "Crippled: -5 dice on every pool"


def test_layout_fits_80_columns():
    # Three columns side by side, each "Label ..... 5" padded to the longest label.
    for section in SHEET.layout(ANNA, {}):
        if section.kind == "columns":
            widths = [max(len(label) for label, _ in rows) + 4 for _, rows in section.rows]
            assert sum(widths) + 2 * (len(widths) - 1) <= 80
            assert all(len(title) <= 20 for title, _ in section.rows)
        else:
            assert len(section.title) + 2 + len(section.boxes) + 1 + len(section.text) <= 80


def test_layout_through_the_display_fits_80_columns():
    display = pytest.importorskip("storyteller_dice.rules.display")
    if not hasattr(display, "format_sheet"):
        pytest.skip("storyteller_dice.rules.display has no format_sheet yet")
    text = display.format_sheet("Anna", "approved", SHEET.layout(ANNA, {}), width=80)
    assert all(display.visible_len(line) <= 80 for line in text.split("\n"))


def test_help_texts_fit():
    for text in (SYSTEM.help, SHEET.help()):
        assert all(len(line) <= 78 for line in text.splitlines())
    assert "Dominate" in SHEET.help() and "/multi" in SYSTEM.help


# ---------------------------------------------------------------- configuration


def test_configure_adds_powers():
    system = SYSTEM.configure({"SEYRUUN_POWERS": ["Dominate", "Shadow Path", "Flame   Tree"]})
    assert isinstance(system, SeyruunSystem) and system is not SYSTEM
    assert system.sheet.powers == ("dominate", "shadow path", "flame tree")
    who = system.roller("Anna", {"wits": 3, "shadow path": 2}, {})
    assert system.parse("wits+shadow", frozenset(), who).dice == 5
    assert SYSTEM.configure({}).sheet.powers == SYSTEM.sheet.powers


@pytest.mark.parametrize("powers, message", [("Dominate", "list"), (["Stealth"], "another trait"),
                                             (["Wound"], "another trait"), (["x1"], "not a usable"),
                                             ([""], "not a usable"), (["a" * 31], "not a usable"),
                                             (["Dominate", "dominate"], "another trait")])
def test_configure_refuses_bad_powers(powers, message):
    with pytest.raises(DiceError, match=message):
        SYSTEM.configure({"SEYRUUN_POWERS": powers})


def test_pool_of_a_trait_another_sheet_offers_sits_in_the_skill_slot():
    from storyteller_dice.rules.pools import TraitTable

    table = TraitTable(values={"dexterity": 2, "sailing": 3}, specialties={}, aliases={},
                       specialty_traits=frozenset())
    request = SYSTEM.parse("dex+sailing", frozenset(), Roller(name="x", traits=table))
    assert request.dice == 5 and isinstance(request.pool, SeyruunPool)


def test_sheet_instances_are_independent():
    assert SeyruunSheet(("x tree",)).powers == ("x tree",)
    assert "x tree" not in SHEET.settable()


def test_busy_roll_and_odds_fit_80_columns_through_the_display():
    display = pytest.importorskip("storyteller_dice.rules.display")
    who = roller(wound=2)
    request, _, view = play("dex+stealth+3+4+1 vs epic/wp/multi 3", [10, 10, 1, 6, 7, 2, 3, 4], who=who)
    assert request.dice == 8
    lines = display.format_roll(view, "Anna", comment="past the guard").split("\n")
    lines += display.format_odds(SYSTEM.odds(request, who), width=80).split("\n")
    assert all(display.visible_len(line) <= 80 for line in lines)


# ---------------------------------------------------------------- damage and soak rolls


def test_damage_is_strength_plus_weapon_base_with_no_untrained_die_lost():
    request, result, view = play("str+3", [6, 7, 8, 1, 2], switches={"damage"}, who=roller(strength=2))
    assert request.dice == 5 and request.option("damage")
    assert view.pool == "Strength 2 + weapon base 3 = 5 dice"
    assert view.notes == ("damage roll: Strength + weapon base",)
    assert result.successes == 3


def test_a_weapon_base_above_five_is_the_pool_not_a_capped_bonus():
    request, _, view = play("str+6", [6] * 9, switches={"damage"}, who=roller(strength=3))
    assert request.dice == 9 and view.pool == "Strength 3 + weapon base 6 = 9 dice"
    # Without /damage the same pool is an untrained roll with a bonus cut to +5.
    plain = SYSTEM.parse("str+6", frozenset(), roller(strength=3))
    assert plain.dice == 7 and plain.pool.notes()[:2] == (
        "untrained: -1 die", "external bonuses +6 capped at +5 (1 die cut)")


def test_soak_is_constitution_endurance_armour_and_the_ending_works():
    who = roller(constitution=2, endurance=0)
    request, _, view = play("con+endurance+2/soak", [6, 6, 6, 6], who=who)
    assert request.dice == 4 and request.option("soak")
    assert view.pool == "Constitution 2 + Endurance 0 + armour 2 = 4 dice"
    assert view.notes == ("soak roll: Constitution + Endurance + armour",)


@pytest.mark.parametrize("text, switches, message", [
    ("dex+3", {"damage"}, "A damage roll is Strength + the weapon base, not Dexterity (e.g. +roll/damage str+3)."),
    ("str+brawl", {"damage"}, "A damage roll is Strength + the weapon base, not Strength + Brawl (e.g. "
                              "+roll/damage str+3)."),
    ("dex+stealth", {"soak"}, "A soak roll is Constitution + Endurance + the armour, not Dexterity + Stealth "
                              "(e.g. +roll/soak con+endurance+2)."),
    ("str+3", {"damage", "soak"}, "A roll is either damage or soak: use /damage or /soak, not both."),
    ("str+3/multi 2", {"damage"}, "A damage roll is not an action of its own: /multi does not go with /damage."),
    ("str+3/damage 3", (), "'/damage' takes no number: put the weapon base in the pool (+roll/damage str+3)."),
])
def test_damage_and_soak_refusals(text, switches, message):
    with pytest.raises(DiceError) as refused:
        SYSTEM.parse(text, frozenset(switches), roller())
    assert str(refused.value) == message

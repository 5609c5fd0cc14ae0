"""
The fairness report's pure part (`rules.fairness`): the chi-square statistic and p-value
against scipy (an independent implementation), seeded fair and biased sources, the verdicts'
boundaries, counting faces from dice groups, and the two charts (exact text; well-formed,
escaped SVG). Pure: no database, no Evennia.
"""

import math
import random
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from scipy import stats

from storyteller_dice.rules import fairness as f
from storyteller_dice.rules.engine import DiceGroup, Die, RollView, Outcome
from storyteller_dice.rules.errors import DiceError

# The rules' own column measure (one a code point), whatever a test of the game set before.
pytestmark = pytest.mark.usefixtures("code_point_columns")

SVG = "{http://www.w3.org/2000/svg}"


def close(ours, reference, rel=1e-9):
    """Relative agreement; values scipy rounds to (nearly) nothing must be (nearly) nothing."""
    if reference < 1e-290:
        return ours < 1e-280
    return abs(ours - reference) <= rel * reference


def _grid():
    """Face counts 0..100000 for d2..d20: seeded random ones plus the extremes."""
    rng = random.Random(14)
    cases = []
    for sides in range(2, 21):
        cases.append([0] * (sides - 1) + [100000])  # every roll the same face
        cases.append([100000] * sides)  # perfectly flat
        cases.append([1] + [0] * (sides - 1))
        for _ in range(6):
            spread = rng.choice((10, 1000, 100000))
            base = rng.randint(0, 100000 - spread)
            cases.append([base + rng.randint(0, spread) for _ in range(sides)])
        cases.append([rng.randint(0, 100000) for _ in range(sides)])
    return cases


GRID = _grid()


@pytest.mark.parametrize("observed", GRID, ids=lambda o: f"d{len(o)}-{sum(o)}")
def test_statistic_and_p_value_equal_scipy(observed):
    test = f.face_test(dict(enumerate(observed, start=1)), len(observed))
    reference = stats.chisquare(observed)
    assert close(float(test.statistic), float(reference.statistic))
    assert close(test.p_value, float(reference.pvalue))
    assert close(test.p_value, float(stats.chi2.sf(float(test.statistic), len(observed) - 1)))
    assert test.degrees_of_freedom == len(observed) - 1


def test_grid_covers_tiny_middling_and_huge_p_values():
    p_values = [f.face_test(dict(enumerate(o, start=1)), len(o)).p_value for o in GRID]
    assert min(p_values) == 0.0 and max(p_values) == 1.0
    assert any(1e-12 < p < 1e-3 for p in p_values) and any(0.05 < p < 0.95 for p in p_values)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 9, 10, 19, 20, 99])
def test_survival_function_equals_scipy_on_a_grid_of_statistics(k):
    for x in (1e-9, 1e-3, 0.1, 0.5, 1, 1.5, 2, 3, 5, 7.5, 10, 15, 20, 30, 50, 80, 100, 150, 200, 400, 700, 1000, 1400):
        assert close(f.chi_square_sf(x, k), float(stats.chi2.sf(x, k))), (k, x)


def test_survival_function_known_values():
    assert f.chi_square_sf(0, 9) == 1.0
    assert f.chi_square_sf(Fraction(0), 1) == 1.0
    assert f.chi_square_sf(2, 2) == pytest.approx(math.exp(-1), rel=1e-15)
    assert f.chi_square_sf(4, 1) == pytest.approx(math.erfc(math.sqrt(2)), rel=1e-15)
    # k = 3: erfc(sqrt(y)) + 2*sqrt(y/pi)*e^-y
    y = 1.5
    assert f.chi_square_sf(2 * y, 3) == pytest.approx(math.erfc(math.sqrt(y)) + 2 * math.sqrt(y / math.pi) * math.exp(-y), rel=1e-14)
    # k = 4: e^-y (1 + y)
    assert f.chi_square_sf(6, 4) == pytest.approx(math.exp(-3) * 4, rel=1e-15)
    assert f.chi_square_sf(20000, 9) == 0.0


def test_chi_square_is_exact():
    assert f.chi_square((3, 1)) == 1  # E = 2: (1 + 1) / 2
    assert f.chi_square((5, 0, 1)) == Fraction(7)  # E = 2: (9 + 4 + 1) / 2
    assert f.chi_square((1, 2)) == Fraction(1, 3)
    assert f.chi_square((0, 0, 0)) == 0
    assert isinstance(f.chi_square((4, 4)), Fraction) and f.chi_square((4, 4)) == 0


def _roll_d10s(rng, count, ten_chance=None):
    counts = {}
    for _ in range(count):
        if ten_chance is None:
            face = rng.randint(1, 10)
        else:
            face = 10 if rng.random() < ten_chance else rng.randint(1, 9)
        counts[face] = counts.get(face, 0) + 1
    return counts


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seeded_fair_source_reads_consistent(seed):
    test = f.face_test(_roll_d10s(random.Random(seed), 20000), 10)
    assert test.total == 20000
    assert test.verdict_key == f.CONSISTENT
    assert test.verdict == "consistent with fair dice"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_d10_that_shows_10_thirteen_percent_of_the_time_reads_unusual(seed):
    test = f.face_test(_roll_d10s(random.Random(seed), 20000, ten_chance=0.13), 10)
    assert test.verdict_key == f.UNUSUAL
    assert test.p_value < 1e-6
    assert test.verdict == "unusual: p < 0.0001"


def test_verdict_boundaries():
    assert f.judge(0, 10, 1.0) == f.NO_ROLLS
    assert f.judge(49, 10, 0.5) == f.TOO_FEW  # expected 4.9 per face
    assert f.judge(50, 10, 0.5) == f.CONSISTENT  # expected 5
    assert f.judge(50, 10, 0.01) == f.CONSISTENT
    assert f.judge(50, 10, 0.0099999) == f.UNUSUAL
    assert f.judge(9, 2, 0.0) == f.TOO_FEW and f.judge(10, 2, 0.0) == f.UNUSUAL


def test_p_value_words():
    assert f.format_p(0.43) == "p = 0.43"
    assert f.format_p(0.003) == "p = 0.003"
    assert f.format_p(0.0031234) == "p = 0.0031"
    assert f.format_p(0.0001) == "p = 0.0001"
    assert f.format_p(0.0000999) == "p < 0.0001"
    assert f.format_p(0.0) == "p < 0.0001"
    assert f.format_p(0.99) == "p = 0.99"
    assert f.format_p(0.9901) == "p > 0.99"
    assert f.format_p(1.0) == "p > 0.99"
    assert f.format_p(0.00996) == "p < 0.01"  # would round up to the threshold
    assert f.format_p(0.0099) == "p = 0.0099"
    assert f.format_p(0.01) == "p = 0.01"
    assert f.format_p(0.01004) == "p = 0.01"


def test_face_test_fields_and_verdict_texts():
    test = f.face_test({1: 30, 2: 10}, 2, "Dice")
    assert test.observed == (30, 10) and test.total == 40 and test.expected == 20
    assert test.statistic == 10 and test.degrees_of_freedom == 1
    assert test.p_value == pytest.approx(float(stats.chi2.sf(10, 1)), rel=1e-12)
    assert test.verdict == "unusual: p = 0.0016"
    assert test.title == "d2 Dice"
    assert f.face_test({}, 6).title == "d6"
    assert f.face_test({}, 6).verdict == "no rolls"
    assert f.face_test({1: 3}, 6).verdict == "not enough rolls to tell"
    assert f.face_test({1: 3}, 6).observed == (3, 0, 0, 0, 0, 0)
    assert f.face_test({1: 49}, 10).verdict_key == f.TOO_FEW  # 4.9 expected per face
    assert f.face_test({face: 5 for face in range(1, 11)}, 10).verdict_key == f.CONSISTENT
    assert f.summary_line(f.face_test({}, 6)) == "no rolls"


@pytest.mark.parametrize(
    "counts, sides, message",
    [
        ({}, 1, "A die has from 2 to 1000 sides, not 1."),
        ({}, 1001, "A die has from 2 to 1000 sides, not 1001."),
        ({}, True, "A die has from 2 to 1000 sides, not True."),
        ({}, 10.0, "A die has from 2 to 1000 sides, not 10.0."),
        ({0: 1}, 10, "A d10 has no face 0."),
        ({11: 1}, 10, "A d10 has no face 11."),
        ({True: 1}, 10, "A d10 has no face True."),
        ({"1": 1}, 10, "A d10 has no face '1'."),
        ({1: -1}, 10, "A count must be a whole number, 0 or more, not -1."),
        ({1: 1.0}, 10, "A count must be a whole number, 0 or more, not 1.0."),
        ({1: True}, 10, "A count must be a whole number, 0 or more, not True."),
    ],
)
def test_bad_counts_are_refused(counts, sides, message):
    with pytest.raises(DiceError) as caught:
        f.face_test(counts, sides)
    assert str(caught.value) == message


def test_faces_2_and_1000_sides_are_allowed():
    assert f.face_test({2: 1}, 2).observed == (0, 1)
    assert f.face_test({1000: 1}, 1000).observed[-1] == 1


@pytest.mark.parametrize(
    "statistic, k, message",
    [
        (1, 0, "Degrees of freedom are a whole number, 1 or more."),
        (1, True, "Degrees of freedom are a whole number, 1 or more."),
        (1, 2.0, "Degrees of freedom are a whole number, 1 or more."),
        (-0.5, 3, "A chi-square statistic is never negative."),
    ],
)
def test_bad_survival_arguments_are_refused(statistic, k, message):
    with pytest.raises(DiceError) as caught:
        f.chi_square_sf(statistic, k)
    assert str(caught.value) == message


# ---------------------------------------------------------------- counting faces


def _v5_view(regular, hunger):
    groups = (
        DiceGroup("Dice", tuple(Die(face, frozenset({"rerolled"}) if i == 0 else frozenset()) for i, face in enumerate(regular))),
        DiceGroup("Hunger", tuple(Die(face, frozenset({"hunger"})) for face in hunger)),
    )
    return RollView("v5", "3 dice", "", groups, 1, ("success", "successes"), Outcome("bare", "bare success", "good"))


def test_tally_keeps_hunger_and_regular_dice_apart():
    view = _v5_view((10, 3, 3), (1, 10))
    assert f.tally(view.groups) == {("Dice", 10): {10: 1, 3: 2}, ("Hunger", 10): {1: 1, 10: 1}}
    # The stored form (RollView.to_dict) counts the same.
    again = _v5_view((6, 6), (2,))
    stored = view.to_dict()["groups"] + again.to_dict()["groups"]
    assert f.tally(stored) == {("Dice", 10): {10: 1, 3: 2, 6: 2}, ("Hunger", 10): {1: 1, 10: 1, 2: 1}}
    assert f.by_sides(f.tally(stored)) == {10: {10: 2, 3: 2, 6: 2, 1: 1, 2: 1}}


def test_tally_only_marked_dice_and_other_sides():
    view = _v5_view((10, 3, 3), (1, 10))
    assert f.tally(view.groups, only_mark="rerolled") == {("Dice", 10): {10: 1}, ("Hunger", 10): {}}
    d6 = {"label": "Dice", "sides": 6, "dice": [[6, []], [1, ["one"]], [6, []]]}
    assert f.tally([d6]) == {("Dice", 6): {6: 2, 1: 1}}
    assert f.tally([{"label": "Chance die", "dice": [[10, ["chance"]]]}]) == {("Chance die", 10): {10: 1}}
    assert f.tally([{"dice": [[1, []]]}]) == {("", 10): {1: 1}}
    assert f.tally([{"label": "Dice"}]) == {("Dice", 10): {}}
    later = {"label": "Dice", "dice": [[3, []], [7, ["rerolled"]], [2, []], [9, ["rerolled"]]]}
    assert f.tally([later], only_mark="rerolled") == {("Dice", 10): {7: 1, 9: 1}}
    with pytest.raises(DiceError, match=r"^A d6 has no face 7\.$"):
        f.tally([{"label": "Dice", "sides": 6, "dice": [[7, []]]}])
    with pytest.raises(DiceError, match=r"^A d6 has no face 0\.$"):
        f.tally([{"label": "Dice", "sides": 6, "dice": [[0, []]]}])
    with pytest.raises(DiceError, match=r"^A d6 has no face True\.$"):
        f.tally([{"label": "Dice", "sides": 6, "dice": [[True, []]]}])
    with pytest.raises(DiceError, match="sides"):
        f.tally([{"label": "Dice", "sides": 1, "dice": []}])


def test_counts_from_aggregated_rows():
    rows = [("Dice", 10, 1, 5), ("Hunger", 10, 1, 2), ("Dice", 10, 1, 3), ("Dice", 6, 6, 4)]
    assert f.counts_from_rows(rows) == {("Dice", 10): {1: 8}, ("Hunger", 10): {1: 2}, ("Dice", 6): {6: 4}}
    with pytest.raises(DiceError, match="sides"):
        f.counts_from_rows([("Dice", 0, 1, 1)])
    with pytest.raises(DiceError, match=r"^A count must be a whole number, 0 or more, not -2\.$"):
        f.counts_from_rows([("Dice", 10, 1, -2)])


def test_report_per_label_and_per_sides_sorted():
    counts = {("Hunger", 10): {1: 10}, ("Dice", 10): {2: 10}, ("Dice", 6): {3: 6}}
    report = f.fairness_report(counts)
    assert [(t.sides, t.label) for t in report] == [(6, "Dice"), (10, "Dice"), (10, "Hunger")]
    assert report[1].observed == (0, 10) + (0,) * 8
    plain = f.fairness_report({10: {1: 1}, 6: {6: 2}})
    assert [(t.sides, t.label, t.total) for t in plain] == [(6, "", 2), (10, "", 1)]


# ---------------------------------------------------------------- charts

FIXED = {1: 812, 2: 790, 3: 805, 4: 779, 5: 820, 6: 801, 7: 798, 8: 787, 9: 795, 10: 813}


def test_text_chart_exact():
    chart = f.text_chart(f.face_test(FIXED, 10, "Dice"))
    # 62 columns of bar for a top of 820: 800 expected ends at column 60 (the ':'), 812 fills
    # 61 columns, 790 fills 60, 779 fills 59 (the marker then sits just after the bar).
    assert chart == (
        "d10 Dice: 8,000 dice, 800 expected per face\n"
        " 1 ###########################################################:#  812 (exp. 800)\n"
        " 2 ###########################################################:   790 (exp. 800)\n"
        " 3 ###########################################################:#  805 (exp. 800)\n"
        " 4 ###########################################################:   779 (exp. 800)\n"
        " 5 ###########################################################:## 820 (exp. 800)\n"
        " 6 ###########################################################:#  801 (exp. 800)\n"
        " 7 ###########################################################:   798 (exp. 800)\n"
        " 8 ###########################################################:   787 (exp. 800)\n"
        " 9 ###########################################################:   795 (exp. 800)\n"
        "10 ###########################################################:#  813 (exp. 800)\n"
        "chi-square 1.85, 9 degrees of freedom: consistent with fair dice (p > 0.99)"
    )
    assert max(len(line) for line in chart.splitlines()) == 80


def test_text_chart_unusual_uneven_and_narrow():
    chart = f.text_chart(f.face_test({1: 30, 2: 10, 3: 5}, 3, "Hunger"), width=40)
    # 25 columns for a top of 30: 15 expected -> 12.5, rounded up to 13.
    assert chart == (
        "d3 Hunger: 45 dice, 15 expected per face\n"
        "1 ############:############ 30 (exp. 15)\n"
        "2 ########    :             10 (exp. 15)\n"
        "3 ####        :              5 (exp. 15)\n"
        "chi-square 23.33, 2 degrees of freedom: unusual: p < 0.0001"
    )
    assert max(len(line) for line in chart.splitlines()[1:-1]) == 40
    fractional = f.text_chart(f.face_test({1: 7, 2: 4}, 2), width=20)
    assert fractional == (
        "d2: 11 dice, 5.5 expected per face\n"
        "1 #######:## 7 (exp. 5.5)\n"  # the bar never gets narrower than 10
        "2 ###### :   4 (exp. 5.5)\n"
        "chi-square 0.82, 1 degrees of freedom: consistent with fair dice (p = 0.37)"
    )


def test_text_chart_few_and_no_rolls_and_hostile_label():
    assert f.text_chart(f.face_test({}, 10, "Dice")) == "d10 Dice: no rolls"
    few = f.text_chart(f.face_test({10: 2, 1: 1}, 10, "Dice")).splitlines()
    assert few[0] == "d10 Dice: 3 dice, 0.3 expected per face"
    assert few[1] == " 1 #########:######################" + " " * 33 + "1 (exp. 0.3)"
    assert few[2] == " 2          :" + " " * 55 + "0 (exp. 0.3)"
    assert few[10] == "10 #########:" + "#" * 54 + " 2 (exp. 0.3)"
    assert few[-1] == "not enough rolls to tell (at least 50 dice are needed)"
    assert len(few) == 12
    hostile = f.text_chart(f.face_test({}, 10, "|rRed {x"))
    assert hostile == "d10 ||rRed {{x: no rolls"


def test_text_chart_marker_at_the_first_column():
    lines = f.text_chart(f.face_test({1: 100}, 100)).splitlines()
    # 63 columns for a top of 100: 1 expected is 0.63 of a column, shown in the first.
    assert lines[1] == "  1 :" + "#" * 62 + " 100 (exp. 1)"
    assert lines[2] == "  2 :" + " " * 62 + "   0 (exp. 1)"


def test_text_chart_big_counts_fit_80_columns():
    chart = f.text_chart(f.face_test({face: 1_000_000 + face for face in range(1, 21)}, 20))
    lines = chart.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert lines[1].endswith(" 1,000,001 (exp. 1,000,010.5)")
    assert lines[1].startswith(" 1 ###")


def _parse(svg):
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def test_svg_is_well_formed_and_escapes_labels():
    label = '<script>alert("x")</script> & \'q\''
    svg = f.svg_chart(f.face_test(FIXED, 10, label))
    root = _parse(svg)
    assert "<script" not in svg and "&lt;script&gt;" in svg
    texts = [el.text for el in root.iter(f"{SVG}text")]
    assert texts[0] == f"d10 {label}: 8,000 dice"
    assert root.find(f"{SVG}title").text == f"d10 {label}: 8,000 dice"
    assert root.get("aria-label") == f"d10 {label}: 8,000 dice, consistent with fair dice"
    assert len(root.findall(f"{SVG}rect")) == 10
    assert [t for t in texts[3:]] == [str(face) for face in range(1, 11)]
    assert "href" not in svg and "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_svg_exact_for_a_small_die():
    svg = f.svg_chart(f.face_test({1: 30, 2: 10}, 2, "Dice"), width=200, height=100)
    assert svg == (
        '<svg xmlns="http://www.w3.org/2000/svg" class="fairness-chart" width="200" height="100" '
        'viewBox="0 0 200 100" role="img" aria-label="d2 Dice: 40 dice, unusual: p = 0.0016">'
        "<title>d2 Dice: 40 dice</title>"
        '<text x="40" y="16" class="title">d2 Dice: 40 dice</text>'
        '<text x="40" y="34" class="verdict">chi-square 10.00, 1 degrees of freedom: unusual: p = 0.0016</text>'
        '<line x1="40" y1="76" x2="190" y2="76" stroke="#888"/>'
        '<text x="36" y="48" text-anchor="end" class="axis">30</text>'
        '<rect x="47.5" y="44" width="60" height="32" fill="#4a7ab5"><title>face 1: 30 (expected 20)</title></rect>'
        '<line x1="43.8" y1="54.7" x2="111.2" y2="54.7" stroke="#d04020" stroke-width="2"/>'
        '<text x="77.5" y="92" text-anchor="middle" class="axis">1</text>'
        '<rect x="122.5" y="65.3" width="60" height="10.7" fill="#4a7ab5"><title>face 2: 10 (expected 20)</title></rect>'
        '<line x1="118.8" y1="54.7" x2="186.2" y2="54.7" stroke="#d04020" stroke-width="2"/>'
        '<text x="152.5" y="92" text-anchor="middle" class="axis">2</text>'
        "</svg>"
    )


def test_svg_default_size_and_whole_coordinates():
    svg = f.svg_chart(f.face_test(FIXED, 10))
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="fairness-chart" width="480" height="240" '
                          'viewBox="0 0 480 240" ')
    # Face 5 is the top (820): the full 172-pixel plot, from y 44 to the axis at 216.
    assert '<rect x="216.3" y="44" width="34.4" height="172" fill="#4a7ab5">' in svg
    assert '<line x1="40" y1="216" x2="470" y2="216" stroke="#888"/>' in svg


def test_svg_with_no_rolls_and_fractional_expectation():
    svg = f.svg_chart(f.face_test({}, 6))
    root = _parse(svg)
    assert [r.get("height") for r in root.findall(f"{SVG}rect")] == ["0"] * 6
    assert '<text x="36" y="48" text-anchor="end" class="axis">0</text>' in svg
    assert root.findall(f"{SVG}text")[1].text == "no rolls"
    svg = f.svg_chart(f.face_test({1: 7, 2: 4}, 2))
    assert "<title>face 1: 7 (expected 5.5)</title>" in svg
    _parse(svg)

"""
The shared seam of rules/ (engine, display, charts, checks, systems), closed against the
mutants mutmut found surviving (tests/mutation/README.md, equivalent_seam.md): explicit
values, exact strings and messages. Pure: no database, no Evennia.
"""

import re
from fractions import Fraction

import pytest

from storyteller_dice.rules import systems

# The rules' own measure, one column a code point (the game's wcwidth measure is tested in
# tests/test_wrap_columns.py).
pytestmark = pytest.mark.usefixtures("code_point_columns")
from storyteller_dice.rules.charts import odds_svg
from storyteller_dice.rules.checks import check_faces, check_pool, is_int
from storyteller_dice.rules.display import (_chart_rows, append_code, escape, format_chart, format_die, format_odds, format_pool,
                           format_refusal, format_reroll, format_roll, format_sheet, shares, visible_len, wrap)
from storyteller_dice.rules.engine import (CHOICE, FAIL, FLAG, NUMBER, POOL_INPUT, REROLLED, SUCCESS, TARGET_INPUT, TEN, Chance,
                          DiceGroup, Die, OddsInput, OddsView, Outcome, Roller, RollRequest, RollView, Sheet,
                          SheetSection, System, check_system, choice_key, read_odds_inputs, read_whole, split_vs)
from storyteller_dice.rules.errors import DiceError


def refused(call, message, error=DiceError):
    """`call()` raises `error` with exactly `message`."""
    with pytest.raises(error, match="^" + re.escape(message) + "$"):
        call()


# ---------------------------------------------------------------- a toy system behind the seam


class ToySheet(Sheet):
    def defaults(self):
        return {"might": 1, "wits": 2}

    def traits(self, values, specialties):
        return ("traits", tuple(sorted(values.items())), specialties)

    def state(self, values):
        return {"might": values["might"]}


class Toy(System):
    """Records what the seam hands it, so the tests see exactly what `odds_of` passes on."""

    key, title = "toy", "Toy"
    sheet = ToySheet()
    odds_inputs = (
        POOL_INPUT, TARGET_INPUT,
        OddsInput("spec", "Specialty", kind=FLAG, switch="spec"),
        OddsInput("auto", "Automatic", kind=FLAG, switch="auto"),
        OddsInput("hunger", "Hunger", kind=NUMBER, low=0, high=5, default=0),
        OddsInput("health", "Health", kind=CHOICE, default=0, choices=((0, "Healthy"), (1, "Hurt")),
                  state="wounds"),
    )

    def __init__(self):
        self.calls = []

    def parse(self, text, switches=frozenset(), roller=None, numbers_only=False):
        self.calls.append(("parse", text, switches, roller, numbers_only))
        return RollRequest(system=self.key, text=text, pool=None, dice=3)

    def odds(self, request, roller=None):
        self.calls.append(("odds", request, roller))
        return OddsView(self.key, "3 dice", "", (Chance("any", "any", Fraction(1)),), ())

    def view(self, result, request=None):
        return RollView(system=self.key, pool=f"{result} of {request.text}", target="", groups=(), score=result,
                        noun=("hit", "hits"), outcome=Outcome("done", "done", "good"))


# ---------------------------------------------------------------- engine: shapes


def test_outcome_and_odds_view_refuse_with_exact_messages():
    refused(lambda: Outcome("x", "x", "splendid"), "unknown tone 'splendid'", ValueError)
    refused(lambda: OddsView("toy", "", "", (Chance("a", "a", Fraction(1, 2)),), ()),
            "the chances of an OddsView must sum to 1", ValueError)
    refused(lambda: OddsView("toy", "", "", (), ((0, Fraction(1, 3)),)), "a distribution must sum to 1",
            ValueError)
    view = OddsView("toy", "", "", (Chance("a", "a", Fraction(1)),), ((0, Fraction(1)),))
    assert view.chance("a") == 1 and view.noun == ("success", "successes") and view.notes == ()
    with pytest.raises(KeyError) as err:
        view.chance("missing")
    assert err.value.args == ("missing",)


def test_roll_view_from_dict_fills_in_what_old_rows_lack():
    view = RollView.from_dict({"system": "toy", "groups": [{"label": "Dice", "dice": [[3, ["fail"]]]}],
                               "outcome": {"key": "k", "label": "l", "tone": "bad"}})
    assert view == RollView(system="toy", pool="", target="", groups=(DiceGroup("Dice", (Die(3, frozenset({"fail"})),),
                                                                                sides=10),),
                            score=None, noun=("success", "successes"), outcome=Outcome("k", "l", "bad"), notes=())
    assert view.groups[0].sides == 10 and view.score_text == ""
    bare = RollView.from_dict({"system": "toy", "outcome": {"key": "k", "label": "l", "tone": "good"}})
    assert bare.groups == () and bare.faces == () and bare.noun == ("success", "successes")
    assert (bare.pool, bare.target, bare.notes) == ("", "", ())
    assert RollView.from_dict({"system": "toy", "score": 1, "noun": ["hit", "hits"],
                               "outcome": {"key": "k", "label": "l", "tone": "good"}}).score_text == "1 hit"


def test_roller_and_request_defaults():
    assert Roller().get("hunger", 5) == 5 and Roller(state={"hunger": 2}).get("hunger", 5) == 2
    assert Roller().get("hunger") is None
    request = RollRequest("toy", "3", None, 3, extra=(("impaired", True),))
    assert request.get("impaired", 7) is True and request.get("other", 7) == 7 and request.get("other") is None
    assert not request.option("spec") and RollRequest("toy", "3", None, 3, options=frozenset({"spec"})).option("spec")


# ---------------------------------------------------------------- engine: odds inputs


def test_choice_key():
    assert choice_key(None) == "" and choice_key(3) == "3" and choice_key("x") == "x" and choice_key(0) == "0"


def test_odds_input_kind_is_checked():
    refused(lambda: OddsInput("x", "X", kind="slider"), "unknown input kind 'slider'", ValueError)
    for kind in ("text", "number", "flag", "choice"):
        assert OddsInput("x", "X", kind=kind).kind == kind


def test_odds_input_text_and_flag():
    assert POOL_INPUT.read(None) == "" and POOL_INPUT.read("  6 dice  ") == "6 dice"
    assert OddsInput("t", "T", high=3).read(" abcdef") == "abc"
    assert POOL_INPUT.read("x" * 100) == "x" * 80 and TARGET_INPUT.read("y" * 50) == "y" * 40
    flag = OddsInput("f", "F", kind=FLAG)
    for typed in (None, "", "0", "off", "OFF", "false", "False", "no", " No "):
        assert flag.read(typed) is False, typed
    for typed in ("on", "1", "yes", "true", "x"):
        assert flag.read(typed) is True, typed


def test_odds_input_number():
    hunger = OddsInput("hunger", "Hunger", kind=NUMBER, low=0, high=5, default=2)
    assert hunger.read(None) == 2 and hunger.read("  ") == 2
    assert hunger.read("0") == 0 and hunger.read(" 5 ") == 5 and hunger.read("003") == 3
    refused(lambda: hunger.read("6"), "Hunger must be a whole number from 0 to 5, not '6'.")
    refused(lambda: hunger.read("-1"), "Hunger must be a whole number from 0 to 5, not '-1'.")
    refused(lambda: hunger.read("two"), "Hunger must be a whole number from 0 to 5, not 'two'.")
    refused(lambda: hunger.read("a" * 20), f"Hunger must be a whole number from 0 to 5, not '{'a' * 20}'.")
    refused(lambda: hunger.read("a" * 21), f"Hunger must be a whole number from 0 to 5, not '{'a' * 20}...'.")
    assert OddsInput("m", "Mod", kind=NUMBER, low=-3, high=3).read("-3") == -3
    assert OddsInput("m", "Mod", kind=NUMBER).read("") is None


def test_odds_input_choice():
    health = OddsInput("health", "Health", kind=CHOICE, default=0, choices=((0, "Healthy"), (1, "Hurt"), ("x", "Odd")))
    assert health.read("1") == 1 and health.read(" 0 ") == 0 and health.read("x") == "x" and health.read("") == 0
    refused(lambda: health.read("7"), "Health must be one of Healthy, Hurt, Odd, not '7'.")
    refused(lambda: health.read("b" * 21), f"Health must be one of Healthy, Hurt, Odd, not '{'b' * 20}...'.")


def test_read_odds_inputs():
    assert read_odds_inputs(Toy.odds_inputs, {"pool": " 6 ", "spec": "on", "hunger": "4", "health": "1"}) == {
        "pool": "6", "target": "", "spec": True, "auto": False, "hunger": 4, "health": 1}
    refused(lambda: read_odds_inputs(Toy.odds_inputs, {"hunger": "9"}),
            "Hunger must be a whole number from 0 to 5, not '9'.")


def test_odds_args_and_odds_of():
    toy = Toy()
    text, switches, roller = toy.odds_args({"pool": "6", "target": "3", "spec": True, "auto": False, "hunger": 4,
                                            "health": 1})
    assert (text, switches, roller) == ("6 vs 3", frozenset({"spec"}), Roller(state={"hunger": 4, "wounds": 1}))
    # Missing values take each input's default; no target: the pool alone.
    assert toy.odds_args({"pool": "2"}) == ("2", frozenset(), Roller(state={"hunger": 0, "wounds": 0}))
    assert toy.odds_args({"pool": None, "target": "3"})[0] == " vs 3"
    assert toy.odds_args({"target": None})[0] == ""
    view = toy.odds_of({"pool": "6", "target": "3", "spec": True, "hunger": 1})
    assert view.chance("any") == 1
    parsed, odds = toy.calls
    expected_roller = Roller(state={"hunger": 1, "wounds": 0})
    assert parsed == ("parse", "6 vs 3", frozenset({"spec"}), expected_roller, True)
    assert odds == ("odds", RollRequest("toy", "6 vs 3", None, 3), expected_roller)


# ---------------------------------------------------------------- engine: the system's defaults


def test_system_roller_record_and_sheet_defaults():
    toy = Toy()
    anna = toy.roller("Anna", {"wits": 4}, {"wits": ["Riddles"]})
    assert anna == Roller(name="Anna", traits=("traits", (("might", 1), ("wits", 4)), {"wits": ["Riddles"]}),
                          state={"might": 1})
    request = RollRequest("toy", "3 vs 2", None, 3)
    assert toy.record(2, request) == {"system": "toy", "view": {
        "system": "toy", "pool": "2 of 3 vs 2", "target": "", "groups": [], "score": 2, "noun": ["hit", "hits"],
        "outcome": {"key": "done", "label": "done", "tone": "good"}, "notes": []}}
    assert toy.configure({"X": 1}) is toy
    sheet = toy.sheet
    assert sheet.clamp({"wits": 5, "luck": 1}) == {"might": 1, "wits": 5, "luck": 1}
    assert sheet.clamp({}) == {"might": 1, "wits": 2}
    assert sheet.changes("wits", 3, {}) == {"wits": 3}
    assert sheet.read_value("wits", " -2 ") == -2 and sheet.read_value("wits", "0004") == 4
    refused(lambda: sheet.read_value("wits", "lots"), "The value must be a whole number, not 'lots'.")
    refused(lambda: sheet.check_specialty("wits", "Riddles", {}, ()), "This game has no Specialties.")
    assert Sheet().state({}) == {} and sheet.vitals({}) == {} and sheet.help() == ""
    assert sheet.staff_only == frozenset()


def test_check_system():
    toy = Toy()
    assert check_system(toy) is toy

    class NoTitle(Toy):
        title = ""

        def __repr__(self):
            return "<no title>"

    class NoKey(NoTitle):
        key, title = "", "No key"

        def __repr__(self):
            return "<no key>"

    refused(lambda: check_system(NoTitle()), "<no title> is not a dice system.")
    refused(lambda: check_system(NoKey()), "<no key> is not a dice system.")
    refused(lambda: check_system("v5"), "'v5' is not a dice system.")


# ---------------------------------------------------------------- engine: reading typed text


def test_split_vs_message_and_read_whole_edges():
    refused(lambda: split_vs(" vs 3"), "Say what to roll before 'vs'.")
    assert read_whole("999999999999", "A number") == 999_999_999_999  # 12 digits: read as they are
    assert read_whole("1000000000000", "A number") == 10**12
    assert read_whole("-0", "A number", signed=True) == 0
    refused(lambda: read_whole("x" * 20, "A number"), f"A number, not '{'x' * 20}'.")
    refused(lambda: read_whole("x" * 21, "A number"), f"A number, not '{'x' * 20}...'.")
    refused(lambda: read_whole("-3", "A number"), "A number, not '-3'.")
    assert read_whole("7", "A number", check=lambda value: value * 2) == 14


# ---------------------------------------------------------------- checks


def test_checks():
    assert is_int(3) and is_int(0) and not is_int(True) and not is_int(2.0) and not is_int("3")
    assert check_pool(0) == 0 and check_pool(50) == 50
    for bad in (-1, True, 2.0, "3", None):
        refused(lambda: check_pool(bad), "A pool is a whole number of dice, 0 or more.")
    refused(lambda: check_pool(51), "That pool is 51 dice; pools are limited to 50.")
    assert check_faces(iter([1, 10]), 10, "d10 faces") == (1, 10) and check_faces([], 6, "d6 faces") == ()
    for bad in (0, 11, True, 2.5):
        refused(lambda: check_faces([5, bad], 10, "d10 faces"),
                f"d10 faces are whole numbers from 1 to 10, not {bad!r}.")
    refused(lambda: check_faces([1] * 51, 10, "d10 faces"), "That pool is 51 dice; pools are limited to 50.")


# ---------------------------------------------------------------- systems


@pytest.fixture
def clean_registry():
    systems.reset()
    yield
    systems.unregister("toy")
    systems.reset()


class SelfConfigured(Toy):
    """A toy whose configure returns itself, so which object is configured shows."""

    def configure(self, settings):
        self.settings = settings
        return self


def test_register_replaces_a_configured_system(clean_registry):
    first = systems.register(SelfConfigured())
    assert systems.configure(" TOY ", {"A": 1}) is first and first.settings == {"A": 1}
    assert systems.configure("toy") is first  # kept until reset
    second = systems.register(SelfConfigured())
    assert systems.configure("toy") is second and second.settings == {}


def test_unregister_forgets_the_configured_system(clean_registry):
    from storyteller_dice.rules.v5 import system as v5_system

    systems.unregister("never-registered")  # nothing to forget: no error
    systems.register(Toy())
    systems.unregister(" Toy ")  # registered, never configured
    unknown = f"Unknown dice system 'toy': available are {', '.join(systems.SYSTEMS)}."
    refused(lambda: systems.get_system("toy"), unknown)
    v5 = systems.configure("v5", {})
    systems.register(SelfConfigured())
    systems.configure("toy")
    systems.unregister(" TOY ")
    refused(lambda: systems.configure("toy"), unknown)
    assert systems.configure("v5") is v5 and v5 is not v5_system.SYSTEM  # only the toy was forgotten


def test_get_system_paths_without_an_attribute(monkeypatch):
    from storyteller_dice.rules.v5 import system as v5_system

    monkeypatch.setattr(systems, "SYSTEMS", {"gone": "storyteller_dice.rules.no_such_system:SYSTEM", "plain": "storyteller_dice.rules.v5.system",
                                             "bare": "storyteller_dice.rules.v5", "thing": "storyteller_dice.rules.v5.system:THING",
                                             "v5": "storyteller_dice.rules.v5.system:SYSTEM"})
    assert systems.get_system("plain") is v5_system.SYSTEM
    refused(lambda: systems.get_system("bare"), "The dice system 'bare' is not installed (storyteller_dice.rules.v5 has no SYSTEM).")
    refused(lambda: systems.get_system("thing"),
            "The dice system 'thing' is not installed (storyteller_dice.rules.v5.system has no THING).")
    # A broken entry before good ones does not hide them.
    assert systems.installed() == ("plain", "v5")


# ---------------------------------------------------------------- charts

SVG_HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" class="odds-chart" width="480" height="220" '
            'viewBox="0 0 480 220" role="img" aria-label="chance of each number of successes">'
            "<title>chance of each number of successes</title>"
            '<text x="44" y="16" class="title">chance of each number of successes</text>'
            '<line x1="44" y1="184" x2="470" y2="184" stroke="#888"/>')


def test_odds_svg_defaults_one_bar():
    # 480 x 220: plot 426 x 156 from (44, 28); one slot of 426 with a gap of 85.2.
    assert odds_svg(((0, Fraction(1)),)) == SVG_HEAD + (
        '<text x="40" y="32" text-anchor="end" class="axis">100.0%</text>'
        '<rect x="86.6" y="28" width="340.8" height="156" fill="#4a7ab5"><title>0 successes: 100.0%</title></rect>'
        '<text x="257" y="200" text-anchor="middle" class="axis">0</text>'
        '<text x="257" y="216" text-anchor="middle" class="axis">successes</text></svg>')


def test_odds_svg_all_zero_draws_flat_bars():
    # No chance anywhere (never from an OddsView, which sums to 1): flat bars, no division by zero.
    assert odds_svg(((0, 0), (1, 0))) == SVG_HEAD + (
        '<text x="40" y="32" text-anchor="end" class="axis">100.0%</text>'
        '<rect x="65.3" y="184" width="170.4" height="0" fill="#4a7ab5"><title>0 successes: 0.0%</title></rect>'
        '<text x="150.5" y="200" text-anchor="middle" class="axis">0</text>'
        '<rect x="278.3" y="184" width="170.4" height="0" fill="#4a7ab5"><title>1 success: 0.0%</title></rect>'
        '<text x="363.5" y="200" text-anchor="middle" class="axis">1</text>'
        '<text x="257" y="216" text-anchor="middle" class="axis">successes</text></svg>')


def test_odds_svg_title_is_escaped():
    svg = odds_svg(((3, Fraction(1)),), title='A <b> & "q"')
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="odds-chart" width="480" height="220" '
                          'viewBox="0 0 480 220" role="img" aria-label=\'A &lt;b&gt; &amp; "q"\'>'
                          '<title>A &lt;b&gt; &amp; "q"</title>'
                          '<text x="44" y="16" class="title">A &lt;b&gt; &amp; "q"</text>')


def _bar_titles(svg):
    return re.findall(r"<rect [^>]*><title>([^<]*)</title></rect>", svg)


def _axis_labels(svg):
    return re.findall(r'class="axis">([^<]*)</text>', svg)


@pytest.mark.parametrize("p, shown", [
    (0, "0.0%"), (Fraction(1, 10**6), "&lt;0.1%"), (Fraction(1, 2001), "&lt;0.1%"), (Fraction(1, 2000), "0.1%"),
    (Fraction(1, 1000), "0.1%"), (Fraction(999, 1000), "99.9%"), (Fraction(1, 3), "33.3%"),
])
def test_odds_svg_percentages(p, shown):
    assert _bar_titles(odds_svg(((0, 1 - p), (1, p))))[1] == f"1 success: {shown}"


def test_odds_svg_coordinates_keep_one_decimal_or_none():
    # Slots of 426/7: x = 44 + 426/7 * i + 426/70; whole numbers lose their ".0".
    svg = odds_svg([(i, Fraction(1, 7)) for i in range(7)])
    assert re.findall(r'<rect x="([^"]*)" y="([^"]*)" width="([^"]*)" height="([^"]*)"', svg) == [
        (x, "28", "48.7", "156") for x in ("50.1", "110.9", "171.8", "232.7", "293.5", "354.4", "415.2")]
    assert re.findall(r'<text x="([^"]*)" y="200"', svg) == ["74.4", "135.3", "196.1", "257", "317.9", "378.7", "439.6"]
    assert _axis_labels(svg) == ["14.3%", "0", "1", "2", "3", "4", "5", "6", "successes"]


def test_odds_svg_labels_at_most_about_twenty_scores():
    nineteen = odds_svg([(s, Fraction(1, 19)) for s in range(19)])
    assert _axis_labels(nineteen) == ["5.3%"] + [str(s) for s in range(19)] + ["successes"]
    forty = odds_svg([(s, Fraction(1, 40)) for s in range(40)])
    assert _axis_labels(forty) == ["2.5%"] + [str(s) for s in range(0, 40, 2)] + ["successes"]
    # 41 scores: a label every 2nd (41 // 20), not every 2.05th.
    forty_one = odds_svg([(s, Fraction(1, 41)) for s in range(41)])
    assert _axis_labels(forty_one) == ["2.4%"] + [str(s) for s in range(0, 41, 2)] + ["successes"]
    sixty = odds_svg([(s, Fraction(1, 60)) for s in range(60)], ("die", "dice"))
    assert _axis_labels(sixty) == ["1.7%"] + [str(s) for s in range(0, 60, 3)] + ["dice"]
    assert len(_bar_titles(sixty)) == 60


def test_odds_svg_keeps_the_likeliest_sixty_scores():
    end = [(s, Fraction(0)) for s in range(64)] + [(64, Fraction(1))]
    titles = _bar_titles(odds_svg(end))
    assert len(titles) == 60 and titles[0] == "5 successes: 0.0%" and titles[-1] == "64 successes: 100.0%"
    assert _axis_labels(odds_svg(end)) == ["100.0%"] + [str(s) for s in range(5, 65, 3)] + ["successes"]
    start = [(0, Fraction(1, 2)), (1, Fraction(1, 2))] + [(s, Fraction(0)) for s in range(2, 70)]
    titles = _bar_titles(odds_svg(start))
    assert len(titles) == 60 and titles[0] == "0 successes: 50.0%" and titles[-1] == "59 successes: 0.0%"
    middle = [(s, Fraction(0)) for s in range(30)] + [(30, Fraction(1, 2)), (31, Fraction(0)), (32, Fraction(1, 2))]
    middle += [(s, Fraction(0)) for s in range(33, 100)]
    titles = _bar_titles(odds_svg(middle))
    assert titles[0] == "0 successes: 0.0%" and titles[-1] == "59 successes: 0.0%"
    late = [(s, Fraction(0)) for s in range(70)] + [(70, Fraction(1, 4)), (71, Fraction(3, 4))]
    late += [(s, Fraction(0)) for s in range(72, 140)]
    titles = _bar_titles(odds_svg(late))
    assert titles[0] == "12 successes: 0.0%" and titles[-1] == "71 successes: 75.0%"


# ---------------------------------------------------------------- display: measuring and wrapping


@pytest.mark.parametrize("markup, length", [
    ("ab|/cd", 6),  # a layout code inside a line: its CR LF, and what follows
    ("|/x", 3),
    ("|[rx|", 2),  # a bright background at the very start, whatever the last character
    ("|q|[rz", 3),  # only the character just before `|[` can stop it being a code
    ("{a", 2),  # a lone `{` is one character, and the next one still counts
    ("{{x", 2),  # an escaped `{` before more text
    # The broken link shows whole, markup and all: 18 characters and a word joiner after each
    # `|` (no width on screen, but one code point, as Evennia measures: wrapping stays safe).
    (escape("|lcquit|ltclick|le"), 21),
])
def test_visible_len_inside_a_line(markup, length):
    assert visible_len(markup) == length


def test_wrap_edges():
    # A line that fits comes back as it is, trailing spaces and colour codes too (codes are no width).
    assert wrap("x" * 19 + " ", 20) == ["x" * 19 + " "]
    assert wrap("|r" + "x" * 16 + "  ", 20) == ["|r" + "x" * 16 + "  "]
    assert wrap("x" * 40 + " " + "y" * 40) == ["x" * 40, "  " + "y" * 40]  # 81 columns: 80 by default
    # Spaces at the end of a wrapped line are dropped; an odd run of leading spaces is the line's own.
    assert wrap("one two three four five six   ", 20) == ["one two three four", "  five six"]
    assert wrap(" one two three four five six", 20) == [" one two three four", "   five six"]
    assert wrap("one two three four five six", 20, indent=0) == ["one two three four", "five six"]
    # A line of nothing but spaces is left as it is (it shows nothing).
    assert wrap(" " * 30, 20) == [" " * 30]
    # Leading spaces that fill the line: the text starts on the next one, long word or short
    # (the long word used to overflow the first line by a character).
    assert wrap(" " * 20 + "yy", 20) == [" " * 20, "    yy"]
    assert wrap(" " * 20 + "y" * 30, 20) == [" " * 20, "    " + "y" * 16, "    " + "y" * 14]
    assert wrap(" " * 19 + "y" * 30, 20) == [" " * 19 + "y", "    " + "y" * 16, "    " + "y" * 13]
    # Codes at the end of a word stay together, as written.
    assert wrap("x" * 15 + " ab|r|n " + "y" * 10, 20) == ["x" * 15 + " ab|r|n", "  " + "y" * 10]
    assert wrap("x" * 15 + " |r|g " + "y" * 10, 20) == ["x" * 15 + " |r|g|n", "  |r|g" + "y" * 10]
    # A word that exactly fills a continuation line moves there whole.
    assert wrap("aaaa " + "b" * 18, 20) == ["aaaa", "  " + "b" * 18]
    # A word longer than a line starts on the next line when not even its first character fits.
    assert wrap("x" * 19 + " " + "y" * 30, 20) == ["x" * 19, "  " + "y" * 18, "  " + "y" * 12]
    assert wrap("x" * 16 + " |>" + "y" * 30, 20) == ["x" * 16, "  |>" + "y" * 14, "  " + "y" * 16]


def test_wrap_colour_codes_without_width():
    # A code alone between spaces fits on a full line; the next word carries it.
    assert wrap("x" * 19 + " |r y", 20) == ["x" * 19 + " |r|n", "  |ry"]
    # At a break the spaces around a lone code are the break's: dropped.
    assert wrap("x" * 20 + " |r y", 20) == ["x" * 20, "  |ry"]
    assert wrap("x" * 20 + " |n", 20) == ["x" * 20]
    # On the first line there is no break: the space after a leading code is shown (it was dropped).
    assert wrap("|r " + "word " * 10, 20) == ["|r word word word word|n", "  |rword word word|n", "  |rword word word"]
    assert wrap("  |r " + "y" * 30, 20) == ["  |r " + "y" * 17 + "|n", "    |r" + "y" * 13]
    # `[code` inside `|[c` (a bright background) is no verification code.
    assert wrap("x" * 15 + " |[code ABCD2345] y", 20) == ["x" * 15 + " |[code|n", "  |[cABCD2345] y"]


def test_append_code_edges():
    assert append_code("", "ABCD2345") == "[code ABCD2345]"
    assert append_code("a\n", "ABCD2345") == "a\n[code ABCD2345]"
    assert append_code("  " + "x" * 18, "ABCD2345", width=20) == "  " + "x" * 18 + "\n    [code ABCD2345]"


# ---------------------------------------------------------------- display: rolls


def _die(face, *marks):
    return Die(face, frozenset(marks))


def _view(groups, score=1, pool="5 dice", target="vs 6", notes=()):
    return RollView(system="toy", pool=pool, target=target, groups=tuple(groups), score=score,
                    noun=("success", "successes"), outcome=Outcome("success", "success", "good"), notes=tuple(notes))


def test_format_roll_edges():
    view = _view([DiceGroup("Dice", (_die(3, FAIL),))], pool="", target="")
    assert format_roll(view, "Anna") == "|w[Roll]|n Anna rolls\n  Dice: 3  =>  1 success: |gsuccess|n"
    assert format_roll(view, "Anna", comment="   ") == "|w[Roll]|n Anna rolls\n  Dice: 3  =>  1 success: |gsuccess|n"
    assert format_pool(_view([], pool="", target="vs 3")) == "vs 3"
    long = format_roll(_view([], pool="", target="vs 3"), "Anna", comment="w" * 201, width=10**6)
    assert long == "|w[Roll]|n Anna rolls vs 3 # " + "w" * 200 + "...\n  no dice  =>  1 success: |gsuccess|n"


def test_format_die_colour_only():
    assert format_die(_die(10, TEN), modifiers=False) == "|g10|n"
    assert format_die(_die(3, "hunger"), modifiers=False) == "|r3|n"
    assert format_die(_die(3, REROLLED, "hunger"), modifiers=False) == "|r3|n"
    assert format_die(_die(3, REROLLED, "hunger")) == "|u|r3|n"


def test_format_reroll_edges():
    before = _view([DiceGroup("Dice", (_die(10, TEN), _die(3, REROLLED, FAIL)))])
    # Old faces in colour only (an earlier reroll's underline is not shown); a die with no old face
    # at its place shows only its new one.
    after = _view([DiceGroup("Dice", tuple(_die(face, REROLLED, SUCCESS) for face in (7, 8, 9)))], score=3)
    assert format_reroll(before, after, "Willpower") == (
        "  |wWillpower|n: rerolled |g10|n 3 -> |0307|n |0308|n |0309|n\n"
        "  Dice: |u|0307|n |u|0308|n |u|0309|n  =>  3 successes: |gsuccess|n")
    # 81 columns: wrapped at the default 80.
    wide = _view([DiceGroup("Dice", (_die(7, REROLLED, SUCCESS),))], notes=("n" * 45,))
    assert format_reroll(before, wide, "Willpower") == (
        "  |wWillpower|n: rerolled |g10|n -> |0307|n\n  Dice: |u|0307|n  =>  1 success: |gsuccess|n\n    ("
        + "n" * 45 + ")")


# ---------------------------------------------------------------- display: odds


def test_shares_edges():
    assert shares([Fraction(1, 3), Fraction(1, 3)]) == [333, 333]  # not summing to 1: each rounded alone
    # Found by search (weights over their sum): each pins one step of the rounding.
    cases = [([3, 2140, 1, 16], [1, 991, 1, 7]),  # a possible outcome gets exactly 1 tenth
             ([4, 1, 3951, 3, 948], [1, 1, 804, 1, 193]),  # taken back from the most over-rounded
             ([1, 4708, 19, 1], [1, 995, 3, 1]),  # ... which need not be the first candidate
             ([8, 3747, 1, 1, 3], [1, 996, 1, 1, 1])]  # a chance shown 0.2% may lend one
    # Three possible outcomes lent a tenth each, all taken back from the one large chance.
    tiny = Fraction(1, 10**6)
    assert shares([tiny, tiny, tiny, 1 - 3 * tiny]) == [1, 1, 1, 997]
    for weights, expected in cases:
        assert shares([Fraction(w, sum(weights)) for w in weights]) == expected, weights


def test_chart_rows_edges():
    # Exactly 0.05% is a row of its own.
    assert format_chart(((0, Fraction(1, 2000)), (1, Fraction(1999, 2000)))) == (
        "  Successes:\n  0   0.1% #\n  1  99.9% " + "#" * 40)
    # Every score under 0.05%: the likeliest (the first of equals) holds them all.
    assert format_chart([(s, Fraction(1, 2001)) for s in range(2001)]) == "  Successes:\n  ≥ 0  100.0% " + "#" * 40
    # 12 rows fit; 13 are cut to the 12 likeliest (ties: the lowest), the rest joining the end row.
    assert [label for label, _ in _chart_rows([(s, Fraction(1, 12)) for s in range(12)])] == [
        str(s) for s in range(12)]
    assert format_chart([(s, Fraction(1, 13)) for s in range(13)]) == "  Successes:\n" + "".join(
        f"  {s:>4}   7.7% {'#' * 20}\n" for s in range(11)) + "  ≥ 11  15.3% " + "#" * 40
    # Rare low scores joined into "≤ 5", a short chart that starts late.
    tiny = Fraction(1, 10**6)
    late = [(s, tiny) for s in range(5)] + [(5, Fraction(1, 2) - 5 * tiny), (6, Fraction(1, 4)), (7, Fraction(1, 4))]
    assert format_chart(late) == "  Successes:\n  ≤ 5  50.0% " + "#" * 40 + "\n    6  25.0% " + "#" * 20 + \
        "\n    7  25.0% " + "#" * 20


def test_chart_rows_window_stays_within_the_likely_scores():
    # A rare score below the likely ones (0.04%) must not pull the window down past them...
    rare, inside, top = Fraction(4, 10000), Fraction(1, 10000), Fraction(10, 10000)
    rest = (1 - rare - inside - top) / 11
    low = [(0, rare)] + [(s, rest) for s in range(1, 12)] + [(12, inside), (13, top)]
    assert [label for label, _ in _chart_rows(low)] == ["≤ 1"] + [str(s) for s in range(2, 12)] + ["≥ 12"]
    # ... nor one above them (0.04% at 14) push it up past the last likely one (13).
    edge, rare2 = Fraction(10, 10000), Fraction(1, 10000)
    rest = (1 - edge - rare2 - rare2 - edge - rare) / 10
    high = [(0, edge), (1, rare2), (2, rare2)] + [(s, rest) for s in range(3, 13)] + [(13, edge), (14, rare)]
    assert [label for label, _ in _chart_rows(high)] == ["≤ 2"] + [str(s) for s in range(3, 13)] + ["≥ 13"]


def test_format_chart_edges():
    assert format_chart(()) == ""
    huge = 10**30  # a 31-character label: the bar gets what the width leaves
    assert format_chart(((huge, Fraction(1)),)) == f"  Successes:\n  {huge}  100.0% " + "#" * 38
    assert format_chart(((huge, Fraction(1)),), width=20) == f"  Successes:\n  {huge}  100.0% #"
    assert format_chart(((0, Fraction(1, 8)), (1, Fraction(3, 8)), (2, Fraction(3, 8)), (3, Fraction(1, 8))),
                        width=40) == ("  Successes:\n  0  12.5% ##########\n  1  37.5% " + "#" * 29 + "\n"
                                      "  2  37.5% " + "#" * 29 + "\n  3  12.5% ##########")
    # A score that cannot happen between two that can: its row, without a bar.
    assert format_chart(((0, Fraction(1, 2)), (1, Fraction(0)), (2, Fraction(1, 2)))) == (
        "  Successes:\n  0  50.0% " + "#" * 40 + "\n  1   0.0%\n  2  50.0% " + "#" * 40)


def test_format_odds_edges():
    one = (Chance("a", "any", Fraction(1)),)
    assert format_odds(OddsView("toy", "p" * 74, "", one, ())) == "|w[Odds]|n\n  " + "p" * 74 + "\n  any  100.0%"
    assert format_odds(OddsView("toy", "", "", (Chance("a", "any", Fraction(1), tone="weird"),), ())) == (
        "|w[Odds]|n\n  any  100.0%")
    view = OddsView("toy", "3 dice", "vs 2", (Chance("a", "win", Fraction(1, 3), tone="good"),
                                              Chance("b", "lose", Fraction(2, 3), tone="bad")), (),
                    notes=("a note that is long enough to wrap at forty columns",))
    assert format_odds(view, width=40) == ("|w[Odds]|n 3 dice, vs 2\n  |gwin|n   33.3%\n  |ylose|n  66.7%\n"
                                           "  a note that is long enough to wrap at\n    forty columns")


def test_format_refusal_edges():
    assert format_refusal("No.") == "No." and format_refusal("No.", "   ") == "No."
    assert format_refusal("x" * 40 + " " + "y" * 40) == "x" * 40 + "\n  " + "y" * 40


# ---------------------------------------------------------------- display: sheets


def test_sheet_columns_widen_for_long_traits():
    sections = (SheetSection("columns", "Traits", rows=(
        ("Body", (("Might", 4), ("An Extraordinarily Long Trait", 3))), ("Mind", (("Wits", 2),)),
        ("Soul", (("Grace", 1), ("Will", 5))))),)
    # Cells of 31 columns: columns of 33, two to a band at 80.
    assert format_sheet("Rook", "approved", sections).split("\n")[1:-1] == [
        "|wTraits|n",
        "|c " + "Body".ljust(33) + "Mind|n",
        " " + "Might           4".ljust(33) + "Wits            2",
        " An Extraordinarily Long Trait 3",
        "|c Soul|n",
        " Grace           1",
        " Will            5",
    ]


@pytest.mark.parametrize("width, bands", [
    (79, [["Body", "Mind", "Soul"]]),  # (79 - 1) // 26: three columns
    (78, [["Body", "Mind"], ["Soul"]]),  # (78 - 1) // 26: two
])
def test_sheet_columns_per_band(width, bands):
    traits = {"Body": (("Might", 4),), "Mind": (("Wits", 2), ("Lore", 1)), "Soul": (("Grace", 1),)}
    sections = (SheetSection("columns", "Traits", rows=tuple(traits.items())),)
    expected = ["|wTraits|n"]
    for band in bands:
        expected.append("|c " + "".join(title.ljust(26) for title in band).rstrip() + "|n")
        for index in range(max(len(traits[title]) for title in band)):
            cells = [f"{traits[title][index][0]:<15}{traits[title][index][1]:>2}" if index < len(traits[title])
                     else "" for title in band]
            expected.append(" " + "".join(cell.ljust(26) for cell in cells).rstrip())
    assert format_sheet("Rook", "approved", sections, width=width).split("\n")[1:-1] == expected
    assert expected[3].startswith(" " * 27 + "Lore")


def test_sheet_title_crop_and_centre():
    # rule 38, status 8: the name gets 22 characters, and the title fills the rule exactly.
    assert format_sheet("R" * 40, "approved", (), width=40).split("\n") == [
        "|w " + "R" * 22 + "... (approved) |n", "|w" + "=" * 38 + "|n"]
    # No room at all: one character of the name is still shown.
    assert format_sheet("Rook", "not approved yet", (), width=20).split("\n") == [
        "|w R... (not approved|n", "  |wyet) |n", "|w" + "=" * 18 + "|n"]
    # Centred as str.center does, on an odd rule (39) with an even and an odd padding.
    for name in ("Rook", "Rooks"):
        assert format_sheet(name, "approved", (), width=41).split("\n")[0] == \
            "|w" + f" {name} (approved) ".center(39, "=") + "|n"
    assert format_sheet("Rook", "approved", (), width=41).split("\n")[0] == "|w" + "=" * 11 + " Rook (approved) " + \
        "=" * 11 + "|n"
    assert format_sheet("Rooks", "approved", (), width=41).split("\n")[0] == "|w" + "=" * 11 + " Rooks (approved) " + \
        "=" * 10 + "|n"


def test_sheet_empty_texts_leave_no_trailing_space():
    sections = (SheetSection("track", "Stress", boxes="XX"), SheetSection("line", "Notes"))
    assert format_sheet("Rook", "approved", sections, width=41).split("\n")[1:3] == ["|wStress|n [XX]", "|wNotes:|n"]

"""
rules.display: escaping, widths, wrapping, and how rolls, odds, refusals and sheets look.

Pure (no database, no Evennia). The V5 look is checked against a copy of the display code as
it was before the record became system-neutral (`_Old` below: commands/dice_display.py's format_roll/format_reroll and
commands/sheet.py's render_sheet), and pinned by exact strings.
"""

import re
from fractions import Fraction
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import sheet as v5_sheet
from storyteller_dice.rules.display import (MAX_COMMENT, TONE_STYLES, append_code, escape, format_chart, format_dice,
                           format_odds, format_outcome, format_refusal, format_reroll, format_roll,
                           format_sheet, shares, strip_markup, visible_len, without_control, wrap)
from storyteller_dice.rules.engine import (CANCELLED, CANCELS, CHANCE, DOUBLE, FAIL, MARKS, ONE, SUCCESS, TEN,
                          TONES, Chance, DiceGroup, Die, OddsView, Outcome, Roller, RollView, SheetSection)
from storyteller_dice.rules.randomness import FixedFaces
from storyteller_dice.rules.v5.system import SYSTEM

# The rules' own column measure (one a code point), whatever a test of the game set before.
pytestmark = pytest.mark.usefixtures("code_point_columns")

EXAMPLES = settings(max_examples=50, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def joined(typed):
    """What Evennia shows of escaped text: as typed, with `escape`'s word joiner between a `|`
    and an `l` (it has no width and keeps the pair from starting a link)."""
    return re.sub(r"\|(?=l)", "|\u2060", typed)


# ------------------------------------------------------------------ the look before the system-neutral display


class _Old:
    """commands/dice_display.py and commands/sheet.py as they were (V5 only), as the oracle, with
    the colours at WCAG AA (every success marked |030, white on |[400, a total failure |511)."""

    COLOURS = {"messy_critical": "|[400|w", "critical": "|g", "exceptional": "|g", "solid": "|g", "bare": "|g",
               "bestial_failure": "|[400|w", "total_failure": "|511", "failure": "|y"}

    @staticmethod
    def regular_face(face, rerolled=False):
        mark = "|u" if rerolled else ""
        if face == 10:
            return f"{mark}|g10|n"
        if face >= 6:
            return f"{mark}|030{face}|n"
        return f"{mark}{face}|n" if mark else str(face)

    @staticmethod
    def hunger_face(face):
        return f"|[400|w{face}|n" if face in (1, 10) else f"|030{face}|n" if face >= 6 else f"|r{face}|n"

    @classmethod
    def faces(cls, result):
        regular = " ".join(cls.regular_face(f, i in result.rerolled) for i, f in enumerate(result.regular))
        parts = [f"Dice: {regular}"] if result.regular else []
        if result.hunger:
            parts.append("|rHunger:|n " + " ".join(cls.hunger_face(f) for f in result.hunger))
        return "  ".join(parts)

    @classmethod
    def outcome(cls, result, given=True):
        key = result.outcome
        if not given and key in ("bare", "solid", "exceptional"):
            key = "success"
        label = dict(v5.OUTCOME_LABELS, success="success")[key]
        text = f"{result.successes} {'success' if result.successes == 1 else 'successes'}: " \
               f"{cls.COLOURS.get(key, '|g')}{label}|n"
        if given:
            extra = f"margin {'+' if result.margin >= 0 else ''}{result.margin}"
            if result.win and result.margin_label != label:
                extra += f", {result.margin_label}"
            text += f" ({extra})"
        return text

    @classmethod
    def roll(cls, name, pool, result, given=True, comment="", private_to=None, title="rolls"):
        prefix = "|w[Roll]|n" if private_to is None else "|w[Private roll]|n"
        text = escape(pool.describe())
        if len(pool.parts) > 1 or pool.parts[0].trait or pool.total < 1:
            text += f" ({result.pool} {'die' if result.pool == 1 else 'dice'})"
        else:
            text += " die" if result.pool == 1 else " dice"
        text += f", Hunger {result.hunger_level}" + (f", vs {result.difficulty}" if given else "")
        header = f"{prefix} {escape(name)} {title} {text}"
        if comment:
            header += f" # {escape(comment, MAX_COMMENT)}"
        lines = [header, f"  {cls.faces(result)}  =>  {cls.outcome(result, given)}"]
        if private_to is not None:
            lines.append("  (private: shown to " + ", ".join(escape(n) for n in private_to) + ")")
        return "\n".join(lines)

    @classmethod
    def reroll(cls, before, after, strategy, given=True):
        old = " ".join(str(before.regular[i]) for i in after.rerolled)
        new = " ".join(cls.regular_face(after.regular[i]) for i in after.rerolled)
        return (f"  |wWillpower|n ({escape(strategy)}): rerolled {old} -> {new}\n"
                f"  {cls.faces(after)}  =>  {cls.outcome(after, given)}")

    @staticmethod
    def sheet(name, approved, values, specialties, frenzy=False):
        def row(cells):
            return " " + "".join(cell.ljust(26) for cell in cells).rstrip()

        title = f" {escape(name)} ({'approved' if approved else 'not approved'}) "
        lines = [f"|w{title.center(78, '=')}|n"]
        for heading, groups in (("Attributes", v5_sheet.ATTRIBUTES), ("Skills", v5_sheet.SKILLS)):
            lines.append(f"|w{heading}|n")
            lines.append("|c" + row(group.title() for group in groups) + "|n")
            columns = list(groups.values())
            for index in range(max(len(col) for col in columns)):
                lines.append(row(f"{col[index].title():<15}{values[col[index]]:>2}" if index < len(col) else ""
                                 for col in columns))
        if specialties:
            listed = ", ".join(f"{skill.title()} ({escape(n)})"
                               for skill in v5_sheet.ALL_SKILLS for n in specialties.get(skill, ()))
            lines.append(f"|wSpecialties:|n {listed}")
        known = [f"{n.title()} {values[n]}" for n in v5_sheet.DISCIPLINES if values[n]]
        lines.append("|wDisciplines:|n " + (", ".join(known) if known else "none"))
        lines.append(f"|wHunger|n {values['hunger']}   |wHumanity|n {values['humanity']} "
                     f"(Stains {values['stains']})   |wBlood Potency|n {values['blood potency']}"
                     + ("   |[400|wIN FRENZY|n" if frenzy else ""))
        for track, maximum in (("willpower", v5_sheet.willpower_max(values)),
                               ("health", v5_sheet.health_max(values))):
            sup, agg = values[f"{track} superficial"], values[f"{track} aggravated"]
            boxes = "X" * agg + "/" * sup + "." * (maximum - agg - sup)
            lines.append(f"|w{track.title():<9}|n [{boxes}] {maximum - sup - agg}/{maximum} left "
                         f"(Superficial {sup}, Aggravated {agg})")
        lines.append("|w" + "=" * 78 + "|n")
        return "\n".join(lines)


def v5_roll(text, hunger, faces):
    """(request, result, view) of a V5 roll with these faces (regular dice first)."""
    request = SYSTEM.parse(text)
    result = SYSTEM.roll(request, Roller(name="Anna", state={"hunger": hunger}), FixedFaces(faces))
    return request, result, SYSTEM.view(result, request)


# ------------------------------------------------------------------ escaping


def test_escape_keeps_its_behaviour():
    assert escape("a|rb", 2) == "a||..."
    assert escape(None) == "None"
    assert escape("|r red |n") == "||r red ||n"
    assert escape("{0} {{x}}") == "{{0} {{{{x}}"
    assert escape("|lcquit|ltclick|le") == "||\u2060lcquit||\u2060ltclick||\u2060le"
    assert escape("a\x1b[31mb\nc\u202ed\x00e") == "a [31mb c d e"
    assert escape("  many   spaces\t\there  ") == "many spaces here"
    assert escape("x" * 10, 4) == "xxxx..."
    assert escape("abc  def", 4) == "abc..."
    assert escape("$randint(1,10) <b>&amp;\\") == "$randint(1,10) <b>&amp;\\"


def test_without_control_keeps_its_behaviour():
    assert without_control("a\x00\x07b\x7f\x85c\x9bd\u2028e\u2066f") == "a b c d e f"
    assert without_control("keep  two spaces") == "keep  two spaces"
    assert without_control(12) == "12"


# ------------------------------------------------------------------ widths


@pytest.mark.parametrize("markup, length", [
    ("plain", 5), ("|g10|n", 2), ("||", 1), ("|||r", 1), ("||||", 2), ("{{", 1), ("{", 1),
    ("|[400|wx|n", 1), ("|#ff0000x|[#00f", 1), ("|555x|[123|=a|[=zy", 2), ("|!Rx|[Ry", 2),
    ("|/", 2), ("|>", 4), ("|-", 1), ("|_", 1), ("|", 1), ("|q", 2), ("|[r", 0), ("|||[r", 4),
    ("|lcquit|ltclick|le", 5), ("|luhttp://x|ltgo|le", 8), ("|||Hlcquit", 7), ("", 0),
])
def test_visible_len(markup, length):
    assert visible_len(markup) == length


def test_wrap_leaves_a_line_that_fits_alone():
    line = "  Dice: 2 |0306|n |g10|n  |rHunger:|n |[400|w1|n  =>  3   spaces kept  "
    assert wrap(line, 80) == [line]


def test_wrap_hanging_indent_beyond_the_line_own():
    assert wrap("one two three four five six", 20) == ["one two three four", "  five six"]
    assert wrap("  one two three four five six", 20) == ["  one two three four", "    five six"]
    assert wrap("one two three four five six seven", 30, indent=6) == ["one two three four five six", "      seven"]
    assert wrap("one two three four five six", 20, indent=6)[1] == "    five six"  # room kept for a code
    assert wrap("a\nb c", 20) == ["a", "b c"]


def test_wrap_carries_colour_over_a_break():
    assert wrap("aaaa bbbb |rcccc dddd eeee ffff|n gggg", 20) == [
        "aaaa bbbb |rcccc dddd|n", "  |reeee ffff|n gggg"]
    assert wrap("|[400|wred red red red red red|n", 20) == ["|[400|wred red red red red|n", "  |[400|wred|n"]


def test_wrap_never_splits_a_code_an_escape_or_the_verification_code():
    lines = wrap("x" * 10 + " [code ABCD2345] y", 20)
    assert lines == ["xxxxxxxxxx", "  [code ABCD2345] y"]
    lines = wrap("||" * 30, 20)
    assert lines == ["||" * 20, "  " + "||" * 10]
    lines = wrap("a" * 19 + "|g" + "b" * 5 + "|n", 20)
    assert lines == ["a" * 19 + "|gb|n", "  |gbbbb|n"]
    # What a break puts in never joins the text next to it: a lone `|`, a short hex colour.
    assert wrap("|r" + "x" * 19 + "|q", 20) == ["|r" + "x" * 19 + "||" + "|n", "  |rq"]
    assert wrap("|#0f0" + "x" * 20 + "abc", 20) == ["|#0f0" + "x" * 20 + "|n", "  |#00ff00abc"]


def test_wrap_splits_only_a_word_longer_than_a_line():
    long = "z" * 50
    assert wrap(f"# {long}", 20) == ["# " + "z" * 18, "  " + "z" * 18, "  " + "z" * 14]
    assert wrap(f"word {'y' * 16}", 20) == ["word", "  " + "y" * 16]


def test_wrap_width_limits():
    assert wrap("a b", 0) == ["a b"]
    assert wrap("one two three four five six seven", 5) == ["one two three four", "  five six seven"]


def test_append_code():
    assert append_code("a\n  b", "ABCD2345") == "a\n  b [code ABCD2345]"
    assert append_code("x" * 70, "ABCD2345") == "x" * 70 + "\n  [code ABCD2345]"
    assert append_code("  " + "x" * 70, "ABCD2345") == "  " + "x" * 70 + "\n    [code ABCD2345]"
    assert append_code("x" * 64, "ABCD2345") == "x" * 64 + " [code ABCD2345]"
    assert append_code("x" * 65, "ABCD2345") == "x" * 65 + "\n  [code ABCD2345]"
    assert append_code("|g" + "x" * 64 + "|n", "ABCD2345") == "|g" + "x" * 64 + "|n [code ABCD2345]"


# ------------------------------------------------------------------ V5 rolls, as before


def test_v5_normal_roll():
    request, result, view = v5_roll("3+2 vs 2", 1, [2, 6, 7, 4, 3])
    text = format_roll(view, "Anna", comment="sneaking past")
    assert text == ("|w[Roll]|n Anna rolls 3 + 2 = 5 (5 dice), Hunger 1, vs 2 # sneaking past\n"
                    "  Dice: 2 |0306|n |0307|n 4  |rHunger:|n |r3|n  =>  2 successes: |gbare success|n (margin +0)")
    assert text == _Old.roll("Anna", request.pool, result, True, "sneaking past")


def test_v5_messy_critical():
    request, result, view = v5_roll("3+2 vs 3", 2, [2, 6, 10, 1, 10])
    text = format_roll(view, "Anna", comment="x", width=200)
    assert text == ("|w[Roll]|n Anna rolls 3 + 2 = 5 (5 dice), Hunger 2, vs 3 # x\n"
                    "  Dice: 2 |0306|n |g10|n  |rHunger:|n |[400|w1|n |[400|w10|n  =>  5 successes: "
                    "|[400|wmessy critical|n (margin +2, solid success)")
    assert text == _Old.roll("Anna", request.pool, result, True, "x")
    # At 80 columns the body is 85 wide: it wraps, with the colour of the outcome carried.
    assert format_roll(view, "Anna", comment="x").split("\n")[1:] == [
        "  Dice: 2 |0306|n |g10|n  |rHunger:|n |[400|w1|n |[400|w10|n  =>  5 successes: |[400|wmessy critical|n (margin +2, solid",
        "    success)"]


def test_v5_bestial_failure_private():
    request, result, view = v5_roll("5 vs 2", 1, [2, 6, 3, 4, 1])
    text = format_roll(view, "Anna", private_to=["Anna", "Bob", "staff"])
    assert text == ("|w[Private roll]|n Anna rolls 5 dice, Hunger 1, vs 2\n"
                    "  Dice: 2 |0306|n 3 4  |rHunger:|n |[400|w1|n  =>  1 success: |[400|wbestial failure|n (margin -1)\n"
                    "  (private: shown to Anna, Bob, staff)")
    assert text == _Old.roll("Anna", request.pool, result, True, private_to=["Anna", "Bob", "staff"])


def test_v5_no_difficulty_and_a_check():
    request, result, view = v5_roll("5", 0, [2, 6, 3, 4, 7])
    text = format_roll(view, "Anna", verb="checks")
    assert text == "|w[Roll]|n Anna checks 5 dice, Hunger 0\n  Dice: 2 |0306|n 3 4 |0307|n  =>  2 successes: |gsuccess|n"
    assert text == _Old.roll("Anna", request.pool, result, False, title="checks")


def test_v5_rerolled_dice():
    request, result, view = v5_roll("5 vs 3", 1, [2, 6, 3, 10, 7])
    after = v5.reroll(result, [0, 2], rng=FixedFaces([10, 7]))
    after_view = SYSTEM.view(after, request)
    text = format_reroll(view, after_view, "Willpower", width=200, detail="failures")
    assert text == ("  |wWillpower|n (failures): rerolled 2 3 -> |g10|n |0307|n\n"
                    "  Dice: |u|g10|n |0306|n |u|0307|n |g10|n  |rHunger:|n |0307|n  =>  7 successes: "
                    "|gcritical success|n (margin +4, exceptional success)")
    assert text == _Old.reroll(result, after, "failures")
    assert format_roll(after_view, "Anna", width=200) == _Old.roll("Anna", request.pool, after)
    assert format_reroll(view, view, "Willpower").startswith("  |wWillpower|n: rerolled no dice\n")


def test_v5_total_failure_keeps_its_red():
    """Tone "dire" (worse than a plain failure, short of a disaster) is a light red: Evennia's
    dark red |R is 1.9:1 on the web client's black, |511 (#ff5f5f) 7.1:1."""
    _, _, view = v5_roll("5 vs 2", 0, [2, 3, 3, 4, 1])
    assert format_outcome(view) == "0 successes: |511total failure|n (margin -2)"


# ------------------------------------------------------------------ other marks and shapes


def view_of(groups, score=1, outcome=("success", "success", "good"), notes=(), pool="5 dice", target="vs 6",
            noun=("success", "successes")):
    return RollView(system="toy", pool=pool, target=target, groups=tuple(groups), score=score, noun=noun,
                    outcome=Outcome(*outcome), notes=tuple(notes))


def die(face, *marks):
    return Die(face, frozenset(marks))


def test_cancelled_cancels_and_double():
    view = view_of([DiceGroup("Dice", (die(7, SUCCESS), die(1, ONE, CANCELS), die(8, SUCCESS, CANCELLED),
                                       die(3, FAIL), die(10, SUCCESS, DOUBLE)))],
                   score=3, notes=("one 1 cancelled a success",))
    assert format_roll(view, "Vesper", verb="rolls") == (
        "|w[Roll]|n Vesper rolls 5 dice, vs 6\n"
        "  Dice: |0307|n |5111|n |x8|n 3 |g10|n  =>  3 successes: |gsuccess|n (one 1 cancelled a success)")


def test_chance_die_group_and_a_botch():
    view = view_of([DiceGroup("Chance die", (die(1, CHANCE, ONE),))], score=0,
                   outcome=("botch", "botch", "disaster"), target="")
    assert format_dice(view) == "|cChance die:|n |[400|w1|n"
    assert format_outcome(view) == "0 successes: |[400|wbotch|n"
    assert format_dice(view_of([DiceGroup("Chance die", (die(10, CHANCE, TEN, SUCCESS),))])) == \
        "|cChance die:|n |g10|n"


def test_other_die_sizes_and_notes():
    view = view_of([DiceGroup("Dice", (die(8, SUCCESS), die(3, FAIL), die(1, ONE)), sides=8),
                    DiceGroup("Bonus d8", (die(5, SUCCESS),), sides=8)],
                   score=2, noun=("hit", "hits"), outcome=("met", "met", "good"), target="(5,2)",
                   notes=("needs 2 hits of 5+", "Injured: -1 die"), pool="Athletics 4 = 4 dice")
    assert format_roll(view, "Rook", width=120) == (
        "|w[Roll]|n Rook rolls Athletics 4 = 4 dice, (5,2)\n"
        "  Dice (d8): |0308|n 3 |5111|n  Bonus d8: |0305|n  =>  2 hits: |gmet|n (needs 2 hits of 5+; Injured: -1 die)")


def test_no_score_no_dice_neutral_tone():
    view = view_of([], score=None, outcome=("no_roll", "no roll", "neutral"), target="")
    assert format_roll(view, "Anna") == "|w[Roll]|n Anna rolls 5 dice\n  no dice  =>  no roll"
    empty = view_of([DiceGroup("Hunger", ())])
    assert format_dice(empty) == "Hunger: none"
    assert format_dice(view_of([DiceGroup("", (die(3, FAIL),)), DiceGroup("", (die(4, FAIL),), sides=6)])) == \
        "3  (d6): 4"


def test_every_tone_has_a_style():
    assert set(TONE_STYLES) == set(TONES)


def test_view_text_is_escaped_and_prefix_is_ours():
    view = view_of([DiceGroup("|rX", (die(2, FAIL),))], pool="|lcquit|ltx|le", target="{vs}",
                   outcome=("k", "|[rwin", "good"), notes=("|/",))
    text = format_roll(view, "|rA", verb="|g", comment="|n", private_to=["|b"], prefix="|c[Test]|n")
    assert text == ("|c[Test]|n ||rA ||g ||\u2060lcquit||\u2060ltx||\u2060le, {{vs} # ||n\n"
                    "  ||rX: 2  =>  1 success: |g||[rwin|n (||/)\n"
                    "  (private: shown to ||b)")


def test_long_comment_and_code_at_80():
    _, _, view = v5_roll("7 vs 2", 2, [10, 6, 3, 2, 9, 1, 10])
    text = append_code(format_roll(view, "Anna", comment="w" * 200), "ABCD2345")
    lines = text.split("\n")
    assert all(visible_len(line) <= 80 for line in lines)
    assert lines[0] == "|w[Roll]|n Anna rolls 7 dice, Hunger 2, vs 2 # " + "w" * 37
    assert lines[1:4] == ["  " + "w" * 78, "  " + "w" * 78, "  " + "w" * 7]
    assert lines[4:] == [
        "  Dice: |g10|n |0306|n 3 2 |0309|n  |rHunger:|n |[400|w1|n |[400|w10|n  =>  6 successes: |[400|wmessy critical|n (margin +4,",
        "    exceptional success) [code ABCD2345]"]


# ------------------------------------------------------------------ the 80-column property

TEXT_PIECES = st.one_of(
    st.sampled_from(["|r", "|[r", "|#ff0000", "|555", "|n", "||", "|", "|lc", "|lt", "|le", "{", "{{",
                     "[code ABCD2345]", "[code", "]", "\x1b[31m", "\n", "\u202e", " ", "  ", "é", "漢字",
                     "x" * 90, "|" * 60, "w"]),
    st.text(max_size=6),
)
HOSTILE = st.lists(TEXT_PIECES, max_size=10).map("".join)
MARK_SETS = st.frozensets(st.sampled_from(MARKS), max_size=3)
DIE = st.builds(Die, st.integers(1, 12), MARK_SETS)
GROUP = st.builds(DiceGroup, HOSTILE, st.lists(DIE, max_size=20).map(tuple), st.sampled_from([6, 8, 10, 12]))
VIEW = st.builds(
    RollView, system=st.just("toy"), pool=HOSTILE, target=HOSTILE, groups=st.lists(GROUP, max_size=3).map(tuple),
    score=st.one_of(st.none(), st.integers(-5, 60)), noun=st.just(("success", "successes")),
    outcome=st.builds(Outcome, st.just("k"), HOSTILE, st.sampled_from(TONES)),
    notes=st.lists(HOSTILE, max_size=2).map(tuple))


def _benign(view):
    """The same view with every text of it harmless (same marks, tones, faces)."""
    return RollView(system=view.system, pool="x", target="x" if view.target else "",
                    groups=tuple(DiceGroup("x" if escape(g.label) else "", g.dice, g.sides) for g in view.groups), score=view.score,
                    noun=view.noun, outcome=Outcome("k", "x", view.outcome.tone), notes=("x",) * len(view.notes))


def _styles(markup):
    from storyteller_dice.rules.display import _STYLE, _tokens

    tokens = _tokens(markup)
    # `escape`'s own link break (`|H` between an escaped `|` and an `l`) is no colour.
    return [source for i, (kind, source, _) in enumerate(tokens) if kind == _STYLE and not (
        source == "|H" and 0 < i < len(tokens) - 1 and tokens[i - 1][1] == "||" and tokens[i + 1][1] == "l")]


def _words(markup):
    return strip_markup(markup).split()


def _units(markup):
    """What `wrap` never splits but for overlong ones: words, with `[code XXXX]` as one."""
    return re.sub(r"\[code (\w+)\]", r"[code_\1]", strip_markup(markup)).split()


@EXAMPLES
@given(view=VIEW, name=HOSTILE, comment=HOSTILE, private=st.one_of(st.none(), st.lists(HOSTILE, max_size=3)),
       width=st.integers(40, 200))
def test_every_line_fits_and_nothing_is_lost(view, name, comment, private, width):
    unwrapped = format_roll(view, name, comment=comment, private_to=private, width=10**6)
    text = append_code(format_roll(view, name, comment=comment, private_to=private, width=width), "ABCD2345", width)
    lines = text.split("\n")
    # Every line fits; the code is whole, on the last line.
    assert all(visible_len(line) <= width for line in lines), [visible_len(line) for line in lines]
    assert lines[-1].endswith("[code ABCD2345]")
    # Nothing lost or moved: the same characters, and the same words unless one was too long.
    assert "".join(_words(text)) == "".join(_words(unwrapped)) + "[codeABCD2345]"
    hang = max(len(line) - len(line.lstrip(" ")) for line in unwrapped.split("\n")) + 2
    if max(map(len, _units(unwrapped)), default=0) <= width - hang:
        assert _words(text) == _words(unwrapped) + ["[code", "ABCD2345]"]
    # Escaping: the player's text shows literally, and no colour is of the player's making.
    shown = strip_markup(unwrapped)
    assert joined(" ".join(without_control(name).split())) in shown
    assert joined(" ".join(without_control(comment).split())[:MAX_COMMENT].rstrip()) in shown
    benign = format_roll(_benign(view), "x", comment="x" if escape(comment) else "",
                         private_to=None if private is None else ["x"] * len(private), width=10**6)
    assert _styles(unwrapped) == _styles(benign)


@EXAMPLES
@given(pieces=st.lists(st.one_of(st.sampled_from(["|r", "|[r", "|n", "|#0f0", "||", "{{", " ", "  ",
                                                  "[code ABCD2345]", "|u|g10|n"]),
                                 st.text(st.characters(blacklist_categories=("Cc", "Zs", "Zl", "Zp", "Cs"), blacklist_characters="|"),
                                         min_size=1, max_size=30)), max_size=30),
       width=st.integers(20, 120), indent=st.integers(0, 8))
def test_wrap_property(pieces, width, indent):
    markup = "".join(pieces)
    lines = wrap(markup, width, indent)
    assert all(visible_len(line) <= width for line in lines)
    assert "".join(_words("\n".join(lines))) == "".join(_words(markup))
    assert all("[code ABCD2345]" in line for line in lines if "[code A" in line)
    lead = len(markup) - len(markup.lstrip(" "))
    if max(map(len, _units(markup)), default=0) <= width - min(lead + indent, width - 16):
        assert _words("\n".join(lines)) == _words(markup)


# ------------------------------------------------------------------ odds


def test_v5_odds():
    view = SYSTEM.odds(SYSTEM.parse("7 vs 3"), Roller(state={"hunger": 2}))
    assert format_odds(view) == (
        "|w[Odds]|n 7 dice, Hunger 2, vs 3\n"
        "  |[400|wmessy critical|n           8.4%\n"
        "  |gcritical success|n         6.6%\n"
        "  |gsuccess (not critical)|n  63.0%\n"
        "  |yfailure|n                 15.3%\n"
        "  |511total failure|n            0.5%\n"
        "  |[400|wbestial failure|n          6.2%\n"
        "  expected successes 3.80\n"
        "  Successes:\n"
        "     0   0.8% #\n"
        "     1   5.5% #########\n"
        "     2  15.7% ##########################\n"
        "     3  24.5% ########################################\n"
        "     4  23.1% ######################################\n"
        "     5  14.9% ########################\n"
        "     6   8.5% ##############\n"
        "     7   4.7% ########\n"
        "     8   1.8% ###\n"
        "     9   0.4% #\n"
        "  \u2265 10   0.1% #")


def _shown_percentages(text):
    return [Fraction(p) for p in re.findall(r"(\d+\.\d)%", strip_markup(text))]


def test_largest_remainder_and_never_zero_for_the_possible():
    third = Fraction(1, 3)
    # Equal chances show equal figures, though the column then sums to 99.9%.
    assert shares([third, third, third]) == [333, 333, 333]
    assert shares([Fraction(1, 2), Fraction(1, 2) - Fraction(1, 10**6), Fraction(1, 10**6)]) == [500, 499, 1]
    assert shares([1 - Fraction(1, 10**6), Fraction(1, 10**6), 0]) == [999, 1, 0]
    assert shares([Fraction(1), 0]) == [1000, 0]
    assert shares([Fraction(1, 8)] * 8) == [125] * 8


@EXAMPLES
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=12).filter(any))
def test_percentages_sum_to_100(weights):
    total = sum(weights)
    chances = tuple(Chance(f"c{i}", f"outcome {i}", Fraction(w, total)) for i, w in enumerate(weights))
    text = format_odds(OddsView("toy", "pool", "", chances, ()))
    shown = _shown_percentages(text)
    assert len(shown) == len(weights)
    # Sums to 100.0 unless equal chances could not all take the tenth left over.
    positive = [w for w in weights if w]
    assert abs(sum(shown) - 100) < Fraction(len(weights), 10)
    if len(set(positive)) == len(positive):
        assert sum(shown) == 100
    for weight, other, value, shown_other in ((w, v, s, t) for w, s in zip(weights, shown)
                                              for v, t in zip(weights, shown)):
        assert (weight == other) <= (value == shown_other)
        assert (weight > other) <= (value >= shown_other)
    for weight, value in zip(weights, shown):
        assert (value > 0) == (weight > 0)
        assert value < 100 or weight == total
        assert abs(value - Fraction(100 * weight, total)) < Fraction(1, 10) * len(weights)


def coins(n):
    return tuple((k, Fraction(comb(n, k), 2**n)) for k in range(n + 1))


def test_chart_small():
    assert format_chart(coins(3), ("head", "heads")) == (
        "  Heads:\n"
        "  0  12.5% #############\n"
        "  1  37.5% ########################################\n"
        "  2  37.5% ########################################\n"
        "  3  12.5% #############")


def test_chart_collapses_tails_and_fits():
    text = format_odds(OddsView("toy", "30 coins", "", (Chance("a", "any", Fraction(1)),), coins(30),
                                noun=("head", "heads")), width=40)
    lines = text.split("\n")
    assert lines[:3] == ["|w[Odds]|n 30 coins", "  any  100.0%", "  Heads:"]
    assert lines[3].startswith("   ≤ 9   2.1% #") and lines[-1].startswith("  ≥ 20   4.9% #")
    assert len(lines) - 3 == 12 and all(visible_len(line) <= 40 for line in lines)
    assert sum(_shown_percentages("\n".join(lines[3:]))) == 100
    # Scores under 0.05% at the ends go into the end rows; rows between stay.
    rare = ((0, Fraction(1, 2)), (1, Fraction(1, 2) - Fraction(1, 10**6)), (2, Fraction(1, 10**6)))
    assert format_chart(rare).split("\n")[1:] == ["    0  50.0% " + "#" * 40, "  ≥ 1  50.0% " + "#" * 40]


# ------------------------------------------------------------------ refusals


def test_refusal():
    assert format_refusal("I can't read '||r' in the pool.", "+roll <pool> [vs <difficulty>]") == \
        "I can't read '||r' in the pool.\nUsage: +roll <pool> [vs <difficulty>]"
    assert format_refusal("No.", "") == "No."
    long = format_refusal("word " * 30, "+x <a|b>", width=40).split("\n")
    assert all(visible_len(line) <= 40 for line in long) and long[-1] == "Usage: +x <a||b>"


# ------------------------------------------------------------------ sheets

VALUES = {"dexterity": 3, "strength": 2, "stamina": 3, "composure": 2, "resolve": 3, "hunger": 2, "humanity": 7,
          "stains": 1, "blood potency": 1, "auspex": 2, "celerity": 1, "academics": 2, "brawl": 3,
          "willpower superficial": 1, "health aggravated": 1, "health superficial": 2}
SPECIALTIES = {"academics": ["History"], "brawl": ["Grappling"]}


@pytest.mark.parametrize("name, approved, specialties", [("Anna", True, SPECIALTIES), ("Bo", False, {})])
def test_v5_sheet_looks_as_before(name, approved, specialties):
    values = v5_sheet.clamp_all(VALUES)
    new = format_sheet(name, "approved" if approved else "not approved",
                       SYSTEM.sheet.layout(values, specialties)).split("\n")
    old = _Old.sheet(name, approved, values, specialties).split("\n")
    assert [strip_markup(line) for line in new] == [strip_markup(line) for line in old]
    # The same markup too, but the Hunger line: a "line" section has one bold title.
    hunger = next(i for i, line in enumerate(old) if line.startswith("|wHunger|n"))
    assert new[:hunger] + new[hunger + 1:] == old[:hunger] + old[hunger + 1:]
    assert new[hunger] == "|wHunger|n 2   Humanity 7 (Stains 1)   Blood Potency 1"


def test_sheet_fits_a_narrow_screen_and_escapes():
    values = v5_sheet.clamp_all(VALUES)
    text = format_sheet("|rAnna", "approved", SYSTEM.sheet.layout(values, {"academics": ["|lcx|ltHistory|le"]}),
                        width=40)
    lines = text.split("\n")
    assert all(visible_len(line) <= 40 for line in lines)
    assert lines[0] == "|w========= ||rAnna (approved) ==========|n"  # centred as str.center would
    assert lines[1:4] == ["|wAttributes|n", "|c Physical|n", " Strength        2"]
    assert "||\u2060lcx||\u2060ltHistory||\u2060le" in text


def test_sheet_sections_of_other_systems():
    sections = (SheetSection("columns", "Traits", rows=(("Body", (("Might", 4), ("A Very Long Trait Name", 12))),)),
                SheetSection("line", "Notes", text="none"),
                SheetSection("track", "Stress", boxes="XX...", text="3/5"),
                SheetSection("track", "Luck", boxes="..", text="2/2"))
    assert format_sheet("Rook", "approved", sections, width=60).split("\n") == [
        "|w" + " Rook (approved) ".center(58, "=") + "|n",
        "|wTraits|n",
        "|c Body|n",
        " Might           4",
        " A Very Long Trait Name12",
        "|wNotes:|n none",
        "|wStress|n [XX...] 3/5",
        "|wLuck  |n [..] 2/2",
        "|w==========================================================|n",
    ]


def test_column_measure_is_the_measure_set_and_put_back():
    from storyteller_dice.rules import display

    def wide(shown):
        return 2 * len(shown)

    before = display.measure_columns(wide)
    try:
        assert display.column_measure() is wide
        assert display.columns("ab") == 4
    finally:
        display.measure_columns(before)
    assert display.column_measure() is before

"""
rules.display measures markup as Evennia strips it: `visible_len(s) == len(strip_ansi(s))` for
any mix of Evennia's colour, layout and link markup, escapes and text (no database needed;
this file imports Evennia, so it is apart from the pure tests/rules/test_display.py).
"""

import re

import pytest

from evennia.utils.ansi import strip_ansi
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storyteller_dice.rules.display import escape, format_roll, strip_markup, visible_len, without_control, wrap
from storyteller_dice.rules.engine import FAIL, HUNGER, ONE, REROLLED, SUCCESS, TEN, DiceGroup, Die, Outcome, RollView

# Evennia counts a code point as one column; so do the rules unless the game sets a measure.
pytestmark = pytest.mark.usefixtures("code_point_columns")

MARKUP = [
    "|n", "|r", "|R", "|g", "|w", "|x", "|X", "|h", "|H", "|u", "|U", "|i", "|I", "|s", "|S", "|*", "|^",
    "|!R", "|!w", "|[R", "|[r", "|[w", "|[x", "|[q", "|#ff0000", "|#F0a", "|#ff00", "|[#00ff00", "|[#0f0",
    "|555", "|[123", "|600", "|=a", "|[=z", "|=A", "|/", "|-", "|_", "|>", "||", "|||", "|", "|q", "|[",
    "{{", "{", "}", "\\", "\\\\", "|lc", "|lt", "|le", "|lu", "|lcquit|ltclick|le", "|luhttp://x|ltok|le",
    "|||Hlc", "||\u2060lc", "[code ABCD2345]", "$you()", "\u202e", "漢", "é",
]
PIECE = st.one_of(st.sampled_from(MARKUP), st.text(st.characters(blacklist_characters="\x1b"), max_size=4))


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECE, max_size=16).map("".join))
def test_visible_len_agrees_with_evennia(markup):
    assert strip_markup(markup) == strip_ansi(markup)
    assert visible_len(markup) == len(strip_ansi(markup))


@settings(max_examples=50, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.lists(PIECE, max_size=8).map("".join), comment=st.lists(PIECE, max_size=20).map("".join),
       width=st.integers(40, 120))
def test_a_wrapped_roll_fits_as_evennia_measures_it(name, comment, width):
    dice = (Die(10, frozenset({SUCCESS, TEN, REROLLED})), Die(3, frozenset({FAIL})))
    hunger = (Die(1, frozenset({HUNGER, ONE})),)
    view = RollView("toy", "Dexterity 3 + Stealth 2 = 5 dice", "vs 3",
                    (DiceGroup("Dice", dice), DiceGroup("Hunger", hunger)), 1, ("success", "successes"),
                    Outcome("k", "bestial failure", "disaster"), ("margin -2",))
    for line in wrap(format_roll(view, name, comment=comment, width=width), width):
        assert len(strip_ansi(line)) <= width
    # As typed, with escape's word joiner (no width) between a `|` and an `l`.
    assert strip_ansi(escape(name)) == re.sub(r"\|(?=l)", "|\u2060", " ".join(without_control(name).split()))

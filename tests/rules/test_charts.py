"""Odds as pictures: the text chart of +odds and the SVG of the odds page, for fixed odds, exactly."""

import re
from fractions import Fraction

from storyteller_dice.rules.charts import odds_svg
from storyteller_dice.rules.display import format_chart, format_odds, strip_markup
from storyteller_dice.rules.engine import Roller
from storyteller_dice.rules.v5.contest_odds import side_distribution
from storyteller_dice.rules.v5.system import SYSTEM


def test_v5_odds_distribution_is_exact():
    odds = SYSTEM.odds(SYSTEM.parse("2", numbers_only=True), Roller(name="x", state={"hunger": 0}))
    # Two d10: 0 successes 25/100, 1: 2*5*5 -> 50/100 minus..., counted by hand:
    # each die fails 5/10, succeeds (6-9) 4/10, tens 1/10; 2 tens = 4 successes.
    fail, win, ten = Fraction(5, 10), Fraction(4, 10), Fraction(1, 10)
    expected = ((0, fail * fail), (1, 2 * fail * (win + ten)), (2, (win + ten) ** 2 - ten * ten), (4, ten * ten))
    assert odds.distribution == expected == side_distribution(2, 0)


def test_v5_odds_text_chart():
    odds = SYSTEM.odds(SYSTEM.parse("2 vs 1", numbers_only=True), Roller(name="x", state={"hunger": 1}))
    out = strip_markup(format_odds(odds, width=80)).split("\n")
    assert out[-5:] == [
        "  Successes:",
        "  0  25.0% ####################",
        "  1  50.0% ########################################",
        "  2  24.0% ###################",
        "  4   1.0% #",
    ]


def test_odds_svg_exact():
    svg = odds_svg(((0, Fraction(1, 4)), (1, Fraction(1, 2)), (2, Fraction(1, 4))), ("hit", "hits"),
                   width=200, height=100)
    assert svg == (
        '<svg xmlns="http://www.w3.org/2000/svg" class="odds-chart" width="200" height="100" '
        'viewBox="0 0 200 100" role="img" aria-label="chance of each number of hits">'
        "<title>chance of each number of hits</title>"
        '<text x="44" y="16" class="title">chance of each number of hits</text>'
        '<line x1="44" y1="64" x2="190" y2="64" stroke="#888"/>'
        '<text x="40" y="32" text-anchor="end" class="axis">50.0%</text>'
        '<rect x="48.9" y="46" width="38.9" height="18" fill="#4a7ab5"><title>0 hits: 25.0%</title></rect>'
        '<text x="68.3" y="80" text-anchor="middle" class="axis">0</text>'
        '<rect x="97.5" y="28" width="38.9" height="36" fill="#4a7ab5"><title>1 hit: 50.0%</title></rect>'
        '<text x="117" y="80" text-anchor="middle" class="axis">1</text>'
        '<rect x="146.2" y="46" width="38.9" height="18" fill="#4a7ab5"><title>2 hits: 25.0%</title></rect>'
        '<text x="165.7" y="80" text-anchor="middle" class="axis">2</text>'
        '<text x="117" y="96" text-anchor="middle" class="axis">hits</text></svg>'
    )
    assert odds_svg(()) == "" and odds_svg([]) == ""
    assert "&lt;b&gt;" in odds_svg(((0, Fraction(1)),), ("<b>", "<b>"))


def test_odds_svg_tooltips_are_the_text_charts_figures():
    # Four dice that each meet the face 3 times in 5: rounded one bar at a time the tooltips
    # read 2.6, 15.4, 34.6, 34.6, 13.0 (100.2%); they must be the figures +odds prints, which
    # sum to 100% with the two equal chances still equal.
    distribution = [(0, Fraction(16, 625)), (1, Fraction(96, 625)), (2, Fraction(216, 625)),
                    (3, Fraction(216, 625)), (4, Fraction(81, 625))]
    tooltips = re.findall(r"<title>(\d+) \w+: ([^<]+)</title>", odds_svg(distribution))
    assert tooltips == [("0", "2.6%"), ("1", "15.4%"), ("2", "34.5%"), ("3", "34.5%"), ("4", "13.0%")]
    chart = strip_markup(format_chart(distribution)).split("\n")[1:]
    assert [line.split()[:2] for line in chart] == [list(pair) for pair in tooltips]

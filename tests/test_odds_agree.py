"""
One odds screen, one number per chance: in every system the outcome lines that are exactly
some rows of the chart show the sum of those rows' figures, a breakdown adds up to the chance
it splits, equal chances show equal figures and a larger one never less than a smaller one.
"""

from fractions import Fraction
from itertools import product

import pytest

from storyteller_dice.rules.display import _chart_spans, _covered, odds_figures, shares
from storyteller_dice.rules.engine import Roller
from storyteller_dice.rules.systems import get_system

CASES = (
    [("whalefall", f"{n} vs ({face},{count})") for n, face, count in product((2, 4, 6, 9), (3, 5, 8), (1, 2, 3))]
    + [("whalefall", f"{n}d8 vs (5,2)") for n in (3, 4, 7)]
    + [("seyruun", f"{n} vs {d}") for n, d in product((0, 1, 3, 6, 10, 14), (1, 2, 4, 6))]
    + [("v20", f"{n} vs {d}") for n, d in product((1, 3, 6, 9), (4, 6, 8))]
    + [("dicecheck", f"{n}d({t}+):{tn}") for n, t, tn in product((1, 4, 6, 11), (5, 7, 10), (0, 2, 3, 5))]
)


def _check_ties(exact, figures):
    for a, b in product(range(len(exact)), repeat=2):
        if exact[a] == exact[b]:
            assert figures[a] == figures[b], (exact, figures)
        if exact[a] > exact[b]:
            assert figures[a] >= figures[b], (exact, figures)


@pytest.mark.parametrize("key, typed", CASES)
def test_outcome_lines_and_chart_agree(key, typed):
    system = get_system(key)
    view = system.odds(system.parse(typed, frozenset(), Roller(), numbers_only=True), Roller())
    counts, rows, parts = odds_figures(view)
    spans = _chart_spans(view.distribution)
    _check_ties([p for _, p, _ in spans], rows)
    _check_ties([c.probability for c in view.chances], counts)
    assert sum(rows) <= 1000 and sum(counts) <= 1000
    for chance, figure in zip(view.chances, counts):
        covered = _covered(chance.scores, spans) if chance.scores and spans else None
        if covered is not None and sum((spans[i][1] for i in covered), Fraction(0)) == chance.probability:
            assert figure == sum(rows[i] for i in covered), (chance, figure)
    if view.breakdown:
        _, split, items = view.breakdown
        assert sum(parts) == counts[[c.key for c in view.chances].index(split)]
        _check_ties([item.probability for item in items], parts)
        if all(_covered(item.scores, spans) is not None for item in items):
            for item, figure in zip(items, parts):
                assert figure == sum(rows[i] for i in _covered(item.scores, spans))


def test_equal_chances_take_the_tenth_together_or_not_at_all():
    # 2.56, 15.36, 34.56, 34.56, 12.96: the tenth left cannot go to both 34.56s.
    assert shares([Fraction(n, 10000) for n in (256, 1536, 3456, 3456, 1296)]) == [26, 154, 345, 345, 130]
    # Three thirds: 33.3% each, the column 99.9%.
    assert shares([Fraction(1, 3)] * 3) == [333, 333, 333]
    # A total given: these chances share 500 tenths of a larger whole.
    assert shares([Fraction(1, 4), Fraction(1, 4)], total=500) == [250, 250]
    assert shares([Fraction(1, 6), Fraction(1, 3)], total=501) == [167, 334]


def test_whalefall_four_dice_against_an_independent_count():
    import icepool

    from storyteller_dice.rules.display import format_odds, strip_markup

    system = get_system("whalefall")
    view = system.odds(system.parse("4 vs (5,2)", frozenset(), Roller(), numbers_only=True), Roller())
    met = 4 @ (icepool.d10 >= 5)
    total = met.denominator()
    assert dict(view.distribution) == {k: Fraction(met.quantity(k), total) for k in range(5)}
    assert view.chance("success") == Fraction(sum(met.quantity(k) for k in range(2, 5)), total)
    text = strip_markup(format_odds(view))
    assert "  success               82.1%\n  failure (partial)     15.3%\n  failure (no die met)   2.6%" in text
    assert "  2  34.6% " in text and "  3  34.6% " in text and "  0   2.6% " in text

"""
Contest odds in any system: two sides roll independently and the higher score wins. Each
system gives only its sides' distributions; this module compares them in one pass over the
sorted scores with running totals (no simulation, no product of every score with every score):
`compare` over whole ways (a Fraction only at the end), `contest_figures` for a contest's
figures (who takes a tie is the system's rule), `at_least` for a margin band ("A beats B by
`margin` or more": The Dice Check's Degrees of Success), `convolve` and `margins` over chances.

Pure Python, standard library only.
"""

from fractions import Fraction
from typing import NamedTuple

from .errors import DiceError


class Comparison(NamedTuple):
    """How two independent scores compare: A higher, B higher, the same."""

    a_higher: object
    b_higher: object
    tie: object


def _items(distribution, what):
    items = distribution.items() if hasattr(distribution, "items") else distribution
    merged = {}
    for score, weight in items:
        if not isinstance(score, int) or isinstance(score, bool):
            raise DiceError(f"{what}: scores must be whole numbers, not {score!r}.")
        if weight < 0:
            raise DiceError(f"{what}: a chance cannot be negative.")
        merged[score] = merged.get(score, 0) + weight
    if not merged:
        raise DiceError(f"{what} is empty.")
    return sorted(merged.items())


def compare(weights_a, weights_b):
    """
    Weight of (A > B), (A < B), (A = B) for independent A and B.

    Args:
        weights_a, weights_b: mappings score -> weight, or iterables of (score, weight).
            Weights are non-negative numbers (ints, Fractions); a score may repeat in an
            iterable (its weights add up).

    Returns:
        Comparison: each entry the sum of weight_a * weight_b over the pairs of scores in
        that relation (with probabilities: the chances; with ways: ways out of the product
        of the totals).

    Raises:
        DiceError: an empty distribution, a score that is not a whole number, a negative weight.
    """
    a = _items(weights_a, "The first distribution")
    b = _items(weights_b, "The second distribution")
    total_b = sum(weight for _, weight in b)
    higher = lower = tie = 0
    below = 0  # weight of B's scores below the current score of A
    j = 0
    for score, weight in a:
        while j < len(b) and b[j][0] < score:
            below += b[j][1]
            j += 1
        same = b[j][1] if j < len(b) and b[j][0] == score else 0
        higher += weight * below
        tie += weight * same
        lower += weight * (total_b - below - same)
    return Comparison(higher, lower, tie)


def contest_figures(ways_a, ways_b, names=("a", "b"), tie_winner=None, extra=None):
    """
    A contest's chances as every system's odds give them, from each side's whole ways.

    Args:
        ways_a, ways_b: each side's (score, ways) pairs (out of its own total of ways).
        names (str, str): the sides' names in the keys ("attacker", "defender").
        tie_winner (str or None): the side (one of `names`) who takes a tie, or None (nobody:
            then there are no "overall" figures).
        extra (dict): the system's own figures, as ways out of both totals multiplied.

    Returns:
        dict of Fractions: `<a>_wins`, `<b>_wins` (a higher score), `tie`, and with a tie
        winner `<a>_wins_overall`, `<b>_wins_overall`; then `extra`'s keys.
    """
    a, b = _items(ways_a, "The first distribution"), _items(ways_b, "The second distribution")
    higher, lower, tie = compare(a, b)
    first, second = names
    counts = {f"{first}_wins": higher, f"{second}_wins": lower, "tie": tie}
    if tie_winner is not None:
        counts[f"{first}_wins_overall"] = higher + (tie if tie_winner == first else 0)
        counts[f"{second}_wins_overall"] = lower + (tie if tie_winner == second else 0)
    counts.update(extra or {})
    total = sum(weight for _, weight in a) * sum(weight for _, weight in b)
    return {key: Fraction(value, total) for key, value in counts.items()}


def at_least(weights_a, weights_b, margin):
    """
    Weight of A - B >= `margin` for independent A and B (any whole `margin`, negative too):
    `compare` with A's scores moved down by margin - 1, so "A higher" is the answer.

    Raises:
        DiceError: as `compare`, or a margin that is not a whole number.
    """
    if not isinstance(margin, int) or isinstance(margin, bool):
        raise DiceError(f"A margin is a whole number, not {margin!r}.")
    moved = [(score - margin + 1, weight) for score, weight in _items(weights_a, "The first distribution")]
    return compare(moved, weights_b).a_higher


def _probabilities(distribution, what):
    items = _items(distribution, what)
    if sum(weight for _, weight in items) != 1:
        raise DiceError(f"{what} must sum to 1.")
    return items


def convolve(distribution_a, distribution_b):
    """
    Exact chances that A scores more than B, less, or the same (`Comparison` of Fractions).

    Args:
        distribution_a, distribution_b: each side's score distribution, `(score, chance)`
            pairs (an `OddsView.distribution`) or a mapping score -> chance; chances are
            Fractions (or ints) summing to 1.

    Raises:
        DiceError: as `compare`, or a distribution that does not sum to 1.
    """
    a = _probabilities(distribution_a, "The first distribution")
    b = _probabilities(distribution_b, "The second distribution")
    return Comparison(*(Fraction(value) for value in compare(a, b)))


def margins(distribution_a, distribution_b):
    """
    The distribution of A's score minus B's, `((margin, Fraction), ...)` in margin order
    (only margins that can happen). A chart of how a contest is won or lost.

    Raises:
        DiceError: as `convolve`.
    """
    a = _probabilities(distribution_a, "The first distribution")
    b = _probabilities(distribution_b, "The second distribution")
    answer = {}
    for score_a, chance_a in a:
        for score_b, chance_b in b:
            margin = score_a - score_b
            answer[margin] = answer.get(margin, 0) + chance_a * chance_b
    return tuple((margin, Fraction(chance)) for margin, chance in sorted(answer.items()) if chance)

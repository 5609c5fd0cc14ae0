"""
Benchmark: `rules.seyruun.odds` against icepool computing the same exact figures.

Run from the repository root:  .venv/bin/python bench/bench_seyruun_odds.py

The slowest allowed query is a pool of 10 dice or more (the cap: every larger pool rolls
10), at any difficulty; we time `odds(10, d)` for several difficulties, and `odds(0, 1)` (the
chance die) for completeness. The baseline is icepool in this same run: each d10 mapped to a
vector (successes, is a 1, is a 10) with its faces merged into the four categories that matter
(1, 2-5, 6-9, 10), ten of them summed, then win, botch, enhanced critical, failure, the mean
and the distribution of successes read off the sum. Results are checked equal before timing.

"cold" gives icepool fresh dice every repetition and, inside the timed call, recounts all our
tables (normally counted once, at import); "warm" reuses both. Each figure is the median of several runs timed with
time.perf_counter.
"""

import os
import sys
from fractions import Fraction

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # `bench.*` when run as a script

import icepool  # noqa: E402

from bench._timing import median_ms, print_cold_warm_row, print_header  # noqa: E402
from storyteller_dice.rules import seyruun  # noqa: E402

DIFFICULTIES = (1, 3, 5, 10, 20)
OUR_REPEATS = 201
ICEPOOL_REPEATS = 11


# ---------------------------------------------------------------- the icepool baseline


def category_die():
    """One die as (successes, ones, tens), faces that count alike merged."""
    V = icepool.Vector
    return icepool.Die({V((0, 1, 0)): 1, V((0, 0, 0)): 4, V((1, 0, 0)): 4, V((2, 0, 1)): 1})


WARM = {}


def icepool_sum(n, warm):
    if warm and n in WARM:
        return WARM[n]
    total = n @ category_die()
    if warm:
        WARM[n] = total
    return total


def icepool_odds(dice, difficulty, warm):
    if dice <= 0:
        total = icepool.Die({icepool.Vector((0, 1, 0)): 1, icepool.Vector((0, 0, 0)): 8, icepool.Vector((1, 0, 0)): 1})
    else:
        total = icepool_sum(min(dice, 10), warm)
    judged = total.map(lambda v: (v[0] >= difficulty, v[0] == 0 and v[1] > 0, v[2] >= 2))
    win = judged.marginals[0].probability(True)
    botch = judged.marginals[1].probability(True)
    successes = total.marginals[0]
    return {
        "win": win,
        "botch": botch,
        "failure": 1 - win - botch,
        "enhanced_critical": judged.marginals[2].probability(True),
        "expected_successes": successes.mean(),
        "distribution": {s: successes.probability(s) for s in successes.outcomes()},
    }


# ---------------------------------------------------------------- timing


def recount_ours():
    seyruun._TABLES = tuple(seyruun._count(n) for n in range(seyruun.MAX_ROLLED + 1))


def row(label, *figures):
    print_cold_warm_row(label, figures, label_width=16, icepool_spec="12.3f", ratio_width=6)


def main():
    print_header("Seyruun exact odds: rules.seyruun", OUR_REPEATS, ICEPOOL_REPEATS)
    print(f"{'query':<16} {'ours cold':>9} {'ours warm':>9} {'icepool cold':>12} {'icepool warm':>12}")
    queries = [(10, d) for d in DIFFICULTIES] + [(0, 1)]
    for dice, d in queries:
        ours = seyruun.odds(dice, d)
        theirs = icepool_odds(dice, d, warm=False)
        assert isinstance(ours["win"], Fraction)
        assert ours == theirs, (dice, d)
        row(
            f"odds({dice}, {d})",
            median_ms(lambda: (recount_ours(), seyruun.odds(dice, d)), OUR_REPEATS),
            median_ms(lambda: seyruun.odds(dice, d), OUR_REPEATS),
            median_ms(lambda: icepool_odds(dice, d, warm=False), ICEPOOL_REPEATS),
            median_ms(lambda: icepool_odds(dice, d, warm=True), ICEPOOL_REPEATS),
        )
    # Every allowed query, checked against icepool, with the slowest of ours.
    slowest = max((median_ms(lambda: seyruun.odds(n, d), 21), n, d) for n in range(-1, 51) for d in range(1, 21))
    for n in range(0, 11):
        for d in range(1, 21):
            assert seyruun.odds(n, d) == icepool_odds(n, d, warm=True), (n, d)
    print(f"slowest of all {52 * 20} allowed queries (warm): odds({slowest[1]}, {slowest[2]}) {slowest[0]:.3f} ms")


if __name__ == "__main__":
    main()

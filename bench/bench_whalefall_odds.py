"""
Benchmark: `rules.whalefall.odds` against icepool computing the same exact probabilities.

Run from the repository root:  .venv/bin/python bench/bench_whalefall_odds.py

Queries: the slowest allowed, a 50-die pool, at several target numbers and die sizes. The
baseline is icepool 2.x in this same run: `50 @ (d(sides) >= face)` (each die a yes/no, summed
into the distribution of dice meeting the face), then the chance of at least `count`, the
partial chance and the whole distribution. Results are checked equal before timing.

Our odds keep no cache, so every figure is cold; icepool is shown cold (fresh dice every
repetition) and warm (the same die object, whose sums icepool caches). Each figure is the
median of several runs timed with time.perf_counter.
"""

import os
import sys
from fractions import Fraction

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # `bench.*` when run as a script

import icepool  # noqa: E402

from bench._timing import median_ms, print_header, print_uncached_row  # noqa: E402
from storyteller_dice.rules import whalefall  # noqa: E402

POOL = 50
QUERIES = ((6, 2, 10), (5, 20, 10), (9, 30, 10), (10, 1, 10), (6, 25, 8), (15, 10, 20))
OUR_REPEATS = 201
ICEPOOL_REPEATS = 11

WARM = {}


def icepool_odds(pool, target, needed, sides, warm):
    if warm:
        die = WARM.setdefault(sides, icepool.d(sides))
    else:
        die = icepool.Die(list(range(1, sides + 1)))
    meeting = pool @ (die >= target)
    distribution = {k: Fraction(meeting.probability(k)) for k in meeting.outcomes() if meeting.quantity(k)}
    return {
        "success": Fraction(meeting.probability(">=", needed)),
        "partial": Fraction(sum(p for k, p in distribution.items() if 1 <= k < needed)),
        "distribution": distribution,
    }


def main():
    print_header("Whalefall exact odds: rules.whalefall", OUR_REPEATS, ICEPOOL_REPEATS)
    print(f"{'query':<26} {'ours':>8} {'icepool cold':>12} {'icepool warm':>12}")
    for target, needed, sides in QUERIES:
        ours = whalefall.odds(POOL, target, needed, sides)
        assert ours == icepool_odds(POOL, target, needed, sides, warm=False), (target, needed, sides)
        assert sum(ours["distribution"].values()) == 1
        mine = median_ms(lambda: whalefall.odds(POOL, target, needed, sides), OUR_REPEATS)
        cold = median_ms(lambda: icepool_odds(POOL, target, needed, sides, warm=False), ICEPOOL_REPEATS)
        warm = median_ms(lambda: icepool_odds(POOL, target, needed, sides, warm=True), ICEPOOL_REPEATS)
        print_uncached_row(f"odds({POOL}, {target}, {needed}, sides={sides})", 26, mine, cold, warm)


if __name__ == "__main__":
    main()

"""
Benchmark: `rules.dicecheck.odds` against icepool computing the same exact probabilities.

Run from the repository root:  .venv/bin/python bench/bench_dicecheck_odds.py

Queries: the slowest allowed, a 50-die pool, at several thresholds and TNs. The baseline is
icepool 2.x in this same run: `50 @ (d10 >= threshold)` (the Hits distribution), mapped to
Degrees of Success, then success, big botch, the DoS distribution and the Hits distribution.
Results are checked equal before timing.

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
from storyteller_dice.rules import dicecheck  # noqa: E402

POOL = 50
QUERIES = ((7, 2), (6, 20), (5, 0), (10, 8), (9, 35), (6, 50))
OUR_REPEATS = 201
ICEPOOL_REPEATS = 11

WARM = {}


def icepool_odds(pool, threshold, tn, warm):
    die = WARM.setdefault("d10", icepool.d10) if warm else icepool.Die(list(range(1, 11)))
    hits = pool @ (die >= threshold)

    def degree(h):
        return dicecheck.degree_of_success(h - tn) if h >= tn else 0

    dos = hits.map(degree)
    return {
        "success": Fraction(hits.probability(">=", tn)),
        "big_botch": Fraction(hits.probability("<=", tn - dicecheck.BIG_BOTCH)),
        "dos": {k: Fraction(dos.probability(k)) for k in dos.outcomes() if dos.quantity(k)},
        "hits": {k: Fraction(hits.probability(k)) for k in hits.outcomes() if hits.quantity(k)},
    }


def main():
    print_header("Dice Check exact odds: rules.dicecheck", OUR_REPEATS, ICEPOOL_REPEATS)
    print(f"{'query':<20} {'ours':>8} {'icepool cold':>12} {'icepool warm':>12}")
    for threshold, tn in QUERIES:
        ours = dicecheck.odds(POOL, threshold, tn)
        assert ours == icepool_odds(POOL, threshold, tn, warm=False), (threshold, tn)
        assert sum(ours["dos"].values()) == 1 and sum(ours["hits"].values()) == 1
        mine = median_ms(lambda: dicecheck.odds(POOL, threshold, tn), OUR_REPEATS)
        cold = median_ms(lambda: icepool_odds(POOL, threshold, tn, warm=False), ICEPOOL_REPEATS)
        warm = median_ms(lambda: icepool_odds(POOL, threshold, tn, warm=True), ICEPOOL_REPEATS)
        print_uncached_row(f"odds({POOL}, {threshold}, {tn})", 20, mine, cold, warm)


if __name__ == "__main__":
    main()

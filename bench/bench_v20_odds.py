"""
Benchmark: `rules.v20.odds` against icepool computing the same exact probabilities.

Run from the repository root:  .venv/bin/python bench/bench_v20_odds.py

Queries: `odds(50, d, specialty, willpower)` for every difficulty 2-10 and both switches, the
largest allowed pool: every query that can be the slowest. The baseline is icepool 2.x in
this same run, in the fastest formulation we found: each d10 mapped to what it adds to
(successes - 1s) (-1, 0, +1, and +1 or +2 for a 10), `50 @ die` for the sum, then the same
three figures (`success`, `botch`, `distribution`) from that sum. (A multiset evaluator
tallying 1s and successes, as the tests use, is about 5x slower still.) Results are checked
equal before timing.

"cold" clears our cache (and gives icepool a fresh die) before every repetition; "warm" keeps
them. Each figure is the median of several runs timed with time.perf_counter.
"""

import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # `bench.*` when run as a script

import icepool  # noqa: E402

from bench._timing import median_ms, print_cold_warm_row, print_header  # noqa: E402
from storyteller_dice.rules import v20  # noqa: E402

POOL = 50
OUR_REPEATS = 51
ICEPOOL_REPEATS = 5


# ---------------------------------------------------------------- the icepool baseline


def step_die(difficulty, specialty):
    ten = 2 if specialty else 1
    return icepool.d10.map(lambda f: -1 if f == 1 else ten if f == 10 else 1 if f >= difficulty else 0)


WARM = {}


def icepool_odds(pool, difficulty, specialty, willpower, warm):
    key = (pool, difficulty, specialty)
    if warm and key in WARM:
        total = WARM[key]
    else:
        total = pool @ step_die(difficulty, specialty)
        if warm:
            WARM[key] = total
    bonus = 1 if willpower else 0
    nets = total.map(lambda d: max(0, d) + bonus)
    return {
        "success": nets.probability(">=", 1),
        "botch": 0 if willpower else total.probability("<", 0),
        "distribution": {net: nets.probability(net) for net in nets.outcomes() if nets.quantity(net)},
    }


# ---------------------------------------------------------------- timing


def main():
    print_header("V20 exact odds: rules.v20.odds", OUR_REPEATS, ICEPOOL_REPEATS)
    print(f"{'query':<30} {'ours cold':>9} {'ours warm':>9} {'icepool cold':>12} {'icepool warm':>12}   ratio (icepool / ours)")
    rows = []
    for difficulty in range(2, 11):
        for specialty in (False, True):
            for willpower in (False, True):
                args = (POOL, difficulty, specialty, willpower)
                assert v20.odds(*args) == icepool_odds(*args, warm=False), args
                figures = (
                    median_ms(lambda: v20.odds(*args), OUR_REPEATS, v20._sum_counts.cache_clear),
                    median_ms(lambda: v20.odds(*args), OUR_REPEATS),
                    median_ms(lambda: icepool_odds(*args, warm=False), ICEPOOL_REPEATS),
                    median_ms(lambda: icepool_odds(*args, warm=True), ICEPOOL_REPEATS),
                )
                label = f"odds(50, {difficulty}, spec={int(specialty)}, wp={int(willpower)})"
                rows.append((label, figures))
                print_cold_warm_row(label, figures, label_width=30, icepool_spec="12.1f", ratio_width=5, note="")
    label, (ours_cold, ours_warm, ice_cold, ice_warm) = max(rows, key=lambda row: row[1][0])
    print(
        f"slowest (ours, cold): {label}: {ours_cold:.3f} ms cold, {ours_warm:.3f} ms warm; "
        f"icepool {ice_cold:.1f} ms cold, {ice_warm:.1f} ms warm: "
        f"{ice_cold / ours_cold:.0f}x / {ice_warm / ours_warm:.0f}x faster than icepool"
    )


if __name__ == "__main__":
    main()

"""
Benchmark: `rules.v5_contest_odds.contest_odds` against icepool computing the same exact
contest figures (win/lose/tie, each side's critical, messy critical, bestial failure and
total failure).

Run from the repository root:  .venv/bin/python bench/bench_contest_odds.py

Baseline: icepool in this same run. Each side is a multiset evaluator over a pool of regular
dice and a pool of Hunger dice (faces that count alike merged, as in bench_v5_odds.py),
reduced to (successes, pair of 10s, Hunger 10, Hunger 1); the two sides are combined with
`icepool.map` and the contest rules, and the figures read from its marginals. Results are
checked equal before timing.

"cold" clears our lru caches (and gives icepool fresh evaluators) before each repetition;
"warm" keeps ours (both sides' counts cached: only the contest pass runs). Icepool is timed
cold only: its combination step is the bulk of its time and is not cached. Medians of several
runs timed with time.perf_counter.
"""

import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import icepool  # noqa: E402

from bench._timing import median_ms, print_header  # noqa: E402
from bench._v5_icepool import Tally, merged_d10  # noqa: E402
from rules import v5_contest_odds  # noqa: E402
from rules.v5_contest_odds import KEYS, contest_odds  # noqa: E402

QUERIES = ((50, 5, 50, 5), (50, 5, 50, 0), (50, 2, 30, 4), (20, 5, 15, 2), (6, 2, 6, 0))
OUR_REPEATS = 51
ICEPOOL_REPEATS = 3


def icepool_side(pool, hunger):
    die = merged_d10()
    hunger_dice = min(pool, hunger)
    states = Tally().evaluate(die.pool(pool - hunger_dice), die.pool(hunger_dice))
    return states.map(lambda six, tens, one, ten: (six + tens + 2 * (tens // 2), tens >= 2, ten, one), star=True)


def icepool_contest(ap, ah, dp, dh):
    def judge(a, d):
        sa, pair_a, ten_a, one_a = a
        sd, pair_d, ten_d, one_d = d
        a_wins_roll = sa > sd
        d_wins_roll = sd >= max(sa, 1)  # 0 successes never wins (RULES.md §1)
        return (
            sa > sd, sd > sa, sa == sd, sa > sd, sd >= sa,
            a_wins_roll and pair_a, a_wins_roll and pair_a and ten_a, not a_wins_roll and one_a, sa == 0,
            d_wins_roll and pair_d, d_wins_roll and pair_d and ten_d, not d_wins_roll and one_d, sd == 0,
        )

    table = icepool.map(judge, icepool_side(ap, ah), icepool_side(dp, dh), star=False)
    return {key: Fraction(table.marginals[i].probability(True)) for i, key in enumerate(KEYS)}


def clear_our_caches():
    v5_contest_odds.side_counts.cache_clear()
    v5_contest_odds._binomial.cache_clear()


def main():
    print_header("V5 contest odds: rules.v5_contest_odds", OUR_REPEATS, ICEPOOL_REPEATS)
    print(f"{'query (pool, Hunger vs pool, Hunger)':<38} {'ours cold':>9} {'ours warm':>9} {'icepool':>9}")
    for query in QUERIES:
        assert contest_odds(*query) == icepool_contest(*query), query
        ours_cold = median_ms(lambda: contest_odds(*query), OUR_REPEATS, clear_our_caches)
        ours_warm = median_ms(lambda: contest_odds(*query), OUR_REPEATS)
        ice = median_ms(lambda: icepool_contest(*query), ICEPOOL_REPEATS)
        label = f"{query[0]} dice, Hunger {query[1]} vs {query[2]} dice, Hunger {query[3]}"
        print(
            f"{label:<38} {ours_cold:9.3f} {ours_warm:9.3f} {ice:9.1f}"
            f"   cold {ice / ours_cold:6.0f}x faster than icepool, warm {ice / ours_warm:6.0f}x"
        )
    odds = contest_odds(50, 5, 50, 5)
    print("50 dice Hunger 5 each: " + ", ".join(f"{k} {float(odds[k]):.4f}" for k in KEYS[:5]))


if __name__ == "__main__":
    main()

"""
Benchmark: each system's contest odds against icepool computing the same exact figures:
`rules.v5.contest_odds.contest_odds` (win/lose/tie, each side's critical, messy critical,
bestial failure and total failure), then `rules.v20.contest_odds`, `rules.seyruun.contest_odds`
and `rules.dicecheck.contest_odds` at 50 dice a side (Seyruun rolls at most 10 of them).

Run from the repository root:  .venv/bin/python bench/bench_contest_odds.py

Baseline: icepool in this same run. Each side is a multiset evaluator over a pool of regular
dice and a pool of Hunger dice (faces that count alike merged, as in bench_v5_odds.py),
reduced to (successes, pair of 10s, Hunger 10, Hunger 1); the two sides are combined with
`icepool.map` and the contest rules, and the figures read from its marginals. Results are
checked equal before timing.

The other systems' baseline: each side's score as icepool's sum of what each die adds, in
the fastest formulation bench_v20_odds.py found (V20: -1 for a 1, 0, +1, and +1 or +2 for a
10, `n @ die`, net = max(0, sum) and a botch below 0; The Dice Check: a Hit is 1, `n @ die`),
or for Seyruun's at most 10 dice a multiset of the faces it scores alike (1, 2-5, 6-9, 10);
the two sides combined with `icepool.map` and the contest rule, the figures read from its
marginals (The Dice Check's Degrees of Success from a second map). Results checked equal.

"cold" clears our lru caches (and gives icepool fresh evaluators) before each repetition;
"warm" keeps ours (both sides' counts cached: only the contest pass runs). Icepool is timed
cold only: its combination step is the bulk of its time and is not cached. Medians of several
runs timed with time.perf_counter.
"""

import os
import sys
from fractions import Fraction

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # `bench.*` when run as a script

import icepool  # noqa: E402

from bench._timing import median_ms, print_header  # noqa: E402
from bench._v5_icepool import Tally, merged_d10  # noqa: E402
from storyteller_dice.rules import dicecheck, v20
from storyteller_dice.rules.dicecheck import contest_odds as dicecheck_contest_odds
from storyteller_dice.rules.seyruun import contest_odds as seyruun_contest_odds
from storyteller_dice.rules.v5 import contest_odds as v5_contest_odds
from storyteller_dice.rules.v20 import contest_odds as v20_contest_odds
from storyteller_dice.rules.v5.contest_odds import KEYS, contest_odds  # noqa: E402

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
        d_wins_roll = sd >= max(sa, 1)  # 0 successes never wins (docs/v5.md)
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


# ---------------------------------------------------------------- V20, Seyruun, The Dice Check


def _marginals(table, keys):
    return {key: Fraction(table.marginals[i].probability(True)) for i, key in enumerate(keys)}


def icepool_v20(first, second):
    def side(dice, difficulty, specialty):
        ten = 2 if specialty else 1
        step = icepool.d10.map(lambda f: -1 if f == 1 else ten if f == 10 else 1 if f >= difficulty else 0)
        return (dice @ step).map(lambda total: (max(0, total), total < 0))

    def judge(a, b):
        return a[0] > b[0], b[0] > a[0], a[0] == b[0], a[1], b[1]

    return _marginals(icepool.map(judge, side(*first), side(*second), star=False), v20_contest_odds.KEYS)


def icepool_seyruun(a_dice, d_dice, a_attr, d_attr):
    def score(faces):
        successes = sum(2 if f == 10 else 1 for f in faces if f >= 6)
        return successes, successes == 0 and 1 in faces

    def side(dice):
        if dice <= 0:
            return icepool.d10.map(lambda f: (int(f == 10), f == 1))
        return merged_d10().pool(min(dice, 10)).expand().map(score)

    attacker_tie = a_attr > d_attr

    def judge(a, d):
        return (a[0] > d[0], d[0] > a[0], a[0] == d[0], a[0] > d[0] or (a[0] == d[0] and attacker_tie),
                d[0] > a[0] or (a[0] == d[0] and not attacker_tie), a[1], d[1])

    answer = _marginals(icepool.map(judge, side(a_dice), side(d_dice), star=False), seyruun_contest_odds.KEYS)
    answer["tie_winner"] = "attacker" if attacker_tie else "defender"
    return answer


def icepool_dicecheck(active, active_threshold, other, other_threshold):
    a = active @ icepool.d10.map(lambda f: int(f >= active_threshold))
    o = other @ icepool.d10.map(lambda f: int(f >= other_threshold))
    answer = _marginals(icepool.map(lambda x, y: (x > y, y > x, x == y, x >= y, x < y, y - x >= 3), a, o),
                        dicecheck_contest_odds.KEYS)
    degrees = icepool.map(lambda x, y: dicecheck.degree_of_success(x - y) if x >= y else 0, a, o)
    answer["dos"] = {d: Fraction(degrees.probability(d)) for d in degrees.outcomes() if d}
    return answer


SYSTEM_QUERIES = (
    ("V20 50 dice diff 6 vs 50 dice diff 6", lambda: v20_contest_odds.contest_odds((50, 6), (50, 6)),
     lambda: icepool_v20((50, 6, False), (50, 6, False))),
    ("V20 50 spec diff 7 vs 50 dice diff 4", lambda: v20_contest_odds.contest_odds((50, 7, True), (50, 4)),
     lambda: icepool_v20((50, 7, True), (50, 4, False))),
    ("Seyruun 50 vs 50 (10 rolled each)", lambda: seyruun_contest_odds.contest_odds(50, 50, 3, 2),
     lambda: icepool_seyruun(50, 50, 3, 2)),
    ("Dice Check 50d(5+) vs 50d(6+)", lambda: dicecheck_contest_odds.contest_odds(50, 5, 50, 6),
     lambda: icepool_dicecheck(50, 5, 50, 6)),
)


def systems():
    print()
    print_header("V20, Seyruun, Dice Check contest odds", OUR_REPEATS, ICEPOOL_REPEATS)
    print(f"{'query':<38} {'ours cold':>9} {'ours warm':>9} {'icepool':>9}")
    for label, ours, theirs in SYSTEM_QUERIES:
        assert ours() == theirs(), label
        ours_cold = median_ms(ours, OUR_REPEATS, v20._sum_counts.cache_clear)
        ours_warm = median_ms(ours, OUR_REPEATS)
        ice = median_ms(theirs, ICEPOOL_REPEATS)
        print(f"{label:<38} {ours_cold:9.3f} {ours_warm:9.3f} {ice:9.1f}"
              f"   cold {ice / ours_cold:6.0f}x faster than icepool, warm {ice / ours_warm:6.0f}x")


def main():
    print_header("V5 contest odds: rules.v5.contest_odds", OUR_REPEATS, ICEPOOL_REPEATS)
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
    systems()


if __name__ == "__main__":
    main()

"""
Benchmark: `rules.v5.exact_odds` against icepool computing the same exact probabilities.

Run from the repository root:  /tmp/venv/bin/python bench/bench_v5_odds.py

Queries: `odds(50, 5, d)` for several difficulties (the largest allowed pool and Hunger) and
`best_reroll` on a 50-die roll. The baseline is icepool 2.x in this same run: a multiset
evaluator over a pool of regular dice and a pool of Hunger dice (faces that count alike merged,
the fastest icepool formulation we found: ~10x faster than plain d10s), then the six numbers
from the resulting distribution. For `best_reroll` icepool scores the same candidate choices
(how many fails, successes and tens to reroll) with the same ranking. Results are checked
equal before timing.

"cold" clears our lru caches (and gives icepool fresh dice and an evaluator that does not
cache) before every repetition; "warm" keeps them. Each figure is the median of several runs
timed with time.perf_counter.
"""

import os
import random
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # `bench.*` when run as a script

import icepool  # noqa: E402

from bench import _v5_icepool  # noqa: E402
from bench._timing import median_ms, print_cold_warm_row, print_header  # noqa: E402
from bench._v5_icepool import merged_d10  # noqa: E402
from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import exact_odds as v5_odds

DIFFICULTIES = (0, 3, 6, 10, 20, 40)
OUR_REPEATS = 51
ICEPOOL_REPEATS = 5


# ---------------------------------------------------------------- the icepool baseline


class Tally(_v5_icepool.Tally):
    """The shared tally, its cache between evaluations kept (warm) or not (cold)."""

    def __init__(self, cache=True):
        self._cache_key = Tally if cache else icepool.NoCache

    @property
    def next_state_key(self):
        return self._cache_key


WARM = {"die": merged_d10(), "tally": Tally(cache=True)}


def icepool_odds(pool, hunger, difficulty, warm):
    die, tally = (WARM["die"], WARM["tally"]) if warm else (merged_d10(), Tally(cache=False))
    hunger_dice = min(pool, hunger)
    states = tally.evaluate(die.pool(pool - hunger_dice), die.pool(hunger_dice))

    def outcome(six_to_nine, tens, one, ten):
        successes = six_to_nine + tens + 2 * (tens // 2)
        win = successes >= max(difficulty, 1)  # 0 successes never wins (docs/v5.md)
        critical = win and tens >= 2
        return win, critical, critical and ten, not win and one, successes == 0, successes

    table = states.map(outcome, star=True)
    names = ("win", "critical", "messy_critical", "bestial_failure", "total_failure")
    answer = {name: table.marginals[i].probability(True) for i, name in enumerate(names)}
    answer["expected_successes"] = table.marginals[5].mean()
    return answer


def icepool_best_reroll(result, warm):
    """The same search as v5_odds.best_reroll, each candidate scored by icepool."""
    die, tally = (WARM["die"], WARM["tally"]) if warm else (merged_d10(), Tally(cache=False))
    groups = {"fail": [], "success": [], "ten": []}
    for i, face in enumerate(result.regular):
        groups["fail" if face <= 5 else "ten" if face == 10 else "success"].append(i)
    best_key, best = None, ()
    for a in range(min(len(groups["fail"]), 3) + 1):
        for b in range(min(len(groups["success"]), 3 - a) + 1):
            for c in range(min(len(groups["ten"]), 3 - a - b) + 1):
                if a + b + c == 0:
                    continue
                picks = tuple(sorted(groups["fail"][:a] + groups["success"][:b] + groups["ten"][:c]))
                kept = [f for i, f in enumerate(result.regular) if i not in picks] + list(result.hunger)
                kept_s = sum(1 for f in kept if 6 <= f <= 9)
                kept_t = kept.count(10)
                hunger_ten = 10 in result.hunger

                def outcome(six_to_nine, tens, one, ten):
                    tens += kept_t
                    successes = kept_s + six_to_nine + tens + 2 * (tens // 2)
                    win = successes >= max(result.difficulty, 1)
                    return win, win and tens >= 2 and hunger_ten, successes

                table = tally.evaluate(die.pool(len(picks))).map(outcome, star=True)
                key = (
                    -table.marginals[0].probability(True),
                    table.marginals[1].probability(True),
                    -table.marginals[2].mean(),
                    len(picks),
                    picks,
                )
                if best_key is None or key < best_key:
                    best_key, best = key, picks
    return best


# ---------------------------------------------------------------- timing


def clear_our_caches():
    for cached in (v5_odds._tails, v5_odds._regular_rows, v5_odds._hunger_states):
        cached.cache_clear()


def row(label, *figures):
    print_cold_warm_row(label, figures, label_width=22, icepool_spec="11.1f", ratio_width=7)


def main():
    print_header("V5 exact odds: rules.v5.exact_odds", OUR_REPEATS, ICEPOOL_REPEATS)
    print(f"{'query':<22} {'ours cold':>9} {'ours warm':>9} {'icepool cold':>11} {'icepool warm':>11}")
    for d in DIFFICULTIES:
        assert v5_odds.odds(50, 5, d) == icepool_odds(50, 5, d, warm=False), d
        row(
            f"odds(50, 5, {d})",
            median_ms(lambda: v5_odds.odds(50, 5, d), OUR_REPEATS, clear_our_caches),
            median_ms(lambda: v5_odds.odds(50, 5, d), OUR_REPEATS),
            median_ms(lambda: icepool_odds(50, 5, d, warm=False), ICEPOOL_REPEATS),
            median_ms(lambda: icepool_odds(50, 5, d, warm=True), ICEPOOL_REPEATS),
        )
    for seed, d in ((1, 25), (2, 30), (3, 20)):
        result = v5.roll(50, 5, d, random.Random(seed))
        best = v5_odds.best_reroll(result)
        assert best == icepool_best_reroll(result, warm=False), seed
        row(
            f"best_reroll(seed {seed})",
            median_ms(lambda: v5_odds.best_reroll(result), OUR_REPEATS, clear_our_caches),
            median_ms(lambda: v5_odds.best_reroll(result), OUR_REPEATS),
            median_ms(lambda: icepool_best_reroll(result, warm=False), ICEPOOL_REPEATS),
            median_ms(lambda: icepool_best_reroll(result, warm=True), ICEPOOL_REPEATS),
        )
        print(f"    roll {result.regular} | Hunger {result.hunger} vs {d}: best reroll {best}")


if __name__ == "__main__":
    main()

"""
Exact V5 odds (docs/v5.md): fresh rolls, Willpower rerolls and the `best` reroll.

Everything is counted, never simulated. `rules.v5.dice.evaluate` only looks at a few facts about a
roll, so faces fall into categories that evaluate alike:

- regular die: fail (1-5, 5 faces), success (6-9, 4 faces), ten (1 face);
- Hunger die: one (1 face), fail (2-5, 4 faces), success (6-9, 4 faces), ten (1 face).

A roll's outcome depends only on s (non-ten successes), t (tens, both kinds), whether a Hunger
die shows 1 and whether a Hunger die shows 10: successes = s + t + 2*(t//2); win = successes
>= max(difficulty, 1) (0 successes never wins, not even at difficulty 0: docs/v5.md);
critical = win and t >= 2; messy = critical and a Hunger 10; total failure = 0 successes (at
any difficulty); bestial failure = no win and a Hunger 1 ("official"), or a total failure with
Hunger dice rolled ("total_failure").

All counts are integers over 10**(dice rolled); a Fraction is made only at the end. The ≤ 5
Hunger dice are enumerated by category counts; the regular dice are summed over their number
of tens t_r, and for the rest of them only a *tail* is needed (ways for n non-ten dice to show
at least k successes), which depends on n and k alone and is cached. A query is therefore
about (Hunger states ≤ 36) x (pool + 1) additions, about a millisecond for 50 dice.

The same counter serves rerolls: the kept dice are a fixed head start, the rerolled dice are
fresh regular dice. Regular faces inside a category are interchangeable (a regular 1 is just
a fail), so `best_reroll` only weighs choices by how many fails, successes and tens it
rerolls: at most 19 candidates.
"""

from fractions import Fraction
from functools import lru_cache
from math import comb

from . import dice as v5_dice
from ..errors import DiceError

KEYS = ("win", "critical", "messy_critical", "bestial_failure", "total_failure", "expected_successes")
STRATEGIES = ("failures", "crits", "messy", "best")

# Faces per category, out of 10.
_REG_FAIL, _REG_SUCCESS = 5, 4
_HUNGER_ONE, _HUNGER_FAIL, _HUNGER_SUCCESS = 1, 4, 4


@lru_cache(maxsize=None)
def _tails(n):
    """
    For n regular dice that show no 10: tails[k] = ways (faces 1-9) to get at least k
    successes, for k = 0..n+1 (tails[0] = 9**n, tails[n+1] = 0). Depends on n only, so the
    table is shared by every pool, Hunger level and reroll.
    """
    tails = [0] * (n + 2)
    running = 0
    for s in range(n, -1, -1):
        running += comb(n, s) * _REG_SUCCESS**s * _REG_FAIL ** (n - s)
        tails[s] = running
    return tuple(tails)


@lru_cache(maxsize=None)
def _hunger_states(h):
    """
    The h Hunger dice grouped by what matters: (successes, tens, shows a 1, ways), ways out
    of 10**h. Enumerating category counts is at most 56 compositions for h = 5.
    """
    states = {}
    for tens in range(h + 1):
        for success in range(h - tens + 1):
            for one in range(h - tens - success + 1):
                fail = h - tens - success - one
                ways = (
                    comb(h, tens)
                    * comb(h - tens, success)
                    * comb(h - tens - success, one)
                    * _HUNGER_SUCCESS**success
                    * _HUNGER_ONE**one
                    * _HUNGER_FAIL**fail
                )
                key = (success, tens, one > 0)
                states[key] = states.get(key, 0) + ways
    return tuple((s, t, o, w) for (s, t, o), w in sorted(states.items()))


@lru_cache(maxsize=None)
def _regular_rows(regular_n):
    """
    The fresh regular dice by their number of tens t_r: (t_r, tails, success_sum) where
    tails[k] = ways for the other n = regular_n - t_r dice to show at least k successes
    (k = 0..n+1) and success_sum = their successes summed over all those ways (each of the
    n dice is a success on 4 of its 9 non-ten faces: 4 * n * 9**(n-1)).
    """
    rows = []
    for t_r in range(regular_n + 1):
        n = regular_n - t_r
        ways = comb(regular_n, t_r)
        tails = tuple(ways * tail for tail in _tails(n))
        success_sum = ways * _REG_SUCCESS * n * 9 ** (n - 1) if n else 0
        rows.append((t_r, tails, success_sum))
    return tuple(rows)


def _regular_outcomes(rows, s0, t0, needed):
    """
    For a head start of s0 non-ten successes and t0 tens (kept dice and one Hunger outcome):
    (ways the regular dice win, ways they make a critical, successes summed over all ways).
    """
    won = crit = success_total = 0
    for t_r, tails, success_sum in rows:
        tens = t0 + t_r
        bonus = tens + 2 * (tens // 2)
        need = needed - s0 - bonus
        ways = tails[0 if need <= 0 else min(need, len(tails) - 1)]
        won += ways
        if tens >= 2:
            crit += ways
        success_total += (s0 + bonus) * tails[0] + success_sum
    return won, crit, success_total


def _count(kept_s, kept_t, kept_one, kept_hten, regular_n, hunger_n, difficulty, bestial_rule, has_hunger):
    """
    Outcome counts for fresh dice on top of a fixed head start.

    Args:
        kept_s, kept_t (int): non-ten successes and tens already showing on kept dice.
        kept_one, kept_hten (bool): a kept Hunger die shows 1 / shows 10.
        regular_n, hunger_n (int): fresh regular and Hunger dice to roll.
        difficulty (int), bestial_rule (str): as in `rules.v5.evaluate`.
        has_hunger (bool): the whole roll has Hunger dice (the "total_failure" rule).

    Returns:
        (counts, denominator): counts maps KEYS to the number of ways out of denominator =
        10**(regular_n + hunger_n), except expected_successes: successes summed over all ways.
    """
    win = critical = messy = bestial = expected = 0
    needed = max(difficulty, 1)  # 0 successes never wins, not even at difficulty 0
    rows = _regular_rows(regular_n)
    regular_ways = 10**regular_n
    for s_h, t_h, one_h, ways_h in _hunger_states(hunger_n):
        won, crit, success_total = _regular_outcomes(rows, kept_s + s_h, kept_t + t_h, needed)
        win += ways_h * won
        critical += ways_h * crit
        if kept_hten or t_h > 0:
            messy += ways_h * crit
        if kept_one or one_h:
            bestial += ways_h * (regular_ways - won)
        expected += ways_h * success_total
    fresh = regular_n + hunger_n
    # 0 successes: nothing kept shows a success and every fresh die fails (5 faces each,
    # Hunger 1 included); a total failure at any difficulty.
    total_failure = _REG_FAIL**fresh if kept_s == 0 and kept_t == 0 else 0
    if bestial_rule == "total_failure":
        bestial = total_failure if has_hunger else 0
    counts = {
        "win": win,
        "critical": critical,
        "messy_critical": messy,
        "bestial_failure": bestial,
        "total_failure": total_failure,
        "expected_successes": expected,
    }
    return counts, 10**fresh


def _as_fractions(counts, denominator):
    return {key: Fraction(counts[key], denominator) for key in KEYS}


def odds(pool, hunger, difficulty, bestial_rule="official"):
    """
    Exact chances of a fresh roll (docs/contract.md), as Fractions.

    Args:
        pool (int): dice, 1-50. Hunger dice are min(pool, hunger), the rest are regular.
        hunger (int): 0-5.
        difficulty (int): successes needed, 0-100.
        bestial_rule (str): "official" or "total_failure" (the V5_BESTIAL_FAILURE setting).

    Returns:
        dict: win, critical, messy_critical, bestial_failure, total_failure (probabilities)
        and expected_successes (a mean), all `fractions.Fraction`.

    Raises:
        DiceError: for a parameter out of bounds.
    """
    regular_n, hunger_n = v5_dice.split_pool(pool, hunger)
    v5_dice.check_difficulty(difficulty)
    v5_dice.check_bestial_rule(bestial_rule)
    counts, denominator = _count(0, 0, False, False, regular_n, hunger_n, difficulty, bestial_rule, hunger_n > 0)
    return _as_fractions(counts, denominator)


# ---------------------------------------------------------------- rerolls


def _check_indexes(result, indexes):
    indexes = tuple(indexes)
    if len(indexes) > v5_dice.MAX_REROLL:
        raise DiceError(f"Willpower rerolls at most {v5_dice.MAX_REROLL} dice.")
    if len(set(indexes)) != len(indexes):
        raise DiceError("Name each die to reroll only once.")
    for i in indexes:
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(result.regular):
            raise DiceError("Only regular dice can be rerolled.")
    return indexes


def _kept_state(result, indexes):
    """(non-ten successes, tens) on the dice that stay: Hunger dice and unpicked regular dice."""
    picked = set(indexes)
    kept = [face for i, face in enumerate(result.regular) if i not in picked]
    kept += list(result.hunger)
    tens = kept.count(10)
    return sum(1 for face in kept if 6 <= face <= 9), tens


def _reroll_counts(result, indexes):
    kept_s, kept_t = _kept_state(result, indexes)
    return _count(
        kept_s,
        kept_t,
        1 in result.hunger,
        10 in result.hunger,
        len(indexes),
        0,
        result.difficulty,
        result.bestial_rule,
        len(result.hunger) > 0,
    )


def reroll_odds(result, indexes):
    """
    Exact chances of the roll `result` after rerolling the regular dice at `indexes`.

    Kept dice keep their faces, rerolled dice are fresh d10s; difficulty and bestial rule are
    the roll's own. With no indexes it is the roll as it stands (each chance 0 or 1, expected
    successes = its successes), the baseline to compare a reroll with. This is arithmetic
    only: it does not refuse a roll already rerolled (the command enforces once per roll).

    Raises:
        DiceError: more than 3 dice, a die named twice, or an index that is not a regular die.
    """
    indexes = _check_indexes(result, indexes)
    return _as_fractions(*_reroll_counts(result, indexes))


def best_reroll(result):
    """
    The regular dice (sorted indexes, 1 to 3 of them) whose reroll maximises the exact chance
    to win; ties go to the lower messy-critical chance, then the higher expected successes,
    then fewer dice, then the lowest indexes. () only when there are no regular dice.

    **Ruling**: this is the best *reroll*, always a non-empty choice. Rerolling is never
    forced, and when every regular die already succeeds the best reroll can be worse than
    keeping the roll: a caller that advises the player compares it with
    `reroll_odds(result, ())`.

    Faces inside a category evaluate alike, so the choice is made over how many fails,
    successes and tens to reroll (at most 19 candidates), taking the lowest indexes of each
    category. All chances are compared as integers over 10**3.
    """
    by_category = {"fail": [], "success": [], "ten": []}
    for i, face in enumerate(result.regular):
        by_category["fail" if face <= 5 else "ten" if face == 10 else "success"].append(i)
    best_key, best = None, ()
    fails, successes, tens = (by_category[c] for c in ("fail", "success", "ten"))
    for a in range(min(len(fails), v5_dice.MAX_REROLL) + 1):
        for b in range(min(len(successes), v5_dice.MAX_REROLL - a) + 1):
            for c in range(min(len(tens), v5_dice.MAX_REROLL - a - b) + 1):
                k = a + b + c
                if k == 0:
                    continue
                picks = tuple(sorted(fails[:a] + successes[:b] + tens[:c]))
                counts, _ = _reroll_counts(result, picks)
                scale = 10 ** (v5_dice.MAX_REROLL - k)
                key = (
                    -counts["win"] * scale,
                    counts["messy_critical"] * scale,
                    -counts["expected_successes"] * scale,
                    k,
                    picks,
                )
                if best_key is None or key < best_key:
                    best_key, best = key, picks
    return best


def rank(chances):
    """What `best` maximises, in order: win chance, then no messy critical, then successes."""
    return (chances["win"], -chances["messy_critical"], chances["expected_successes"])


def reroll_improves(result, indexes):
    """
    True when rerolling `indexes` beats keeping the roll as it is, by `rank`.

    A Willpower point buys nothing when it does not: every regular die already succeeds on a
    win, say, so any reroll can only lose successes.
    """
    return rank(reroll_odds(result, indexes)) > rank(reroll_odds(result, ()))


def strategy_odds(result):
    """
    Exact chances after each Willpower strategy (docs/v5.md): name -> `reroll_odds` dict,
    or None when the strategy picks no dice (e.g. `messy` on a roll that is not messy).
    The picks are `choose_reroll`'s.
    """
    answer = {}
    for name in STRATEGIES:
        picks = choose_reroll(result, name)
        answer[name] = reroll_odds(result, picks) if picks else None
    return answer



# ---------------------------------------------------------------- Willpower strategies


def choose_reroll(result, strategy):
    """
    The indexes of the regular dice a Willpower strategy rerolls (docs/v5.md).

    `best` is answered by the exact odds (`best_reroll`); `failures`, `crits` and `messy` are
    the rules of thumb of `rules.v5.dice`. It sits with the odds, not with the dice, because
    `best` is an odds question.
    """
    if strategy == "failures":
        return v5_dice.choose_failures(result)
    if strategy == "crits":
        return v5_dice.choose_crits(result)
    if strategy == "messy":
        return v5_dice.choose_messy(result)
    if strategy == "best":
        return best_reroll(result)
    raise DiceError(f"Unknown Willpower strategy '{strategy}': use {', '.join(v5_dice.REROLL_STRATEGIES)} or dice faces.")


# ---------------------------------------------------------------- is a reroll worth a point?

NOT_WORTHWHILE = ("No reroll raises the chance to win or lowers the chance of a messy critical "
                  "here; no Willpower spent.")


def worthwhile(result, indexes, strategy=None):
    """
    True when rerolling `indexes` raises the exact chance to win or lowers the exact chance
    of a messy critical, compared with keeping the roll (docs/v5.md, 'Rulings': otherwise the
    strategy is refused with nothing spent). For `crits` a raised chance of a critical also
    counts: chasing one is that strategy's whole point (on a win it warns first, see
    `warning_for`). More expected successes alone never count: [1,2,3]+[4] vs 12 gains
    successes but can never win.
    """
    if not tuple(indexes):
        return False
    keep = reroll_odds(result, ())
    after = reroll_odds(result, indexes)
    if after["win"] > keep["win"] or after["messy_critical"] < keep["messy_critical"]:
        return True
    return strategy == "crits" and after["critical"] > keep["critical"]


def strategy_picks(result, strategy):
    """The dice a strategy rerolls (`choose_reroll`)."""
    return choose_reroll(result, strategy)


NO_BETTER = ("No reroll does better than keeping these dice (the chance to win, then of a messy "
             "critical, then the successes); no Willpower spent.")


def willpower_choice(result, strategy, judged_alone=True):
    """
    What `+willpower <strategy>` does with `result`, and what `+odds/reroll` shows as that
    strategy, so the two never disagree: (picks, refusal), the refusal a text when nothing is
    rerolled and spent (picks may still be named, to show what the strategy would take).

    A roll judged alone is refused as `refusal` says (no gain in the chance to win or against
    a messy critical). A roll that is one part of a whole (`judged_alone` False: a contest side,
    a helper's dice, an extended roll's step) is refused only when the strategy picks no dice,
    except `best`, which must beat keeping the dice by `rank` (its successes count there).
    **Ruling**: so `best` is never worse than keeping: when nothing gains, it keeps.
    """
    picks = strategy_picks(result, strategy)
    why = refusal(result, strategy, picks)
    if judged_alone or not picks:
        return picks, why
    if strategy == "best" and not reroll_improves(result, picks):
        return picks, NO_BETTER
    return picks, None


def refusal(result, strategy, indexes=None):
    """
    Why a Willpower strategy is refused with nothing spent (text), or None when it may spend.

    Args:
        result (V5Result): the roll as it stands.
        strategy (str): one of STRATEGIES.
        indexes (tuple or None): the strategy's picks if already chosen (else chosen here).

    The reasons, in order: the roll cannot be rerolled at all (a rating-only roll, or already
    rerolled: `rules.v5.reroll_refusal`); the strategy picks no dice; the picks are not
    `worthwhile`. A player's explicit dice faces are never refused here (**Ruling**: that is
    the player's choice).
    """
    if strategy not in STRATEGIES:
        raise DiceError(f"Unknown Willpower strategy '{strategy}': use {', '.join(STRATEGIES)} or dice faces.")
    cannot = v5_dice.reroll_refusal(result)
    if cannot:
        return cannot
    picks = strategy_picks(result, strategy) if indexes is None else tuple(indexes)
    if not picks:
        why = {
            "failures": "no regular dice under 6",
            "crits": "no unpaired 10 to chase a pair for",
            "messy": "no regular 10s to reroll that would leave a winning roll without a messy critical",
            "best": "no regular dice to reroll",
        }[strategy]
        return f"The {strategy} strategy finds {why}; no Willpower spent."
    if not worthwhile(result, picks, strategy):
        return NOT_WORTHWHILE
    return None


def _percent(chance):
    return f"{float(chance) * 100:.1f}%"


def warning_for(result, strategy, indexes=None):
    """
    A warning to show before spending (text), or None. Today one case: `crits` on a roll
    that already wins, where chasing the pair rerolls dice that may cost the win or make the
    critical messy. The text gives the exact chances after the reroll.
    """
    if strategy != "crits" or not result.win:
        return None
    picks = strategy_picks(result, strategy) if indexes is None else tuple(indexes)
    if not picks:
        return None
    after = reroll_odds(result, picks)
    return (f"This roll already wins. Chasing a critical rerolls {len(picks)} "
            f"{'die' if len(picks) == 1 else 'dice'}: chance to still win {_percent(after['win'])}, "
            f"critical {_percent(after['critical'])}, messy critical {_percent(after['messy_critical'])}.")

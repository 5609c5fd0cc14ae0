"""
Vampire: The Masquerade 5th edition (docs/v5.md). The default system.

Counting: each face 6-10 is a success; every pair of 10s, regular or Hunger in any mix, adds
2 more (two 10s make 4 successes, three make 5, four make 8).

Outcome, for a roll against a difficulty (successes needed, 0 and up):

- win: successes >= difficulty and at least one success; margin = successes - difficulty,
  labelled on a win 0 "bare success", 1-2 "solid success", 3+ "exceptional success".
  **Ruling** (docs/v5.md): 0 successes never wins, not even at difficulty 0.
- critical: a win with at least one pair of 10s.
- messy critical: a critical where at least one of the 10s is on a Hunger die.
- bestial failure, rule "official" (V5 core, the default): the roll does not win and at
  least one Hunger die shows 1. Rule "total_failure" (the reading where a bestial failure is a total failure, chosen with the
  setting V5_BESTIAL_FAILURE): 0 successes and at least one Hunger die was rolled.
- total failure: 0 successes, at any difficulty (difficulty 0 included: such a roll does not
  win, so with a Hunger die showing 1 it is also a bestial failure under "official").

Willpower reroll: up to 3 regular dice, never Hunger dice, once per roll; the new faces are
evaluated again as a whole roll. Strategies choose the dice (see `choose_reroll`).

Rating-only rolls (docs/v5.md): a pool that is a single Willpower or Humanity rating
(`+roll willpower`, `+roll humanity`) rolls no Hunger dice and cannot be rerolled with
Willpower (V5 core: Hunger dice are not used on Willpower or Humanity tests, and Willpower
rerolls "any test except Willpower tests"). **Ruling**: "a single rating" means exactly one
trait term, added (not subtracted), which is Willpower or Humanity, with any number of
plain-number modifiers (`willpower + 2`, `humanity - 1`: a situational modifier does not
change what is tested; an Impaired character's -2 is such a modifier). Two traits
(`resolve + willpower`, `willpower + willpower`) make an ordinary pool. Such a roll keeps
`rating_only=True` on its result, and `apply_reroll` refuses it.

The `/willpower` ending (`+roll <pool> vs <difficulty>/willpower`, docs/v5.md):
`willpower_ending` decides at once. **Ruling** (docs/v5.md, 'Rolls'): the `failures` choice is rerolled
only when the roll did not win; on a win nothing is rerolled or spent and the decision says
why (rerolling failures on a win can only add a messy critical: [2,3,7]+[10] vs 2 became one
19 times in 100).

Rouse check: one die, 6+ passes; 1-5 raises Hunger by 1. At Hunger 5 no die is rolled (the
Blood cannot be roused: `rules.v5.rouse`). Blood Potency may reroll a failed Rouse check once
for a power of level <= its rouse-reroll level.

Where each piece lives: the counting, outcomes and rerolls of chosen dice in `rules.v5.dice`;
exact odds, the Willpower strategies (`choose_reroll`: `best` is an odds question) and whether a
reroll is worth a point in `rules.v5.exact_odds`, which builds on `rules.v5.dice`. This module only
gathers them under the contract's names, so nothing below it imports it back.
"""

from .dice import (  # noqa: F401 - re-exported: the contract and its callers use rules.v5
    apply_reroll, BESTIAL_RULES, check_bestial_rule, check_blood_potency, check_difficulty,
    check_faces, check_hunger, check_pool, choose_crits, choose_faces, choose_failures, choose_messy, ending_picks,
    count_successes, ENDING_ALL_HUNGER, ENDING_NO_FAILURES, ENDING_WON, evaluate, hunger_dice_for,
    is_rating_only, KEY, margin_grade, MAX_BLOOD_POTENCY, MAX_DIFFICULTY, MAX_HUNGER, MAX_REROLL,
    Outcome, OUTCOME_LABELS, RATING_ONLY_REFUSAL, RATING_ONLY_TRAITS, reroll, reroll_refusal,
    REROLL_STRATEGIES, rescore, roll, rouse_reroll_level, ROUSE_REROLL_LEVELS, split_pool,
    SUCCESS_FACE, SURGE_DICE, surge_dice, TITLE, V5Result, willpower_ending, WillpowerDecision,
)
from .exact_odds import choose_reroll, odds  # noqa: F401

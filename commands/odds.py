"""
+odds: exact chances before you roll, from the exact odds engine (rules.v5_odds).

The engine counts outcomes by categories of faces, so even the largest pool (50 dice,
Hunger 5) is answered in about a millisecond: safe to run on the game's single reactor thread
(see bench/bench_v5_odds.py for the measured figures).
"""

from rules import v5, v5_odds
from rules.errors import DiceError
from rules.pools import build_pool

from .dice_base import DiceCommand, bestial_rule, split_hunger
from .dice_display import format_faces, format_pool
from .rolls import split_roll_args
from .willpower import rerollable_roll


ODDS_ROWS = (
    ("win", "Win"),
    ("critical", "Critical"),
    ("messy_critical", "Messy critical"),
    ("bestial_failure", "Bestial failure"),
    ("total_failure", "Total failure"),
)


def percent(probability):
    """One decimal; never rounds a possible outcome to 0% or an uncertain one to 100%."""
    value = float(probability) * 100
    if 0 < value < 0.05:
        return "<0.1%"
    if 99.95 <= value < 100 and probability != 1:
        return ">99.9%"
    return f"{value:.1f}%"


def format_odds(chances):
    cells = "  ".join(f"{label} {percent(chances[key])}" for key, label in ODDS_ROWS)
    return f"  {cells}\n  Expected successes {float(chances['expected_successes']):.2f}"


def format_strategies(result):
    """One line per Willpower choice for a roll on the table: which dice, then the chances."""
    lines = []
    keep = v5_odds.reroll_odds(result, ())
    lines.append(f"  {'keep':<9} Win {percent(keep['win'])}")
    for name in v5.REROLL_STRATEGIES:
        picks = v5_odds.best_reroll(result) if name == "best" else v5.choose_reroll(result, name)
        if not picks:
            lines.append(f"  {name:<9} (no dice to reroll)")
            continue
        chances = v5_odds.reroll_odds(result, picks)
        faces = " ".join(str(result.regular[i]) for i in picks)
        lines.append(
            f"  {name:<9} reroll {faces}: Win {percent(chances['win'])}  "
            f"Messy critical {percent(chances['messy_critical'])}  "
            f"Expected successes {float(chances['expected_successes']):.2f}"
        )
    return "\n".join(lines)


class CmdOdds(DiceCommand):
    """
    Show the exact chances of a roll before you make it.

    Usage:
      +odds <pool> [vs <difficulty>] [hunger <n>]
      +odds/reroll

    Switches:
      reroll - for your last roll, the chances after each Willpower choice
               (failures, crits, messy, best), before you commit

    Computes, exactly (by counting, not by simulation), the chance to win,
    to score a critical, a messy critical, a bestial failure and a total
    failure, and the expected number of successes. A pool with traits uses
    your dots; the Hunger is yours unless you give one. Without a
    difficulty, a win means at least one success.

    Examples:
      +odds dex+stealth vs 3
      +odds 7 vs 4 hunger 3
      +odds str+brawl(grappling) vs 2 hunger 0
      +odds/reroll
    """

    key = "+odds"
    aliases = ["odds"]
    locks = "cmd:all()"
    usage = "+odds <pool> [vs <difficulty>] [hunger <n>] or +odds/reroll"
    switch_options = ("reroll",)

    def run(self):
        caller = self.caller
        if "reroll" in self.switches:
            self.reroll_advice()
            return
        text, hunger = split_hunger(self.args)
        text, difficulty, willpower, _ = split_roll_args(text)
        if willpower:
            raise DiceError("Odds do not spend Willpower; see +odds/reroll after a roll.")
        table = caller.trait_table() if hasattr(caller, "trait_table") else None
        pool = build_pool(text, table)
        if hunger is None:
            hunger = caller.hunger if hasattr(caller, "hunger") else 0
        given = difficulty is not None
        chances = v5_odds.odds(pool.dice, hunger, difficulty if given else 1, bestial_rule=bestial_rule())
        header = "|w[Odds]|n " + format_pool(pool, pool.dice, hunger, difficulty, given)
        self.msg(header + "\n" + format_odds(chances))

    def reroll_advice(self):
        _, result = rerollable_roll(self.caller)
        if not result.regular:
            raise DiceError("Your last roll has no regular dice (all are Hunger dice).")
        self.msg(f"|w[Odds]|n Willpower choices for your last roll "
                 f"({format_faces(result)}, vs {result.difficulty}):\n" + format_strategies(result))

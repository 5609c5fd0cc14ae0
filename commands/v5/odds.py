"""
+odds/reroll (the V5 wing's part of the shared +odds): for your last roll, the exact chances
after each Willpower choice, before you commit (`rules.v5.exact_odds.reroll_odds`).
"""

from storyteller_dice.rules import v5
from storyteller_dice.rules.v5 import exact_odds as v5_odds
from storyteller_dice.rules.display import format_dice
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.v5.system import SYSTEM as V5

from ..odds import percent
from .willpower import rerollable_roll


KEEP = "keep: no reroll gains (+willpower best spends nothing)"
NO_GAIN = "no gain (+willpower {name} spends nothing)"


def format_strategies(result, judged_alone=True):
    """
    One line per Willpower choice for a roll on the table: which dice, then the chances. Each
    strategy is what `+willpower` would do (`rules.v5.exact_odds.willpower_choice`): `best` says
    "keep" when no reroll gains, and a strategy `+willpower` would refuse says so.
    """
    lines = []
    keep = v5_odds.reroll_odds(result, ())
    lines.append(f"  {'keep':<9} Win {percent(keep['win'])}")
    for name in v5.REROLL_STRATEGIES:
        picks, refused = v5_odds.willpower_choice(result, name, judged_alone)
        if not picks:
            lines.append(f"  {name:<9} (no dice to reroll)")
            continue
        faces = " ".join(str(result.regular[i]) for i in picks)
        if refused:
            lines.append(f"  {name:<9} " + (KEEP if name == "best" else f"reroll {faces}: " + NO_GAIN.format(name=name)))
            continue
        chances = v5_odds.reroll_odds(result, picks)
        lines.append(
            f"  {name:<9} reroll {faces}: Win {percent(chances['win'])}  "
            f"Messy critical {percent(chances['messy_critical'])}  "
            f"Expected successes {float(chances['expected_successes']):.2f}"
        )
    return "\n".join(lines)


def reroll_advice(cmd):
    last, result = rerollable_roll(cmd.caller)
    if not result.regular:
        raise DiceError("Your last roll has no regular dice (all are Hunger dice).")
    cmd.msg(f"|w[Odds]|n Willpower choices for your last roll "
            f"({format_dice(V5.view(result))}, vs {result.difficulty}):\n" + format_strategies(result, last.judged_alone))

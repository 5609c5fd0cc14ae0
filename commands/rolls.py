"""
+roll and +check: a V5 roll of a pool with the roller's Hunger, shown to the room.
"""

import re

from rules import v5
from rules.errors import DiceError
from rules.pools import build_pool
from rules.randomness import get_rng

from .dice_base import DiceCommand, announce, bestial_rule, dice_system
from .dice_display import format_reroll, format_roll

_COMMENT = re.compile(r"(?:^|\s)#")
_WILLPOWER_SUFFIX = re.compile(r"/\s*(?:willpower|wp)\s*$", re.IGNORECASE)
_VS = re.compile(r"^(?P<pool>.*?)\s+vs\.?\s+(?P<difficulty>\S.*)$", re.IGNORECASE | re.DOTALL)
_VS_ONLY = re.compile(r"^vs\.?\s+", re.IGNORECASE)


def split_roll_args(text):
    """
    Split `<pool> [vs <difficulty>][/willpower] [# comment]`.

    Returns:
        (pool text, difficulty or None, willpower flag, comment)
    """
    comment = ""
    found = _COMMENT.search(text)
    if found:
        text, comment = text[: found.start()], text[found.end():].strip()
    text = text.strip()
    willpower = False
    suffix = _WILLPOWER_SUFFIX.search(text)
    if suffix:
        willpower = True
        text = text[: suffix.start()].strip()
    difficulty = None
    match = _VS.match(text)
    if match:
        text, typed = match.group("pool").strip(), match.group("difficulty").strip()
        if not typed.isdigit():
            raise DiceError(f"The difficulty must be a whole number of successes, not '{typed}'.")
        difficulty = v5.check_difficulty(int(typed[:4]))
    elif _VS_ONLY.match(text):
        raise DiceError("Say what to roll before 'vs'.")
    return text, difficulty, willpower, comment


class CmdRoll(DiceCommand):
    """
    Roll a dice pool with your Hunger dice.

    Usage:
      +roll <pool> [vs <difficulty>] [# <comment>]
      +roll <pool> vs <difficulty>/willpower

    Switches:
      private   - show the roll only to yourself and staff in the room
      willpower - after rolling, spend 1 Willpower to reroll up to three
                  regular dice under 6 (same as the /willpower ending)

    A pool adds Attributes, Skills, Disciplines and numbers: full names,
    standard abbreviations (str, dex, int, ...) or unique prefixes. A
    Specialty you have adds one die: str+brawl(grappling). The difficulty is
    the number of successes needed; without one, any success is a success.
    Your current Hunger says how many of the dice are Hunger dice.

    The room sees the pool with each trait's value, your regular and Hunger
    dice apart, the successes and the outcome: bare, solid or exceptional
    success, critical, messy critical, failure, total failure or bestial
    failure, and the margin against a stated difficulty.

    Examples:
      +roll dex+stealth vs 3
      +roll dexterity + stealth + 2 - 1 vs 2 # in the dark, with a head start
      +roll str+brawl(grappling) vs 4
      +roll/private wits+awareness
      +roll res+occult vs 3/willpower
    """

    key = "+roll"
    aliases = ["roll"]
    locks = "cmd:all()"
    switch_options = ("private", "willpower")
    usage = "+roll <pool> [vs <difficulty>] [# <comment>]"
    verb = "rolls"
    numbers_only = False

    def run(self):
        caller = self.caller
        if not hasattr(caller, "trait_table"):
            raise DiceError("Only characters with a sheet can roll.")
        system = dice_system()
        text, difficulty, willpower, comment = split_roll_args(self.args)
        willpower = willpower or "willpower" in self.switches
        table = None if self.numbers_only else caller.trait_table()
        pool = build_pool(text, table)
        if willpower and caller.willpower_left < 1:
            raise DiceError("Your Willpower is exhausted: you cannot reroll with Willpower.")

        rng = get_rng()
        given = difficulty is not None
        result = system.roll(pool.dice, caller.hunger, difficulty if given else 1, rng=rng,
                             bestial_rule=bestial_rule())
        private = "private" in self.switches
        text = format_roll(caller.key, pool, result, given, comment,
                           private_to=[caller.key, "staff"] if private else None, title=self.verb)
        initial = None
        if willpower:
            picks = v5.choose_failures(result)
            if picks:
                caller.spend_willpower()
                initial, result = result, v5.reroll(result, picks, rng=rng)
                text += "\n" + format_reroll(initial, result, "failures", given)
            else:
                text += "\n  |wWillpower|n: no regular dice under 6 to reroll; no Willpower spent."
        record = {
            "kind": self.key.lstrip("+"),
            "command": self.raw_string.strip(),
            "pool": pool,
            "result": result,
            "initial": initial,
            "difficulty_given": given,
            "comment": comment,
        }
        announce(caller, text, private=private, record=record)


class CmdCheck(CmdRoll):
    """
    Roll a number of dice with your Hunger dice (a quick roll).

    Usage:
      +check <number> [vs <difficulty>] [# <comment>]

    Switches:
      private   - show the roll only to yourself and staff in the room
      willpower - after rolling, spend 1 Willpower to reroll up to three
                  regular dice under 6

    Like +roll, but with a plain number of dice (modifiers like 5+2 work)
    instead of traits. Your current Hunger says how many are Hunger dice.

    Examples:
      +check 5 vs 2
      +check 6+1 # soaking up the blast
    """

    key = "+check"
    aliases = ["check"]
    usage = "+check <number> [vs <difficulty>] [# <comment>]"
    verb = "checks"
    numbers_only = True

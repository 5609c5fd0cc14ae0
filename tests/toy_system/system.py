"""
The toy's rules: "Coin", two traits: Luck 0-5 (the coins a pool tosses) and Nerve 0-3 (its
Willpower: points left, a spent point comes off). A pool is coins (d2s), a 2 is a head (a
success, marked "crown", a mark of its own); the target is the number of heads needed (default
1). `/lucky` tosses one coin more (its wing spends 1 Nerve for it). Its odds are counted
exactly (binomial). Its extended rolls are `extended.py`'s rules.
"""

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from storyteller_dice.rules.engine import (FAIL, SUCCESS, Chance, DiceGroup, Die, Example, MarkLook, OddsView,
                                           Outcome, RollRequest, RollView, Sheet, SheetSection, System, read_whole,
                                           split_vs)
from storyteller_dice.rules.errors import DiceError
from storyteller_dice.rules.pools import TraitTable, build_pool, match_name
from storyteller_dice.rules.randomness import roll_faces

from . import KEY
from .extended import EXTENDED

CROWN = "crown"  # a head: the toy's own die mark
LUCKY = "lucky"  # one coin more, for a point of Nerve
RANGES = {"luck": 5, "nerve": 3}


class CoinSheet(Sheet):
    willpower_trait = "nerve"
    willpower_step = -1  # Nerve is the points left: spending takes one off
    no_willpower = "You have {left} Nerve left; that needs {need}."

    def defaults(self):
        return {"luck": 0, "nerve": 3}

    def match(self, typed):
        return match_name(typed, tuple(RANGES))

    def check_value(self, trait, value, values):
        if not 0 <= value <= RANGES[trait]:
            raise DiceError(f"{trait.title()} runs from 0 to {RANGES[trait]}, not {value}.")
        return value

    def traits(self, values, specialties):
        return TraitTable(values={"luck": values["luck"]}, specialties={}, aliases={}, specialty_traits=frozenset())

    def state(self, values):
        return {"willpower_left": values["nerve"]}

    def layout(self, values, specialties, flags=frozenset()):
        return (SheetSection("columns", "Traits", rows=(("Fortune", (("Luck", values["luck"]),
                                                                    ("Nerve", values["nerve"]))),)),)

    def help(self):
        return "  Luck 0-5: the coins you toss. Nerve 0-3: spent on /lucky and team tosses."


def heads(faces):
    return sum(1 for face in faces if face == 2)


@dataclass(frozen=True)
class CoinRoll:
    pool: str
    faces: tuple
    needed: int
    given: bool

    @property
    def heads(self):
        return heads(self.faces)

    @property
    def successes(self):  # what an extended roll adds by default (`rules.extended.ExtendedRules.step`)
        return self.heads


def coin_dice(faces):
    return tuple(Die(face, frozenset({SUCCESS, CROWN} if face == 2 else {FAIL})) for face in faces)


class CoinSystem(System):
    key = KEY
    title = "Coin"
    roll_switches = (LUCKY,)
    roll_usage = "+roll <pool> [vs <heads needed>] [# <comment>]"
    check_usage = "+check <number> [vs <heads needed>] [# <comment>]"
    help = ("Coin: toss coins; each 2 is a head, and the heads needed are the target\n"
            "(1 if none). /lucky tosses one coin more for 1 Nerve.")
    sheet = CoinSheet()
    extended = EXTENDED
    wing = "tests.toy_system.wing:WING"  # its commands (`commands.dice_base.Wing`)
    # What a system declares for the shared parts to serve it (`rules.engine.System`).
    blurb = "Coin: toss your Luck in coins and count the heads."
    slogan = "Heads, tails and an honest record"
    example = Example("luck vs 2", stats={"luck": 3})
    tags = ("Flip",)
    mark_looks = (MarkLook(frozenset({CROWN}), "|y", "color: #7a5c00; font-weight: bold;"),)

    def parse(self, text, switches=frozenset(), roller=None, numbers_only=False):
        pool_text, target = split_vs(text)
        if not pool_text:
            raise DiceError("Say what to toss.")
        pool = build_pool(pool_text, None if numbers_only or roller is None else roller.traits)
        needed = 1 if target is None else read_whole(
            target, "The heads needed must be a whole number from 1", check=self._needed)
        lucky = LUCKY in switches
        return RollRequest(system=self.key, text=text, pool=pool, dice=pool.dice + lucky, target=needed,
                           target_given=target is not None, options=frozenset({LUCKY} if lucky else ()))

    @staticmethod
    def _needed(value):
        if value < 1:
            raise DiceError(f"The heads needed must be a whole number from 1, not '{value}'.")
        return value

    def roll(self, request, roller=None, rng=None):
        return CoinRoll(request.pool.describe(), roll_faces(request.dice, rng, sides=2), request.target,
                        request.target_given)

    def view(self, result, request=None):
        won = result.heads >= result.needed
        outcome = Outcome("success", "success", "good") if won else Outcome("failure", "failure", "bad")
        return RollView(system=self.key, pool=f"{result.pool} ({len(result.faces)} coins)",
                        target=f"vs {result.needed}" if result.given else "",
                        groups=(DiceGroup("Coins", coin_dice(result.faces), sides=2),), score=result.heads,
                        noun=("head", "heads"), outcome=outcome)

    def odds(self, request, roller=None):
        n, needed = request.dice, request.target
        dist = tuple((k, Fraction(comb(n, k), 2**n)) for k in range(n + 1))
        win = sum((p for k, p in dist if k >= needed), Fraction(0))
        return OddsView(system=self.key, pool=f"{request.pool.describe()} ({n} coins)",
                        target=f"vs {needed}" if request.target_given else "",
                        chances=(Chance("success", "success", win, "good"),
                                 Chance("failure", "failure", 1 - win, "bad")),
                        distribution=dist, noun=("head", "heads"))


SYSTEM = CoinSystem()

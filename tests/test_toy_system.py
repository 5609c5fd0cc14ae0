"""
A new system needs no edit of a shared file: a toy system defined here alone, registered for
the test with `rules.systems.register` and removed after, played through the shared `+roll`,
`+check`, `+odds`, `+sheet`, `+stat` and `+roll/verify` under `DICE_SYSTEM="coin"`.

The toy, "Coin": one trait, Luck 0-5; a pool is coins (d2s), a 2 is a head (a success); the
target is the number of heads needed (default 1). Its odds are counted exactly (binomial).
"""

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from django.test import override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.commands.sheet import CmdSheet, CmdStat
from rules import systems
from rules.engine import (FAIL, SUCCESS, Chance, DiceGroup, Die, OddsView, Outcome, RollRequest, RollView, Sheet,
                          SheetSection, System, read_whole, split_vs)
from rules.errors import DiceError
from rules.pools import TraitTable, build_pool, match_name
from rules.randomness import FixedFaces, roll_faces, seeded


class CoinSheet(Sheet):
    def defaults(self):
        return {"luck": 0}

    def match(self, typed):
        return match_name(typed, ("luck",))

    def check_value(self, trait, value, values):
        if not 0 <= value <= 5:
            raise DiceError(f"Luck runs from 0 to 5, not {value}.")
        return value

    def traits(self, values, specialties):
        return TraitTable(values={"luck": values["luck"]}, specialties={}, aliases={}, specialty_traits=frozenset())

    def layout(self, values, specialties, flags=frozenset()):
        return (SheetSection("columns", "Traits", rows=(("Fortune", (("Luck", values["luck"]),)),)),)

    def help(self):
        return "  Luck 0-5: the coins you toss."


@dataclass(frozen=True)
class CoinRoll:
    pool: str
    faces: tuple
    needed: int
    given: bool

    @property
    def heads(self):
        return sum(1 for face in self.faces if face == 2)


class CoinSystem(System):
    key = "coin"
    title = "Coin"
    roll_usage = "+roll <pool> [vs <heads needed>] [# <comment>]"
    check_usage = "+check <number> [vs <heads needed>] [# <comment>]"
    help = "Toss coins: each 2 is a head."
    sheet = CoinSheet()

    def parse(self, text, switches=frozenset(), roller=None, numbers_only=False):
        pool_text, target = split_vs(text)
        if not pool_text:
            raise DiceError("Say what to toss.")
        pool = build_pool(pool_text, None if numbers_only or roller is None else roller.traits)
        needed = 1 if target is None else read_whole(
            target, "The heads needed must be a whole number from 1", check=self._needed)
        return RollRequest(system=self.key, text=text, pool=pool, dice=pool.dice, target=needed,
                           target_given=target is not None)

    @staticmethod
    def _needed(value):
        if value < 1:
            raise DiceError(f"The heads needed must be a whole number from 1, not '{value}'.")
        return value

    def roll(self, request, roller=None, rng=None):
        return CoinRoll(request.pool.describe(), roll_faces(request.dice, rng, sides=2), request.target,
                        request.target_given)

    def view(self, result, request=None):
        dice = tuple(Die(face, frozenset({SUCCESS if face == 2 else FAIL})) for face in result.faces)
        won = result.heads >= result.needed
        outcome = Outcome("success", "success", "good") if won else Outcome("failure", "failure", "bad")
        return RollView(system=self.key, pool=f"{result.pool} ({len(result.faces)} coins)",
                        target=f"vs {result.needed}" if result.given else "",
                        groups=(DiceGroup("Coins", dice, sides=2),), score=result.heads,
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


@override_settings(DICE_SYSTEM="coin")
class TestToySystem(EvenniaCommandTest):
    def setUp(self):
        systems.register(CoinSystem())
        self.addCleanup(systems.unregister, "coin")
        super().setUp()

    def toss(self, cmd, args, faces, expected=None, **kwargs):
        with seeded(FixedFaces(faces)) as source:
            out = self.call(cmd(), args, expected, **kwargs)
        self.assertEqual(source.remaining, [])
        return out

    def test_registered_only_for_the_test(self):
        self.assertIn("coin", systems.available())
        self.assertEqual(self.char1.dice_system().key, "coin")

    def test_stat_and_sheet(self):
        self.call(CmdStat(), "luck=3", "Your Luck is now 3 (was 0).")
        self.call(CmdStat(), "lu=6", "Luck runs from 0 to 5, not 6.")
        out = self.call(CmdStat(), "wits=2")
        self.assertEqual(out.split("\n"), [
            "There is no trait called 'wits'.",
            "Usage: +stat [<character>/]<trait>=<value> or +stat [<character>/]spec",
            "  <skill>=<specialty>",
        ])
        self.assertEqual(self.char1.sheet_values, {"luck": 3})
        out = self.call(CmdSheet(), "")
        self.assertEqual(out.split("\n"), [
            "============================ Char (not approved) =============================",
            "Traits",
            " Fortune",
            " Luck            3",
            "==============================================================================",
        ])

    def test_roll_with_a_trait(self):
        self.call(CmdStat(), "luck=3")
        out = self.toss(CmdRoll, "luck vs 1 # heads I win", [2, 1, 1],
                        {self.char2: "[Roll] Char rolls Luck 3 (3 coins), vs 1 # heads I win\n"
                                     "  Coins (d2): 2 1 1  =>  1 head: success [code "})
        self.assertRegex(out, r"^\[Roll\] Char rolls Luck 3 \(3 coins\), vs 1 # heads I win\n"
                              r"  Coins \(d2\): 2 1 1  =>  1 head: success \[code [0-9A-Z]{8}\]$")

    def test_check_and_verify(self):
        from storyteller_dice.rolllog.models import RollEntry

        out = self.toss(CmdCheck, "3", [1, 1, 2])
        entry = RollEntry.objects.get()
        self.assertEqual(out, f"[Roll] Char checks 3 (3 coins)\n  Coins (d2): 1 1 2  =>  1 head: success"
                              f" [code {entry.code}]")
        self.assertEqual((entry.system, entry.kind, entry.score, entry.outcome), ("coin", "check", 1, "success"))
        self.assertEqual(entry.view["groups"], [{"label": "Coins", "sides": 2,
                                                 "dice": [[1, ["fail"]], [1, ["fail"]], [2, ["success"]]]}])
        out = self.call(CmdRoll(), f"/verify {entry.code}", caller=self.char2)
        lines = out.split("\n")
        self.assertTrue(lines[0].startswith(f"[Verify] Roll {entry.code} (check, public), "), out)
        self.assertEqual(lines[1:4], ["  By: Char", "  System: coin", "  Typed: +check 3"])
        self.assertEqual(lines[4], "[Roll] Char checks 3 (3 coins)")
        self.assertTrue(lines[5].startswith("  Coins (d2): 1 1 2  =>  1 head: success"), out)
        self.assertIn(f"[code {entry.code}]", lines[5])

    def test_failure_against_a_target(self):
        self.toss(CmdCheck, "2 vs 2", [2, 1], "[Roll] Char checks 2 (2 coins), vs 2\n"
                                             "  Coins (d2): 2 1  =>  1 head: failure [code ")

    def test_bad_target_is_refused_with_the_systems_usage(self):
        out = self.toss(CmdRoll, "luck vs 0", [])
        self.assertEqual(out.split("\n"), [
            "The heads needed must be a whole number from 1, not '0'.",
            "Usage: +roll <pool> [vs <heads needed>] [# <comment>]",
        ])

    def test_odds(self):
        self.call(CmdStat(), "luck=3")
        out = self.call(CmdOdds(), "luck")
        self.assertEqual(out.split("\n"), [
            "[Odds] Luck 3 (3 coins)",
            "  success  87.5%",
            "  failure  12.5%",
            "  Heads:",
            "  0  12.5% #############",
            "  1  37.5% ########################################",
            "  2  37.5% ########################################",
            "  3  12.5% #############",
        ])

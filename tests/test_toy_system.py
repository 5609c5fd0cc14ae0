"""
A new system needs no edit of a shared file: the toy system of tests/toy_system/, registered for
the test with `rules.systems.register` and removed after, played through the shared `+roll`,
`+check`, `+odds`, `+sheet`, `+stat` and `+roll/verify` under `DICE_SYSTEM="coin"`.

The toy, "Coin": Luck 0-5 and Nerve 0-3 (its Willpower); a pool is coins (d2s), a 2 is a head
(a success); the target is the number of heads needed (default 1). Its odds are counted exactly
(binomial). Its contest, extended rolls and teamwork are played in tests/test_sixth_system.py.
"""

from django.test import override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.commands.rolls import CmdCheck, CmdRoll
from storyteller_dice.commands.sheet import CmdSheet, CmdStat
from storyteller_dice.rules import systems
from storyteller_dice.rules.randomness import FixedFaces, seeded
from tests.toy_system.system import CoinSystem


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
        self.call(CmdStat(), "nerve=4", "Nerve runs from 0 to 3, not 4.")
        self.assertEqual(self.char1.sheet_values, {"luck": 3, "nerve": 3})
        out = self.call(CmdSheet(), "")
        self.assertEqual(out.split("\n"), [
            "============================ Char (not approved) =============================",
            "Traits",
            " Fortune",
            " Luck            3",
            " Nerve           3",
            "==============================================================================",
            "Set your traits with +stat <trait>=<value> (help +stat lists them). When it is",
            "  done, staff +approve it.",
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
                                                 "dice": [[1, ["fail"]], [1, ["fail"]], [2, ["crown", "success"]]]}])
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

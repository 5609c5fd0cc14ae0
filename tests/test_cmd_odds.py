"""+odds: exact percentages, checked against an independent brute-force count."""

from itertools import product

from evennia.utils.test_resources import EvenniaCommandTest

from storyteller_dice.commands.odds import CmdOdds, percent
from storyteller_dice.commands.v5.willpower import last_roll
from storyteller_dice.rules import v5


def brute_force(pool, hunger, difficulty):
    wins = total = 0
    for faces in product(range(1, 11), repeat=pool):
        result = v5.evaluate(faces[: pool - hunger], faces[pool - hunger :], difficulty)
        wins += result.win
        total += 1
    return wins / total


def shown(args, hunger):
    """What +odds shows: the V5 system's exact odds drawn by rules.display (80 columns)."""
    from storyteller_dice.rules.display import format_odds
    from storyteller_dice.rules.engine import Roller
    from storyteller_dice.rules.v5.system import SYSTEM

    roller = Roller(name="Char", state={"hunger": hunger})
    from evennia.utils.ansi import strip_ansi

    return strip_ansi(format_odds(SYSTEM.odds(SYSTEM.parse(args, numbers_only=True), roller), width=80))


class TestOdds(EvenniaCommandTest):
    def test_odds_with_traits_and_own_hunger(self):
        from storyteller_dice.rules.v5.system import SYSTEM

        self.char1.set_trait("dexterity", 2)
        self.char1.set_trait("stealth", 1)
        self.char1.set_trait("hunger", 2)
        out = self.call(CmdOdds(), "dex+stealth vs 2", "[Odds] Dexterity 2 + Stealth 1 = 3 (3 dice), Hunger 2, vs 2\n")
        odds = SYSTEM.odds(SYSTEM.parse("3 vs 2"), self.char1.roller())
        win = odds.chance("messy_critical") + odds.chance("critical") + odds.chance("success")
        self.assertEqual(float(win), brute_force(3, 2, 2))
        self.assertEqual(f"{float(win) * 100:.1f}", "50.0")
        self.assertTrue(all(len(line) <= 80 for line in out.split("\n")))

    def test_odds_known_figures(self):
        # One die vs 1: 50% win; no critical possible; Hunger 1: the 1 is bestial (10%).
        out = self.call(CmdOdds(), "1 vs 1 hunger 1", shown("1 vs 1", 1))
        self.assertIn("bestial failure         10.0%", out)
        self.assertIn("success (not critical)  50.0%", out)
        out = self.call(CmdOdds(), "2 vs 4 hunger 0", shown("2 vs 4", 0))
        self.assertIn("critical success         1.0%", out)

    def test_largest_pool(self):
        self.call(CmdOdds(), "50 vs 30 hunger 5", shown("50 vs 30", 5))

    def test_refusals(self):
        self.call(CmdOdds(), "51", "That pool is 51 dice; pools are limited to 50.\nUsage: +odds")
        self.call(CmdOdds(), "5 hunger 6", "Hunger is from 0 to 5.\nUsage: +odds")
        self.call(CmdOdds(), "5 hunger lots", "Hunger must be a whole number from 0 to 5, not 'lots'.")
        self.call(CmdOdds(), "5 vs 3/willpower", "Odds do not spend Willpower")

    def test_percent_never_rounds_to_impossible_or_certain(self):
        from fractions import Fraction

        self.assertEqual(percent(Fraction(1, 10**6)), "<0.1%")
        self.assertEqual(percent(Fraction(10**6 - 1, 10**6)), ">99.9%")
        self.assertEqual(percent(Fraction(1)), "100.0%")
        self.assertEqual(percent(Fraction(0)), "0.0%")


class TestRerollOdds(EvenniaCommandTest):
    def test_each_strategy_before_committing(self):
        from storyteller_dice.commands.rolls import CmdRoll
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        self.char1.set_trait("dexterity", 3)
        self.char1.set_trait("hunger", 1)
        with seeded(FixedFaces([1, 10, 7, 3])):
            self.call(CmdRoll(), "dex+1 vs 4")  # Dice: 1 10 7, Hunger: 3 -> 2 successes
        self.call(
            CmdOdds(), "/reroll",
            "[Odds] Willpower choices for your last roll (Dice: 1 10 7  Hunger: 3, vs 4):\n"
            "  keep      Win 0.0%\n"
            "  failures  reroll 1: Win 10.0%  Messy critical 0.0%  Expected successes 2.70\n"
            "  crits     reroll 1 7: Win 19.0%  Messy critical 0.0%  Expected successes 2.38\n"
            "  messy     (no dice to reroll)\n"
            "  best      reroll 1 7: Win 19.0%  Messy critical 0.0%  Expected successes 2.38",
        )

    def test_best_is_keep_when_every_reroll_loses_the_sure_win(self):
        from storyteller_dice.commands.rolls import CmdRoll
        from storyteller_dice.commands.v5.willpower import CmdWillpower
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        self.char1.set_trait("hunger", 0)
        with seeded(FixedFaces([6, 7])):
            self.call(CmdRoll(), "2 vs 2")  # 2 successes: a sure win
        out = self.call(CmdOdds(), "/reroll", "[Odds] Willpower choices for your last roll (Dice: 6 7, vs 2):\n"
                                             "  keep      Win 100.0%\n")
        self.assertIn("\n  best      keep: no reroll gains (+willpower best spends nothing)", out)
        self.assertNotIn("Win 50.0%", out.split("\n  best")[1])
        self.call(CmdWillpower(), "best", "No reroll raises the chance to win")

    def test_best_never_offers_fewer_successes_than_the_roll_has(self):
        from storyteller_dice.commands.rolls import CmdRoll
        from storyteller_dice.commands.v5.willpower import CmdWillpower
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        self.char1.set_trait("hunger", 0)
        with seeded(FixedFaces([7, 7, 7, 7, 7])):
            self.call(CmdRoll(), "5 vs 3")  # 5 successes
        out = self.call(CmdOdds(), "/reroll")
        self.assertEqual(out.split("\n")[-1], "  best      keep: no reroll gains (+willpower best spends nothing)")
        self.assertNotIn("Expected successes 4.50", out)
        self.call(CmdWillpower(), "best", "No reroll raises the chance to win")

    def test_best_is_the_reroll_willpower_best_makes(self):
        from storyteller_dice.commands.rolls import CmdRoll
        from storyteller_dice.commands.v5.willpower import CmdWillpower
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        self.char1.set_trait("hunger", 0)
        with seeded(FixedFaces([1, 2, 9])):
            self.call(CmdRoll(), "3 vs 2")
        out = self.call(CmdOdds(), "/reroll")
        self.assertEqual(out.split("\n")[-1],
                         "  best      reroll 1 2: Win 75.0%  Messy critical 0.0%  Expected successes 2.02")
        with seeded(FixedFaces([3, 4])):
            out = self.call(CmdWillpower(), "best")
        self.assertIn("Willpower (best): rerolled 1 2 -> 3 4", out)

    def test_no_recent_roll(self):
        self.call(CmdOdds(), "/reroll", "You have no recent roll to reroll.")

    def test_not_for_a_roll_too_old_to_reroll(self):
        from unittest import mock

        from storyteller_dice.commands.rolls import CmdRoll
        from storyteller_dice.rules.randomness import FixedFaces, seeded

        with seeded(FixedFaces([1])):
            self.call(CmdRoll(), "1 vs 1")
        with mock.patch("storyteller_dice.commands.v5.willpower.time.time", return_value=last_roll(self.char1).time + 601):
            self.call(CmdOdds(), "/reroll", "Your last roll was more than 10 minutes ago")

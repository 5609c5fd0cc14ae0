"""+odds: exact percentages, checked against an independent brute-force count."""

from itertools import product

from evennia.utils.test_resources import EvenniaCommandTest

from commands.odds import CmdOdds, percent
from commands.willpower import last_roll
from rules import v5


def brute_force(pool, hunger, difficulty):
    wins = total = 0
    for faces in product(range(1, 11), repeat=pool):
        result = v5.evaluate(faces[: pool - hunger], faces[pool - hunger :], difficulty)
        wins += result.win
        total += 1
    return wins / total


class TestOdds(EvenniaCommandTest):
    def test_odds_with_traits_and_own_hunger(self):
        self.char1.set_trait("dexterity", 2)
        self.char1.set_trait("stealth", 1)
        self.char1.set_trait("hunger", 2)
        out = self.call(CmdOdds(), "dex+stealth vs 2",
                        "[Odds] Dexterity 2 + Stealth 1 = 3 (3 dice), Hunger 2, vs 2\n  Win ")
        win = brute_force(3, 2, 2)
        self.assertIn(f"Win {win * 100:.1f}%", out)
        self.assertEqual(f"{win * 100:.1f}", "50.0")

    def test_odds_known_figures(self):
        # One die vs 1: 50% win; no critical possible; Hunger 1: the 1 is bestial (10%).
        self.call(
            CmdOdds(), "1 vs 1 hunger 1",
            "[Odds] 1 die, Hunger 1, vs 1\n"
            "  Win 50.0%  Critical 0.0%  Messy critical 0.0%  Bestial failure 10.0%  Total failure 50.0%\n"
            "  Expected successes 0.50",
        )
        # Two dice vs 4: only a pair of tens wins (1%), always a critical.
        self.call(
            CmdOdds(), "2 vs 4 hunger 0",
            "[Odds] 2 dice, Hunger 0, vs 4\n"
            "  Win 1.0%  Critical 1.0%  Messy critical 0.0%  Bestial failure 0.0%  Total failure 25.0%",
        )

    def test_largest_pool(self):
        self.call(CmdOdds(), "50 vs 30 hunger 5", "[Odds] 50 dice, Hunger 5, vs 30\n  Win ")

    def test_refusals(self):
        self.call(CmdOdds(), "51", "That pool is 51 dice; pools are limited to 50. Usage: +odds")
        self.call(CmdOdds(), "5 hunger 6", "Hunger is from 0 to 5. Usage: +odds")
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
        from commands.rolls import CmdRoll
        from rules.randomness import FixedFaces, seeded

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

    def test_no_recent_roll(self):
        self.call(CmdOdds(), "/reroll", "You have no recent roll to reroll.")

    def test_not_for_a_roll_too_old_to_reroll(self):
        from unittest import mock

        from commands.rolls import CmdRoll
        from rules.randomness import FixedFaces, seeded

        with seeded(FixedFaces([1])):
            self.call(CmdRoll(), "1 vs 1")
        with mock.patch("commands.willpower.time.time", return_value=last_roll(self.char1).time + 601):
            self.call(CmdOdds(), "/reroll", "Your last roll was more than 10 minutes ago")

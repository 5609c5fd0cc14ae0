"""V5 commands beyond the plain roll: rating rolls, Hunger-5 Rouse, Blood Surge, the /willpower
ending, Willpower refusals, Stains beyond the empty boxes (Impaired), frenzy's staff form."""

import pytest

from django.test import override_settings

from storyteller_dice.commands.odds import CmdOdds
from storyteller_dice.commands.rolls import CmdRoll
from storyteller_dice.commands.sheet import CmdStat
from storyteller_dice.commands.v5.humanity import CmdFrenzy
from storyteller_dice.commands.v5.hunger import CmdRouse
from storyteller_dice.commands.v5.willpower import CmdWillpower
from storyteller_dice.commands.dice_base import dice_system
from storyteller_dice.rules.errors import DiceError

from .table_helpers import TableTest

pytestmark = pytest.mark.database  # the PostgreSQL pass (.ci/run) runs these too

PRINT = False


class TestRatingRolls(TableTest):
    def setUp(self):
        super().setUp()
        self.char1.set_trait("hunger", 3)
        self.char1.set_trait("humanity", 7)
        self.char1.set_trait("composure", 2)
        self.char1.set_trait("resolve", 3)  # Willpower 5

    def test_humanity_rolls_no_hunger_dice(self):
        # Hunger 3: without the rating rule this would be 4 regular + 3 Hunger dice.
        self.do(CmdRoll, "humanity vs 3", [1, 2, 6, 7, 8, 9, 10],
                "[Roll] Char rolls Humanity 7 (7 dice), no Hunger dice: a rating roll, vs 3\n"
                "  Dice: 1 2 6 7 8 9 10  =>  5 successes: solid success (margin +2)")

    def test_willpower_roll_refuses_a_willpower_reroll_and_spends_nothing(self):
        self.do(CmdRoll, "willpower vs 3", [1, 2, 6, 7, 3],
                "[Roll] Char rolls Willpower 5 (5 dice), no Hunger dice: a rating roll, vs 3\n"
                "  Dice: 1 2 6 7 3  =>  2 successes: failure (margin -1)")
        self.refused(CmdWillpower, "", "Willpower does not reroll a Willpower or Humanity test (V5 core); "
                     "no Willpower\n  spent.")
        self.assertEqual(self.char1.trait("willpower superficial"), 0)

    def test_willpower_ending_on_a_rating_roll_spends_nothing(self):
        out = self.do(CmdRoll, "willpower vs 3/willpower", [1, 2, 6, 7, 3])
        self.assertIn("  Willpower: Willpower does not reroll a Willpower or Humanity test (V5 core); "
                      "no Willpower spent.", out.replace("\n   ", ""))
        self.assertEqual(self.char1.trait("willpower superficial"), 0)

    def test_odds_of_a_rating_roll_count_no_hunger_dice(self):
        out = self.do(CmdOdds, "willpower vs 1", [])
        self.assertIn("Willpower 5 (5 dice), no Hunger dice: a rating roll", out)
        self.assertNotIn("bestial failure  ", out.split("bestial")[0])

    def test_a_pool_with_more_than_the_rating_keeps_its_hunger_dice(self):
        self.do(CmdRoll, "willpower+1 vs 1", [1, 2, 6, 7, 3, 4],
                "[Roll] Char rolls Willpower 5 + 1 = 6 (6 dice), no Hunger dice: a rating roll,\n  vs 1\n"
                "  Dice: 1 2 6 7 3 4  =>  2 successes: solid success (margin +1)")
        self.do(CmdRoll, "willpower+dex vs 1", [1, 2, 6, 7, 3, 4, 5, 8],
                "[Roll] Char rolls Willpower 5 + Dexterity 3 = 8 (8 dice), Hunger 3, vs 1\n"
                "  Dice: 1 2 6 7 3  Hunger: 4 5 8")


class TestWillpowerEnding(TableTest):
    def test_a_win_spends_nothing(self):
        # [2, 3, 7] + [10] vs 2: 2 successes, a win; the old ending risked a messy critical.
        self.char1.set_trait("dexterity", 4)
        self.char1.set_trait("hunger", 1)
        out = self.do(CmdRoll, "dex vs 2/willpower", [2, 3, 7, 10])
        self.assertIn("Willpower: The roll already wins: nothing is rerolled and no Willpower is spent.", out)
        self.assertEqual(self.char1.trait("willpower superficial"), 0)

    def test_a_failure_rerolls_failures(self):
        self.char1.set_trait("dexterity", 4)
        self.char1.set_trait("hunger", 1)
        out = self.do(CmdRoll, "dex vs 2/willpower", [2, 3, 6, 4, 8, 9])
        self.assertIn("Willpower (failures): rerolled 2 3 -> 8 9", out)
        self.assertEqual(self.char1.trait("willpower superficial"), 1)


class TestWillpowerStrategies(TableTest):
    def test_best_is_refused_when_nothing_can_win(self):
        # [1,2,3]+[4] vs 12: nothing can win; no point is spent.
        self.char1.set_trait("dexterity", 4)
        self.char1.set_trait("hunger", 1)
        self.do(CmdRoll, "dex vs 12", [1, 2, 3, 4])
        self.refused(CmdWillpower, "best", "No reroll raises the chance to win or lowers the chance of a messy "
                     "critical\n  here; no Willpower spent.")
        self.refused(CmdWillpower, "failures", "No reroll raises the chance to win")
        self.assertEqual(self.char1.trait("willpower superficial"), 0)


class TestRouseAtHungerFive(TableTest):
    def test_no_die_and_the_frenzy_test_is_offered(self):
        self.char1.set_trait("hunger", 5)
        out = self.do(CmdRouse, "", [])
        self.assertIn("cannot rouse", out)
        self.assertIn("+frenzy vs 4", out)
        self.assertEqual(self.char1.trait("hunger"), 5)

    def test_staff_run_the_frenzy_test_for_a_character(self):
        self.char2.set_trait("hunger", 5)
        # Char2: Willpower 5 (Composure 2 + Resolve 3), Humanity 7: 5 + 2 = 7 dice.
        out = self.do(CmdFrenzy, "Char2 vs 4", [6, 7, 8, 9, 1, 2, 3])
        self.assertIn("Char has Char2 make a frenzy test: Willpower 5 + Humanity 7 / 3 (2) = 7 (7 dice, no Hunger dice)", out.replace("\n  ", " "))
        self.assertIn("resists the frenzy", out)


class TestBloodSurge(TableTest):
    def setUp(self):
        super().setUp()
        self.char1.set_trait("stealth", 2)
        self.char1.set_trait("blood potency", 1)

    def test_surge_rouses_then_adds_the_blood_potency_dice(self):
        # Rouse die 3 fails: Hunger 2 -> 3, and the roll is made at Hunger 3 with 5 + 2 dice.
        out = self.do(CmdRoll, "/surge dex+stealth vs 2", [3, 1, 2, 6, 7, 8, 9, 10])
        self.assertEqual(self.char1.trait("hunger"), 3)
        flat = out.replace("\n    ", " ").replace("\n  ", " ")
        self.assertIn("Dexterity 3 + Stealth 2 = 5 + 2 Blood Surge (7 dice), Hunger 3, vs 2", flat)
        self.assertIn("Dice: 1 2 6 7  Hunger: 8 9 10", flat)
        self.assertIn("Blood Surge: Rouse die 3, Hunger rises to 3; +2 dice", flat)

    def test_a_passed_rouse_keeps_hunger(self):
        out = self.do(CmdRoll, "/surge dex vs 1", [8, 1, 2, 3, 4, 5])
        self.assertEqual(self.char1.trait("hunger"), 2)
        self.assertIn("Blood Surge: Rouse die 8, Hunger stays 2; +2 dice", out.replace("\n    ", " "))

    def test_refused_at_hunger_five_with_nothing_rolled(self):
        self.char1.set_trait("hunger", 5)
        self.refused(CmdRoll, "/surge dex vs 1", "At Hunger 5 the Blood cannot be roused, so there is no Blood Surge;")
        self.assertEqual(self.char1.trait("hunger"), 5)

    def test_no_rouse_die_without_the_switch(self):
        self.do(CmdRoll, "dex vs 1", [6, 1, 2])


class TestStainsAndImpaired(TableTest):
    def setUp(self):
        super().setUp()
        self.char1.set_trait("humanity", 7)

    def test_stains_beyond_the_empty_boxes_damage_willpower(self):
        # Humanity 7: 3 empty boxes; 4 Stains: one overflows, one Aggravated Willpower.
        self.do(CmdStat, "stains=4", [], "Your Stains is now 4 (was 0).|"
                "Your Willpower Aggravated is now 1 (was 0).")
        self.assertEqual(self.char1.trait("stains"), 4)
        self.assertEqual(self.char1.trait("willpower aggravated"), 1)

    def test_impaired_takes_two_dice_off_every_roll_and_says_so(self):
        self.char1.set_trait("stains", 4)
        out = self.do(CmdRoll, "dex vs 1", [6])
        flat = out.replace("\n    ", " ").replace("\n  ", " ")
        self.assertIn("Dexterity 3 - 2 Impaired (1 die), Hunger 2, vs 1", flat)
        self.assertIn("Impaired (Stains beyond Humanity): -2 dice until the Remorse test", flat)

    def test_the_dice_limit_counts_the_pool_after_impairment(self):
        self.char1.set_trait("stains", 4)
        out = self.do(CmdRoll, "52", [2] * 50)
        self.assertTrue(out.startswith("[Roll] Char rolls 52 - 2 Impaired (50 dice), Hunger 2"), out)
        self.refused(CmdRoll, "53", "That pool is 51 dice; pools are limited to 50.")

    def test_impaired_odds_and_frenzy(self):
        self.char1.set_trait("stains", 4)
        out = self.do(CmdOdds, "dex+athletics vs 1", [])
        self.assertIn("(3 dice)", out)
        self.assertIn("Impaired", out)
        # Willpower 1 left (2, one Aggravated from the overflowing Stain) + Humanity 7 / 3 (2)
        # - 2 Impaired = 1 die.
        self.char1.set_trait("willpower aggravated", 1)
        out = self.do(CmdFrenzy, "vs 1", [6])
        flat = out.replace("\n  ", " ")
        self.assertIn("Willpower 1 + Humanity 7 / 3 (2) - 2 Impaired = 1 (1 die, no Hunger dice)", flat)
        self.assertIn("Impaired (Stains beyond Humanity): -2 dice until the Remorse test.", flat)

    def test_not_impaired_when_the_stains_fit(self):
        self.char1.set_trait("stains", 3)
        self.do(CmdRoll, "dex vs 1", [6, 1, 2], "[Roll] Char rolls Dexterity 3 (3 dice), Hunger 2, vs 1")


class TestTeamworkSetting(TableTest):
    def test_the_setting_is_read_and_checked(self):
        self.assertEqual(dice_system().teamwork_rule, "seed")
        with override_settings(V5_TEAMWORK="core"):
            self.assertEqual(dice_system().teamwork_rule, "core")
        with override_settings(V5_TEAMWORK="nonsense"):
            with self.assertRaises(DiceError):
                dice_system()
